#!/usr/bin/env bash
# Installs what `make test` needs and a fresh machine lacks, so the README's
# test command works on a new Debian machine with only Go and kpt:
#
#   kustomize  pinned, built from the Go module proxy into bin/tools/ (never the
#              one a developer may have on PATH)
#   actionlint pinned, built the same way, to lint .github/workflows
#   podman     with runc and podman-docker (the `docker` CLI kustomize runs
#              container functions with), through apt when running as root;
#              otherwise a one-line instruction and exit 1
#
#   build/tools.sh kustomize|actionlint|podman|all
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KUSTOMIZE_VERSION=${KUSTOMIZE_VERSION:-v5.8.2}
ACTIONLINT_VERSION=v1.7.12
tools=$root/bin/tools

kustomize() {
  local have=""
  [ -x "$tools/kustomize" ] && have=$("$tools/kustomize" version 2>/dev/null || true)
  if [ "$have" = "$KUSTOMIZE_VERSION" ]; then
    return 0
  fi
  echo "tools: building kustomize $KUSTOMIZE_VERSION into bin/tools/ (Go module proxy)"
  mkdir -p "$tools"
  GOBIN=$tools GOTOOLCHAIN=local go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION"
}

actionlint() {
  if [ -x "$tools/actionlint" ] && [ "$("$tools/actionlint" --version | head -1)" = "$ACTIONLINT_VERSION" ]; then
    return 0
  fi
  echo "tools: building actionlint $ACTIONLINT_VERSION into bin/tools/ (Go module proxy)"
  mkdir -p "$tools"
  GOBIN=$tools GOTOOLCHAIN=local go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
}

podman() {
  local need=() pkg
  for pkg in podman runc podman-docker; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "tools: the image tests need ${need[*]}: run 'sudo apt-get install -y podman runc podman-docker' (or 'make test-short' to skip them)" >&2
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
  podman) podman ;;
  all) kustomize; actionlint; podman ;;
  *) echo "usage: $0 kustomize|actionlint|podman|all" >&2; exit 2 ;;
esac
