#!/usr/bin/env bash
# Assembles a function's Helm 4 post-renderer plugin (Helm 4 runs
# post-renderers only as plugins):
#
#   build/helm-plugin.sh DIR VERSION FUNCTION BINARY
#       DIR/FUNCTION/: plugin.yaml, the binary (named FUNCTION) and
#       post-renderer, ready for `helm plugin install DIR/FUNCTION`
#   build/helm-plugin.sh DIR VERSION FUNCTION BINARY OS/ARCH
#       the release archive DIR/FUNCTION-X.Y.Z-OS-ARCH.tgz holding the same
#       under FUNCTION/, for `helm plugin install FILE-or-URL`
#
# Helm names an archive's plugin by the file name up to "-X.Y.Z" and looks
# for FUNCTION/plugin.yaml inside, so the name must be exactly this shape.
# `make helm-plugins` and build/release.sh run this.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
  echo "usage: $0 DIR VERSION FUNCTION BINARY [OS/ARCH]" >&2
  exit 2
fi
dir=$1 version=${2#v} fn=$3 bin=$4 platform=${5:-}

write_plugin() {
  local to=$1
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
  write_plugin "$dir/$fn"
  exit 0
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
write_plugin "$stage/$fn"
archive=$dir/$fn-$version-${platform%/*}-${platform#*/}.tgz
mkdir -p "$dir"
# Reproducible: sorted names, no owner, the commit's time, no gzip timestamp.
mtime=$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -cf - "$fn" |
  gzip -n -9 >"$archive"
