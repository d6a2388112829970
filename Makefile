# patchwork: four KRM functions. `make test` is what CI runs.
SHELL := /bin/bash
FUNCTIONS := multi-patch podspec-patch structured-replacement merge-values-generator
BIN := bin
VERSION ?= v0.1.0
GO ?= go

.PHONY: all build test unit e2e bench fuzz lint images demo generate clean

all: build

# Static binaries for the host, one per function that exists.
build:
	@mkdir -p $(BIN)
	@for f in $(FUNCTIONS); do \
	  if [ -d functions/$$f ]; then CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN)/$$f ./functions/$$f || exit 1; fi; \
	done

# Unit, golden and end-to-end tests.
test: build
	$(GO) vet ./...
	$(GO) test -count=1 ./...

unit:
	$(GO) test ./pkg/... ./functions/...

e2e: build
	$(GO) test -count=1 ./e2e/...

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
	@for pkg in $$($(GO) list ./pkg/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s $$pkg || exit 1; \
	  done; \
	done

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...

generate:
	$(GO) generate ./...

images: build
	./build/images.sh $(VERSION) $(FUNCTIONS)

demo: build
	./build/demo.sh

clean:
	rm -rf $(BIN)
