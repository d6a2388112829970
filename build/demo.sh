#!/usr/bin/env bash
# The demo: renders a copy of the kpt package examples/demo-shop with
# the four functions built by `make build`, and prints what the pipeline
# changed. Run it with `make demo`.
#
# The Kptfile's exec entries (./bin/<function>) are relative to kpt's working
# directory, so kpt runs from the repository root.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

missing=()
pkg=examples/demo-shop
for fn in $(sed -n 's#^ *- exec: \./bin/##p' "$pkg/Kptfile"); do
  [ -x "bin/$fn" ] || missing+=("$fn")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "demo: the pipeline needs bin/${missing[*]}: run 'make build' (are functions/${missing[*]} written yet?)" >&2
  exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for side in before after; do
  cp -R "$pkg" "$scratch/$side"
done

echo "== kpt fn render --allow-exec (pipeline of $pkg/Kptfile)"
kpt fn render --allow-exec "$scratch/after"
echo
echo "== What the pipeline changed (diff -ru before after)"
# diff exits 1 when the trees differ, which is the point of the demo; the
# timestamps it prints are noise here.
set +e
(cd "$scratch" && diff -ru before after) >"$scratch/diff"
status=$?
set -e
if [ $status -gt 1 ]; then
  exit $status
elif [ $status -eq 0 ]; then
  echo "(the pipeline changed nothing)"
else
  sed -E 's/^((---|\+\+\+) [^\t]*)\t.*/\1/' "$scratch/diff"
fi
