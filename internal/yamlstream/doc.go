// Package yamlstream splits a YAML stream (documents separated by ---) into
// its documents: the one splitter for patch texts and schema files alike.
// Empty documents (nothing, only comments, or null) are skipped, as
// kustomize skips them; the first document that is not YAML stops the split
// with yaml.v3's error, which internal/yamlerr can then place on its line.
package yamlstream
