# patchwork: four KRM functions. `make test` is what CI runs.
SHELL := /bin/bash
FUNCTIONS := multi-patch podspec-patch structured-replacement merge-values-generator
BIN := bin
VERSION ?= v0.1.0
GO ?= go
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
# Stripped binaries that know their version (`<function> --version`).
LDFLAGS := -s -w -X github.com/patchwork-krm/patchwork/pkg/fnrun.version=$(VERSION) -X github.com/patchwork-krm/patchwork/pkg/fnrun.commit=$(COMMIT)

.PHONY: all build helm-plugins release tools test test-short unit e2e bench fuzz lint gofmt images demo generate clean

# Tools the tests need, pinned and project-local (build/tools.sh): kustomize,
# helm v3 and v4, cosign, cyclonedx-gomod and crane in bin/tools/, podman and
# runc through apt when root.
TOOLS := $(CURDIR)/bin/tools
TEST_ENV := PATH=$(TOOLS):$$PATH KUSTOMIZE=$(TOOLS)/kustomize HELM3=$(TOOLS)/helm3 HELM4=$(TOOLS)/helm4

all: build

# Static binaries for the host, one per function that exists.
build:
	@mkdir -p $(BIN)
	@for f in $(FUNCTIONS); do \
	  if [ -d functions/$$f ]; then CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/$$f ./functions/$$f || exit 1; fi; \
	done

# Helm 4 post-renderer plugins from the binaries in bin/: one directory per
# function in bin/helm-plugins/, for `helm plugin install bin/helm-plugins/<function>`.
helm-plugins: build
	@for f in $(FUNCTIONS); do \
	  if [ -x $(BIN)/$$f ]; then ./build/helm-plugin.sh $(BIN)/helm-plugins $(VERSION) $$f $(BIN)/$$f || exit 1; fi; \
	done

tools:
	@./build/tools.sh all

# What CI runs: make lint (gofmt, vet, actionlint), then every test of the
# module (./... is pkg/, internal/, functions/ and e2e/): unit, golden (each
# case standalone and through the kpt SDK), fuzz seed corpora, end to end.
test: build lint
	@./build/tools.sh all
	$(TEST_ENV) $(GO) test -count=1 -timeout 30m ./...

# The same without building and running container images: a quick local loop
# that needs neither podman nor runc.
test-short: build lint
	@./build/tools.sh kustomize
	@./build/tools.sh helm
	$(TEST_ENV) $(GO) test -short -count=1 -timeout 30m ./...

# Everything but e2e/: no binaries, no tools.
unit:
	$(GO) test ./pkg/... ./internal/... ./functions/...

e2e: build
	@./build/tools.sh all
	$(TEST_ENV) $(GO) test -count=1 -timeout 30m ./e2e/...

# Benchmarks: every figure is printed beside the identity pass it is measured against
# (identity: our reader and writer; identity-kyaml: kyaml's, the yardstick), with CPU
# time and peak RSS. BENCHCOUNT=5 repeats each to show the spread.
BENCHCOUNT ?= 1
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count $(BENCHCOUNT) -timeout 60m ./pkg/...
	$(GO) test -run '^$$' -bench Startup ./e2e/

# Short fuzzing of every fuzz target (seed corpora run in `make test` anyway).
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list ./pkg/... ./internal/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s $$pkg || exit 1; \
	  done; \
	done

lint: gofmt
	@./build/tools.sh actionlint
	$(TOOLS)/actionlint
	$(GO) vet ./...

# Every Go file is gofmt'ed. Found with find, not git ls-files: where git
# fails (a source archive, a checkout git will not read as this user) the
# list would be empty, and gofmt given no files reads stdin and passes.
gofmt:
	@files=$$(find . \( -path ./bin -o -path ./dist -o -path ./.git \) -prune -o -name '*.go' -print); \
	test -n "$$files" || { echo "gofmt: no Go files found" >&2; exit 1; }; \
	bad=$$(gofmt -l $$files); \
	test -z "$$bad" || { echo "not gofmt'ed (gofmt -w them):" >&2; echo "$$bad" >&2; exit 1; }

generate:
	$(GO) generate ./...

# Release artifacts in dist/: static binaries for linux/amd64, linux/arm64 and
# darwin/arm64, a CycloneDX SBOM of each, the Helm 4 plugin archives (signed:
# HELM_SIGNING_KEY, HELM_SIGNING_KEYRING, HELM_SIGNING_PUBRING, see
# build/release.sh),
# SHA256SUMS, and one multi-arch image (linux/amd64 + arm64) per function
# tagged VERSION (and vX.Y, vX unless a pre-release such as v0.3.0-rc.1).
# build/release.sh checks VERSION. Offline: no base image is pulled.
release:
	@./build/tools.sh release
	@./build/tools.sh helm
	./build/release.sh $(VERSION) $(FUNCTIONS)

images: build
	./build/images.sh $(VERSION) $(FUNCTIONS)

demo: build
	@command -v kpt >/dev/null || { echo "make demo needs kpt: see https://kpt.dev/installation/ (a release binary on PATH is enough)" >&2; exit 1; }
	./build/demo.sh

clean:
	rm -rf $(BIN) dist
