package embedded

// Format is the language of a document held in a string.
type Format uint8

const (
	// JSON documents are parsed by this package's own tokenizer, which keeps
	// the byte offset of every value.
	JSON Format = iota + 1
	// YAML documents are parsed by yaml.v3; byte spans are computed from the
	// positions it reports.
	YAML
)

// String returns "JSON" or "YAML".
func (f Format) String() string {
	if f == JSON {
		return "JSON"
	}
	return "YAML"
}
