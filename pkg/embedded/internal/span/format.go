package span

// Format is the language a document is read as.
type Format uint8

const (
	// JSON documents are read by this package's own tokenizer, which keeps
	// the byte offset of every value.
	JSON Format = iota + 1
	// YAML documents are parsed by yaml.v3; byte spans are computed from
	// the positions it reports.
	YAML
)

// String returns "JSON" or "YAML".
func (f Format) String() string {
	if f == JSON {
		return "JSON"
	}
	return "YAML"
}

// Parse reads text as a document of format f: JSON, or YAML for any other
// value.
func Parse(text string, f Format) (*Tree, error) {
	if f == JSON {
		return ParseJSON(text)
	}
	return ParseYAML(text)
}
