#!/bin/sh
# Emits resources.yaml with kustomize needs-hash hints, so kustomize hashes them.
cat "$(dirname "$0")/resources.yaml"
