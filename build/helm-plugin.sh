#!/usr/bin/env bash
# Assembles a function's Helm 4 post-renderer plugin (Helm 4 runs
# post-renderers only as plugins):
#
#   build/helm-plugin.sh DIR VERSION FUNCTION BINARY
#       DIR/FUNCTION/: plugin.yaml, the binary (named FUNCTION) and
#       post-renderer, ready for `helm plugin install DIR/FUNCTION`
#   build/helm-plugin.sh DIR VERSION FUNCTION BINARY OS/ARCH
#       the release archive DIR/FUNCTION-X.Y.Z-OS-ARCH.tgz holding the same
#       under FUNCTION/, packaged by `helm plugin package --sign`, with its
#       provenance DIR/FUNCTION-X.Y.Z-OS-ARCH.tgz.prov beside it, for
#       `helm plugin install FILE-or-URL` (which verifies it)
#
# An archive's plugin version is X.Y.Z-OS-ARCH: Helm names the archive after
# the plugin's name and version, and the provenance signs that name, so an
# archive per platform needs a version per platform. (Not semver's build
# metadata, X.Y.Z+OS-ARCH: GitHub may rename a release asset with a "+".)
# Helm reads the plugin's name from the file name up to "-X.Y.Z".
#
# Signing (archives only): HELM_SIGNING_KEY names the PGP key (helm's --key),
# HELM_SIGNING_KEYRING is the secret keyring holding it (a binary keyring,
# `gpg --export-secret-keys`), HELM_SIGNING_PASSPHRASE_FILE its passphrase
# if it has one. HELM_PLUGIN_SIGN=0 packages without signing (no .prov: for
# a try, never for a release). Helm is $HELM4, or bin/tools/helm4.
# `make helm-plugins` and build/release.sh run this.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
  echo "usage: $0 DIR VERSION FUNCTION BINARY [OS/ARCH]" >&2
  exit 2
fi
dir=$1 version=${2#v} fn=$3 bin=$4 platform=${5:-}
helm=${HELM4:-$root/bin/tools/helm4}

write_plugin() {
  local to=$1 version=$2
  mkdir -p "$to"
  # The version must be strict semver without the "v" (Helm checks it).
  cat >"$to/plugin.yaml" <<YAML
# Helm 4 post-renderer plugin: helm template|install|upgrade --post-renderer $fn
# --post-renderer-args CONFIG runs $fn standalone (CONFIG, resources on stdin).
apiVersion: v1
type: postrenderer/v1
name: $fn
version: $version
runtime: subprocess
sourceURL: https://github.com/patchwork-krm/patchwork
runtimeConfig:
  platformCommand:
  # On Linux through post-renderer, which shows the function's messages
  # (Helm 4 discards a plugin's stderr).
  - os: linux
    command: \${HELM_PLUGIN_DIR}/post-renderer
  - command: \${HELM_PLUGIN_DIR}/$fn
YAML
  cp "$bin" "$to/$fn"
  cp "$root/build/helm-plugin/post-renderer" "$to/post-renderer"
  chmod 0755 "$to/$fn" "$to/post-renderer"
}

if [ -z "$platform" ]; then
  rm -rf "${dir:?}/$fn"
  write_plugin "$dir/$fn" "$version"
  exit 0
fi

sign=(--sign=false)
if [ "${HELM_PLUGIN_SIGN:-1}" != 0 ]; then
  if [ -z "${HELM_SIGNING_KEY:-}" ] || [ ! -f "${HELM_SIGNING_KEYRING:-}" ]; then
    echo "$0: a release archive is signed: set HELM_SIGNING_KEY (the key's name) and HELM_SIGNING_KEYRING (the secret keyring holding it); HELM_PLUGIN_SIGN=0 packages it unsigned" >&2
    exit 1
  fi
  sign=(--sign --key "$HELM_SIGNING_KEY" --keyring "$HELM_SIGNING_KEYRING")
  [ -n "${HELM_SIGNING_PASSPHRASE_FILE:-}" ] && sign+=(--passphrase-file "$HELM_SIGNING_PASSPHRASE_FILE")
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
write_plugin "$stage/$fn" "$version-${platform%/*}-${platform#*/}"
# Reproducible: Helm writes the files' times and no gzip timestamp; the
# files take the commit's time.
mtime=$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)
find "$stage/$fn" -exec touch -h -d "@$mtime" {} +
mkdir -p "$dir"
"$helm" plugin package "${sign[@]}" -d "$dir" "$stage/$fn" >/dev/null
