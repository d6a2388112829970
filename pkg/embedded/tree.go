package embedded

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

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

func (f Format) String() string {
	if f == JSON {
		return "JSON"
	}
	return "YAML"
}

// doc is a parsed document and what an edit of it needs to know besides:
// where the text is held, whether it is secret, and the facts about its
// layout worked out along the way. The span tree is shared by every doc of
// the same text (Cache); the rest is the edit's own.
type doc struct {
	*span.Tree
	format Format
	// where names the place holding the text, for messages.
	where fieldpath.Path
	// secret: Options.Secret; messages must not show values.
	secret bool
	// jsonish: YAML that looks like JSON but is not strict JSON
	// ({"a": b}); new strings and keys are double-quoted to match.
	jsonish bool
	// raw, when set, is the JSON text SetText writes instead of rendering
	// the value.
	raw string
	// givenType, givenStyle: Options.GivenType and GivenStyle of the edit
	// under way.
	givenType, givenStyle bool
	// layout: what the JSON text says of its layout (jsonLayout).
	layout *layoutFacts
	// keyQuote: how every key is quoted, if alike (keyQuoting); nil
	// until needed.
	keyQuote *span.Style
}

// parseAs parses text as a document of format f.
func parseAs(text string, f Format) (*doc, error) {
	var t *span.Tree
	var err error
	if f == JSON {
		t, err = span.ParseJSON(text)
	} else {
		f = YAML
		t, err = span.ParseYAML(text)
	}
	if err != nil {
		return nil, err
	}
	return &doc{Tree: t, format: f}, nil
}

// describe names a node for messages: "JSON object at line 3, column 5".
func (d *doc) describe(n *span.Node) string {
	line, col := d.Position(n.Start)
	what := n.Kind.String()
	if d.format == JSON {
		switch n.Kind {
		case span.Map:
			what = "object"
		case span.Seq:
			what = "array"
		}
	} else if n.Kind == span.Scalar {
		what = "scalar"
	}
	if n.Kind == span.Scalar {
		if n.Tag == span.StrTag {
			what = "string"
		} else {
			what = strings.TrimPrefix(n.Tag, "!!")
		}
	}
	return fmt.Sprintf("%s %s at line %d, column %d", d.format, what, line, col)
}
