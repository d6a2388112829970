#!/usr/bin/env bash
# Installs what `make test` needs and a fresh machine lacks, so the README's
# test command works on a new Debian machine with only Go and kpt:
#
#   kustomize  pinned, built static from the Go module proxy into bin/tools/
#              (never the one a developer may have on PATH)
#   actionlint pinned, built the same way, to lint .github/workflows
#   helm3, helm4  Helm v3 and v4, built the same way (the Helm post-renderer and
#              plugin tests; both are `helm`, so each gets its major in its name)
#   cosign, cyclonedx-gomod, crane
#              the release's signing, SBOM and registry tools, built the same
#              way (crane's in-memory registry stands in for ghcr.io in tests)
#   podman     with runc and podman-docker (the `docker` CLI kustomize runs
#              container functions with), and curl (the documented downloads
#              the tests run against a local server), through apt when
#              running as root; otherwise a one-line instruction and exit 1
#
#   build/tools.sh kustomize|actionlint|helm|release|podman|all
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KUSTOMIZE_VERSION=${KUSTOMIZE_VERSION:-v5.8.2}
ACTIONLINT_VERSION=v1.7.12
HELM3_VERSION=v3.22.0
HELM4_VERSION=v4.3.1
COSIGN_VERSION=v3.1.3
CYCLONEDX_GOMOD_VERSION=v1.10.0
CRANE_VERSION=v0.22.1
tools=$root/bin/tools

# Static (CGO_ENABLED=0), as kustomize's own release binaries are: the Argo CD
# test runs it inside a scratch image standing in for Argo CD's.
kustomize() {
  goinstall kustomize sigs.k8s.io/kustomize/kustomize/v5 "$KUSTOMIZE_VERSION"
}

actionlint() {
  if [ -x "$tools/actionlint" ] && [ "$("$tools/actionlint" --version | sed -n 1p)" = "$ACTIONLINT_VERSION" ]; then
    return 0
  fi
  echo "tools: building actionlint $ACTIONLINT_VERSION into bin/tools/ (Go module proxy)"
  mkdir -p "$tools"
  GOBIN=$tools GOTOOLCHAIN=local go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
}

# goinstall NAME PACKAGE VERSION [LDFLAGS]: builds PACKAGE@VERSION from the Go
# module proxy, static, into bin/tools/NAME. A stamp beside it records what
# was built, so a pin that moves rebuilds and an unchanged one costs nothing.
goinstall() {
  local name=$1 pkg=$2 version=$3 ldflags=${4:-} stamp want gobin
  stamp=$tools/.$name.version
  want="$pkg@$version $ldflags"
  if [ -x "$tools/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  echo "tools: building $name ($pkg@$version) into bin/tools/ (Go module proxy)"
  mkdir -p "$tools"
  gobin=$(mktemp -d)
  CGO_ENABLED=0 GOBIN=$gobin GOTOOLCHAIN=local go install -trimpath -ldflags "-s -w $ldflags" "$pkg@$version"
  mv "$gobin"/* "$tools/$name" # one binary, named after the package (kustomize/v5 gives kustomize)
  rm -rf "$gobin"
  printf '%s\n' "$want" >"$stamp"
}

# Helm stamps its version at build time (its Makefile's ldflags); without it
# `helm version` says v3.22 and plugins see no patch release.
helm() {
  goinstall helm3 helm.sh/helm/v3/cmd/helm "$HELM3_VERSION" \
    "-X helm.sh/helm/v3/internal/version.version=$HELM3_VERSION -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
  goinstall helm4 helm.sh/helm/v4/cmd/helm "$HELM4_VERSION" \
    "-X helm.sh/helm/v4/internal/version.version=$HELM4_VERSION -X helm.sh/helm/v4/internal/version.gitTreeState=clean"
}

release_tools() {
  goinstall cosign github.com/sigstore/cosign/v3/cmd/cosign "$COSIGN_VERSION" \
    "-X sigs.k8s.io/release-utils/version.gitVersion=$COSIGN_VERSION"
  goinstall cyclonedx-gomod github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod "$CYCLONEDX_GOMOD_VERSION"
  goinstall crane github.com/google/go-containerregistry/cmd/crane "$CRANE_VERSION"
}

podman() {
  local need=() pkg
  for pkg in podman runc podman-docker curl gpg; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "tools: the tests need ${need[*]}: run 'sudo apt-get install -y ${need[*]}' (or 'make test-short' to skip the image tests)" >&2
    exit 1
  fi
  echo "tools: installing ${need[*]} with apt"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/tmp/patchwork-apt.log 2>&1 ||
    { tail -30 /tmp/patchwork-apt.log >&2; exit 1; }
}

case ${1:-all} in
  kustomize) kustomize ;;
  actionlint) actionlint ;;
  helm) helm ;;
  release) release_tools ;;
  podman) podman ;;
  all) kustomize; actionlint; helm; release_tools; podman ;;
  *) echo "usage: $0 kustomize|actionlint|helm|release|podman|all" >&2; exit 2 ;;
esac
