package embedded

import "github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"

// Format is the language of a document held in a string: JSON or YAML
// (the zero Format lets the text decide). Its String is "JSON" or "YAML".
type Format = span.Format

const (
	// JSON documents are parsed by this package's own tokenizer, which keeps
	// the byte offset of every value.
	JSON = span.JSON
	// YAML documents are parsed by yaml.v3; byte spans are computed from the
	// positions it reports.
	YAML = span.YAML
)
