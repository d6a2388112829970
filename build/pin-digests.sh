#!/usr/bin/env bash
# Pins the docs and examples to a release's images by digest, the tag beside
# it: every ghcr.io/patchwork-krm/<function>:vX.Y.Z reference (pinned or not)
# becomes ghcr.io/patchwork-krm/<function>:<version>@sha256:<digest>, so that
# a copied command runs exactly the image that was signed. Local tags
# (:dev, :e2e-...) and CHANGELOG.md are left alone. A pre-release pins
# nothing: the docs stay on the last release.
#
#   build/pin-digests.sh IMAGES_FILE
#
# IMAGES_FILE is the images.txt build/publish.sh writes ("<function>
# <image>:<version>@<digest>" lines). The release workflow runs this after
# publishing and opens a pull request with the result.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=build/version.sh
. "$root/build/version.sh"
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 IMAGES_FILE (dist/images.txt from build/publish.sh)" >&2
  exit 2
fi
images=$1
docs_repo=ghcr.io/patchwork-krm
semver='v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]*[0-9A-Za-z])?'

cd "$root"
files=()
while IFS= read -r f; do
  files+=("$f")
done < <(git ls-files -- README.md 'functions/*/README.md' docs examples 2>/dev/null ||
  find README.md functions/*/README.md docs examples -type f)

while read -r fn ref; do
  [ -n "$fn" ] || continue
  if ! [[ $ref =~ :(v[^@:]+)@(sha256:[0-9a-f]{64})$ ]]; then
    echo "pin-digests: $images: cannot read '$fn $ref'" >&2
    exit 1
  fi
  version=${BASH_REMATCH[1]} digest=${BASH_REMATCH[2]}
  parse_version "$version" || { echo "pin-digests: $images: bad version $version" >&2; exit 1; }
  if [ -n "$prerelease" ]; then
    echo "pin-digests: $version is a pre-release: the docs stay on the last release"
    exit 0
  fi
  pattern="$docs_repo/$fn:$semver(@sha256:[0-9a-f]{64})?"
  for f in "${files[@]}"; do
    [ -f "$f" ] || continue
    if grep -qE "$pattern" "$f"; then
      sed -E -i "s#$pattern#$docs_repo/$fn:$version@$digest#g" "$f"
      echo "pin-digests: $f: $fn pinned to $version@${digest:0:19}..."
    fi
  done
done <"$images"
