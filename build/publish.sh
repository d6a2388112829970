#!/usr/bin/env bash
# Publishes what build/release.sh made and signs it (the release workflow's
# step; the release test runs it against a local registry with a key):
#
#   build/publish.sh VERSION FUNCTION...
#
#   1. pushes each image list, $IMAGE_REPO/<function>:VERSION, with both
#      platforms to $PUSH_REPO/<function>:VERSION (and vX.Y, vX for a
#      release; never for a pre-release);
#   2. signs each list and the images in it (cosign sign --recursive);
#   3. attests each platform's image with the CycloneDX SBOM of the binary it
#      holds (dist/<function>_VERSION_linux_<arch>.cdx.json; the binary is all
#      the software in the image);
#   4. writes dist/images.txt, one "<function> <image>:VERSION@<digest>" line
#      each, and adds it to SHA256SUMS;
#   5. signs SHA256SUMS into dist/SHA256SUMS.sigstore.json (a Sigstore bundle:
#      certificate, signature, transparency log entry).
#
# Signing is keyless (Sigstore's Fulcio and Rekor, with the GitHub Actions
# OIDC token) unless COSIGN_KEY names a private key: then with that key and
# no transparency log, which is how the test signs offline.
#
# Environment: DIST_DIR (dist/), IMAGE_REPO (ghcr.io/patchwork-krm, the local
# names), PUSH_REPO (IMAGE_REPO), TLS_VERIFY (true; false for a local plain
# HTTP registry), COSIGN and CRANE (bin/tools/), COSIGN_KEY, COSIGN_PASSWORD.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=build/version.sh
. "$root/build/version.sh"
if [ $# -lt 2 ] || ! parse_version "$1"; then
  echo "usage: $0 VERSION FUNCTION... (VERSION: vX.Y.Z or vX.Y.Z-PRE)" >&2
  exit 2
fi
version=$1
shift
dist=${DIST_DIR:-$root/dist}
repo=${IMAGE_REPO:-ghcr.io/patchwork-krm}
push=${PUSH_REPO:-$repo}
tls=${TLS_VERIFY:-true}
cosign=${COSIGN:-$root/bin/tools/cosign}
crane=${CRANE:-$root/bin/tools/crane}
export CONTAINERS_CONF=$root/build/containers.conf

for tool in "$cosign" "$crane"; do
  [ -x "$tool" ] || { echo "publish: $tool is missing: run './build/tools.sh release'" >&2; exit 1; }
done
[ -f "$dist/SHA256SUMS" ] || { echo "publish: $dist/SHA256SUMS is missing: run make release first" >&2; exit 1; }

sign=(--yes)
registry=()
crane_flags=()
if [ -n "${COSIGN_KEY:-}" ]; then
  sign+=(--key "$COSIGN_KEY" --use-signing-config=false --tlog-upload=false)
fi
if [ "$tls" = false ]; then
  registry+=(--allow-http-registry)
  crane_flags+=(--insecure)
fi

tags=("$version")
[ -z "$prerelease" ] && tags+=("$minor" "$major")

: >"$dist/images.txt"
for fn in "$@"; do
  digest=
  for tag in "${tags[@]}"; do
    digestfile=$(mktemp)
    podman manifest push --all --tls-verify="$tls" --digestfile "$digestfile" \
      "$repo/$fn:$version" "docker://$push/$fn:$tag" >/dev/null
    digest=$(cat "$digestfile")
    rm -f "$digestfile"
  done
  image=$push/$fn
  echo "$fn $image:$version@$digest" >>"$dist/images.txt"
  "$cosign" sign "${sign[@]}" "${registry[@]}" --recursive "$image@$digest"
  # Each platform's image by its digest in the registry (podman converts
  # manifests when pushing: the local list's digests differ).
  for arch in amd64 arm64; do
    platform=$("$crane" digest "${crane_flags[@]}" --platform "linux/$arch" "$image@$digest")
    "$cosign" attest "${sign[@]}" "${registry[@]}" --type cyclonedx \
      --predicate "$dist/${fn}_${version}_linux_${arch}.cdx.json" "$image@$platform"
  done
  echo "publish: $image:$version@$digest (tags ${tags[*]}), signed; SBOMs attested"
done
(cd "$dist" && sha256sum images.txt >>SHA256SUMS)
"$cosign" sign-blob "${sign[@]}" --bundle "$dist/SHA256SUMS.sigstore.json" "$dist/SHA256SUMS"
echo "publish: signed SHA256SUMS ($dist/SHA256SUMS.sigstore.json)"
