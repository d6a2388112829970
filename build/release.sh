#!/usr/bin/env bash
# Builds the release artifacts of VERSION into dist/ (or $DIST_DIR):
#
#   <function>_<version>_<os>_<arch>   stripped static binaries for linux/amd64,
#                                      linux/arm64 and darwin/arm64
#   SHA256SUMS                         their checksums (sha256sum -c SHA256SUMS)
#
# and, unless RELEASE_IMAGES=0, one image manifest list per function for
# linux/amd64 and linux/arm64, $IMAGE_REPO/<function>:vX.Y.Z, also tagged vX.Y
# and vX, with OCI labels. Nothing is pulled: the images are scratch plus the
# binary (build/Dockerfile.local), and the Go build needs only the module cache.
#
#   build/release.sh vX.Y.Z FUNCTION...
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 2 ] || ! [[ $1 =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "usage: $0 vX.Y.Z FUNCTION..." >&2
  exit 2
fi
version=$1
minor=v${BASH_REMATCH[1]}.${BASH_REMATCH[2]}
major=v${BASH_REMATCH[1]}
shift
dist=${DIST_DIR:-$root/dist}
repo=${IMAGE_REPO:-ghcr.io/patchwork-krm}
engine=${CONTAINER_ENGINE:-podman}
export CONTAINERS_CONF=$root/build/containers.conf

cd "$root"
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# The commit's time, not the build's: the same commit gives the same labels.
created=$(git log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -X github.com/patchwork-krm/patchwork/pkg/fnrun.version=$version -X github.com/patchwork-krm/patchwork/pkg/fnrun.commit=${commit:0:12}"

rm -rf "$dist"
mkdir -p "$dist"
for fn in "$@"; do
  for target in linux/amd64 linux/arm64 darwin/arm64; do
    os=${target%/*} arch=${target#*/}
    out=$dist/${fn}_${version}_${os}_${arch}
    CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOTOOLCHAIN=local \
      go build -trimpath -ldflags "$ldflags" -o "$out" "./functions/$fn"
    echo "release: built $(basename "$out")"
  done
done
(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "release: wrote SHA256SUMS"

[ "${RELEASE_IMAGES:-1}" = 0 ] && exit 0
if ! command -v "$engine" >/dev/null; then
  echo "release: $engine not found (make tools installs podman; RELEASE_IMAGES=0 skips the images)" >&2
  exit 1
fi
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
cp build/passwd build/group "$ctx/"
for fn in "$@"; do
  list=$repo/$fn:$version
  # A list left by an earlier run would gain a second pair of images.
  "$engine" manifest rm "$list" >/dev/null 2>&1 || true
  "$engine" manifest create "$list" >/dev/null
  for arch in amd64 arm64; do
    cp "$dist/${fn}_${version}_linux_${arch}" "$ctx/$fn"
    "$engine" build --quiet --platform "linux/$arch" --manifest "$list" \
      --file build/Dockerfile.local \
      --build-arg "FUNCTION=$fn" --build-arg "VERSION=$version" \
      --build-arg "REVISION=$commit" --build-arg "CREATED=$created" \
      "$ctx" >/dev/null
  done
  rm -f "$ctx/$fn"
  for tag in "$minor" "$major"; do
    "$engine" manifest rm "$repo/$fn:$tag" >/dev/null 2>&1 || true
    "$engine" tag "$list" "$repo/$fn:$tag"
  done
  echo "release: image $list (linux/amd64, linux/arm64), also :$minor and :$major"
done
