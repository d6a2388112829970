#!/usr/bin/env bash
# Builds the release artifacts of VERSION into dist/ (or $DIST_DIR):
#
#   <function>_<version>_<os>_<arch>           stripped static binaries for
#                                              linux/amd64, linux/arm64 and
#                                              darwin/arm64
#   <function>_<version>_<os>_<arch>.cdx.json  a CycloneDX SBOM of each binary
#                                              (cyclonedx-gomod, from the
#                                              module list Go embeds in it); the
#                                              linux ones are also the images'
#   <function>-<X.Y.Z>-<os>-<arch>.tgz         the Helm 4 post-renderer plugin
#                                              (build/helm-plugin.sh: helm
#                                              plugin package --sign), and
#   <function>-<X.Y.Z>-<os>-<arch>.tgz.prov    its provenance, which
#                                              helm plugin install verifies
#   patchwork-keyring.gpg                      the public key that signed them
#                                              (for helm's --keyring)
#   SHA256SUMS                                 checksums of all of the above
#                                              (sha256sum -c SHA256SUMS)
#
# The plugins are signed with the PGP key HELM_SIGNING_KEY names, from the
# secret keyring HELM_SIGNING_KEYRING (HELM_SIGNING_PASSPHRASE_FILE if it
# has a passphrase); HELM_SIGNING_PUBRING is its public keyring, published
# as patchwork-keyring.gpg and checked against each archive (helm plugin
# verify) before the release counts it built.
#
# and, unless RELEASE_IMAGES=0, one image manifest list per function for
# linux/amd64 and linux/arm64, $IMAGE_REPO/<function>:<version> with OCI
# labels, also tagged vX.Y and vX unless VERSION is a pre-release
# (v0.3.0-rc.1: a pre-release moves no tag users follow). Nothing is pulled:
# the images are scratch plus the binary (build/Dockerfile.local), and the Go
# build needs only the module cache. build/publish.sh pushes and signs them.
#
#   build/release.sh VERSION FUNCTION...     VERSION: vX.Y.Z or vX.Y.Z-PRE
#
# IMAGE_IDS_FILE, when set, gets the ID of every per-arch image built.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=build/version.sh
. "$root/build/version.sh"
if [ $# -lt 2 ] || ! parse_version "$1"; then
  echo "usage: $0 VERSION FUNCTION... (VERSION: vX.Y.Z or a pre-release vX.Y.Z-rc.1; got ${1:-nothing})" >&2
  exit 2
fi
version=$1
shift
dist=${DIST_DIR:-$root/dist}
repo=${IMAGE_REPO:-ghcr.io/patchwork-krm}
engine=${CONTAINER_ENGINE:-podman}
cyclonedx=${CYCLONEDX_GOMOD:-$root/bin/tools/cyclonedx-gomod}
export CONTAINERS_CONF=$root/build/containers.conf
if [ ! -x "$cyclonedx" ]; then
  echo "release: $cyclonedx is missing: run './build/tools.sh release' (make release does)" >&2
  exit 1
fi
helm=${HELM4:-$root/bin/tools/helm4}
if [ -z "${HELM_SIGNING_KEY:-}" ] || [ ! -f "${HELM_SIGNING_KEYRING:-}" ] || [ ! -f "${HELM_SIGNING_PUBRING:-}" ]; then
  echo "release: the Helm plugins are signed: set HELM_SIGNING_KEY (the key's name), HELM_SIGNING_KEYRING (its secret keyring) and HELM_SIGNING_PUBRING (its public keyring)" >&2
  exit 1
fi

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
    # Deterministic (no serial number or timestamp): the same commit gives
    # the same SBOM. The binary's hashes are in it.
    "$cyclonedx" bin -json -noserial -notimestamp -version "$version" -output "$out.cdx.json" "$out"
    HELM_PLUGIN_SIGN=1 "$root/build/helm-plugin.sh" "$dist" "$version" "$fn" "$out" "$target"
    "$helm" plugin verify --keyring "$HELM_SIGNING_PUBRING" "$dist/$fn-${version#v}-$os-$arch.tgz" >/dev/null
    echo "release: built $(basename "$out"), its SBOM and signed Helm plugin"
  done
done
cp "$HELM_SIGNING_PUBRING" "$dist/patchwork-keyring.gpg"
(cd "$dist" && sha256sum -- * >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
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
    # --layers=false: no intermediate images, so that the per-arch images the
    # list holds are all this leaves.
    id=$("$engine" build --quiet --layers=false --platform "linux/$arch" --manifest "$list" \
      --file build/Dockerfile.local \
      --build-arg "FUNCTION=$fn" --build-arg "VERSION=$version" \
      --build-arg "REVISION=$commit" --build-arg "CREATED=$created" \
      "$ctx")
    # Whoever must remove exactly these later (the release test) asks for
    # their IDs: podman cannot list images while a local list exists.
    [ -n "${IMAGE_IDS_FILE:-}" ] && echo "$id" >>"$IMAGE_IDS_FILE"
  done
  rm -f "$ctx/$fn"
  if [ -n "$prerelease" ]; then
    echo "release: image $list (linux/amd64, linux/arm64); a pre-release: $minor and $major stay where they are"
    continue
  fi
  for tag in "$minor" "$major"; do
    "$engine" manifest rm "$repo/$fn:$tag" >/dev/null 2>&1 || true
    "$engine" tag "$list" "$repo/$fn:$tag"
  done
  echo "release: image $list (linux/amd64, linux/arm64), also :$minor and :$major"
done
