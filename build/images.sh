#!/usr/bin/env bash
# Builds the container image of each function from the static binary that
# `make build` put in bin/, without pulling any base image (build/Dockerfile.local
# starts from scratch). Images are tagged $IMAGE_REPO/<function>:<version>.
#
#   build/images.sh VERSION FUNCTION...
#
# A function whose functions/<name> directory does not exist yet is skipped with
# a message; one that exists but has no binary is an error.
#
# Environment: BIN_DIR (default bin/), IMAGE_REPO (default ghcr.io/patchwork-krm),
# CONTAINER_ENGINE (default podman; docker works too). CONTAINERS_CONF is set to
# build/containers.conf, the podman settings our machines need (runc, ulimits).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: $0 VERSION FUNCTION..." >&2
  exit 2
fi
version=$1
shift
bin=${BIN_DIR:-$root/bin}
repo=${IMAGE_REPO:-ghcr.io/patchwork-krm}
engine=${CONTAINER_ENGINE:-podman}
export CONTAINERS_CONF=$root/build/containers.conf

if ! command -v "$engine" >/dev/null; then
  echo "images.sh: $engine not found (Debian: apt-get install podman runc)" >&2
  exit 1
fi

ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
cp "$root/build/passwd" "$root/build/group" "$ctx/"

for fn in "$@"; do
  if [ ! -d "$root/functions/$fn" ]; then
    echo "images.sh: skipping $fn: functions/$fn does not exist yet"
    continue
  fi
  if [ ! -x "$bin/$fn" ]; then
    echo "images.sh: $bin/$fn is missing: run 'make build' first" >&2
    exit 1
  fi
  # A dynamically linked binary would fail at start-up in a scratch image,
  # far from here; catch it now.
  if command -v ldd >/dev/null && ldd "$bin/$fn" >/dev/null 2>&1; then
    echo "images.sh: $bin/$fn is dynamically linked: build it with CGO_ENABLED=0" >&2
    exit 1
  fi
  cp "$bin/$fn" "$ctx/$fn"
  image=$repo/$fn:$version
  old=$("$engine" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
  # --layers=false: no intermediate image is left behind (nothing prunes them).
  new=$("$engine" build --quiet --layers=false --file "$root/build/Dockerfile.local" \
    --build-arg "FUNCTION=$fn" --build-arg "VERSION=$version" \
    --tag "$image" "$ctx")
  rm -f "$ctx/$fn"
  # A rebuild moves the tag; drop the image it leaves untagged, so that
  # repeated builds do not pile up. (It may still be in use: then keep it.)
  if [ -n "$old" ] && [ "$old" != "$new" ]; then
    "$engine" rmi "$old" >/dev/null 2>&1 || true
  fi
  echo "images.sh: built $image"
done
