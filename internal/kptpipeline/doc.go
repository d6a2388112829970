// Package kptpipeline says whether a kpt package's pipelines run only the
// programs a renderer trusts. `kpt fn render --allow-exec` runs every
// function the package's Kptfiles name, and those of every package nested
// in it: an `exec:` may name a script committed in the package, an
// `image:` any container. A renderer that runs other people's packages (the
// Argo CD plugin and the Flux workflow of docs/integrations.md) checks the
// package first: Untrusted refuses every pipeline entry that is not one of
// the trusted functions named by name (`exec: multi-patch`, found on the
// renderer's PATH), reading each Kptfile as kpt reads it (yaml.v3:
// anchors, aliases and << expanded; every document, not only the first).
package kptpipeline
