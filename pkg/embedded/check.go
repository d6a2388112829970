package embedded

import "github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"

// Check reports whether text is a document of format f as this package
// reads it: for JSON, strict RFC 8259 JSON with valid UTF-8 in its
// strings, nested at most 1000 levels below the top. A caller that must tell a value
// it cannot edit from one it can asks first.
func Check(text string, f Format) error {
	if f != JSON {
		f = YAML
	}
	if _, err := span.Parse(text, f); err != nil {
		return syntaxMessage(err, f, nil, false)
	}
	return nil
}
