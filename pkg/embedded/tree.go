package embedded

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
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

type kind uint8

const (
	scalarKind kind = iota
	mapKind
	seqKind
	aliasKind
)

func (k kind) String() string {
	switch k {
	case mapKind:
		return "map"
	case seqKind:
		return "list"
	case aliasKind:
		return "alias"
	}
	return "scalar"
}

type style uint8

const (
	plainStyle style = iota
	singleStyle
	doubleStyle
	literalStyle
	foldedStyle
)

// Tags of the scalar types a replacement distinguishes.
const (
	strTag   = "!!str"
	intTag   = "!!int"
	floatTag = "!!float"
	boolTag  = "!!bool"
	nullTag  = "!!null"
)

// node is one value of a parsed document and where it sits in the text.
// Spans are byte offsets [start, end) into the document text and cover the
// value only: not a YAML anchor or tag before it, nor the comment after it.
type node struct {
	kind  kind
	style style
	// flow is true for JSON and for YAML flow collections ({...}, [...]);
	// closeAt is then the offset of the closing bracket.
	flow bool
	// lazy: a JSON map or list whose entries are not built yet (doc.open).
	lazy bool
	// inFlow: a YAML value inside a flow collection, where plain scalars
	// may not hold ",[]{}".
	inFlow      bool
	explicitTag bool

	start, end int
	closeAt    int

	// Scalars.
	value string
	tag   string // strTag, intTag, ...; other YAML tags are kept as written

	// Collections: keys (maps only) and values or elements, in order.
	keys     []*node
	children []*node
	// keyIndex finds the keys of a large map (findKey).
	keyIndex map[string]int

	// YAML only (nil for JSON, which has many more, smaller nodes).
	*yamlInfo
}

// yamlInfo is what only YAML nodes need.
type yamlInfo struct {
	yn *yaml.Node
	// col is the indentation (in bytes) of a block collection's keys or
	// dashes.
	col int
	// parentIndent is the indentation of the block that holds the value,
	// which fixes the content indentation of a block scalar with an
	// indentation indicator (-1 at the top level).
	parentIndent int
	// Block scalars: the offset after the indicator characters (| or >,
	// chomping, indentation), the rest of the header line (a comment), and
	// the indentation of the content lines.
	headerEnd   int
	headerRest  string
	blockIndent int
	// propStart is where the value's anchor or tag starts (start when it
	// has none).
	propStart int
}

// doc is a parsed document.
type doc struct {
	format Format
	text   string
	root   *node
	lines  []int // byte offset of the start of each line
	// YAML style facts used when new lines are written.
	newline string
	unit    int // indentation step
	// seqIndented: 1 when block lists under a key are indented, -1 when
	// they are not, 0 when the document does not say.
	seqIndented int
	byYAML      map[*yaml.Node]*node
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
	keyQuote *style
}

// position converts a byte offset to a 1-based line and column (columns
// count characters, as editors and yaml.v3 do).
func (d *doc) position(off int) (line, col int) {
	lines := d.lineTable()
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, utf8.RuneCountInString(d.text[lines[lo]:min(off, len(d.text))]) + 1
}

// lineTable returns the line starts, computed on first use for JSON, which
// needs them only for messages and for laying out new entries.
func (d *doc) lineTable() []int {
	if d.lines == nil {
		d.lines = lineStarts(d.text, d.format == YAML)
	}
	return d.lines
}

// lineStarts returns the offsets where lines begin. "\r\n", "\r" and "\n"
// break lines; for YAML so do NEL, LS and PS, as yaml.v3 counts them.
func lineStarts(text string, yamlBreaks bool) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case 0xC2:
			if yamlBreaks && i+1 < len(text) && text[i+1] == 0x85 {
				i++
				starts = append(starts, i+1)
			}
		case 0xE2:
			if yamlBreaks && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9) {
				i += 2
				starts = append(starts, i+1)
			}
		}
	}
	return starts
}

// lineOf returns the index of the line holding off.
func (d *doc) lineOf(off int) int {
	l, _ := d.position(off)
	return l - 1
}

// describe names a node for messages: "JSON object at line 3, column 5".
func (d *doc) describe(n *node) string {
	line, col := d.position(n.start)
	what := n.kind.String()
	if d.format == JSON {
		switch n.kind {
		case mapKind:
			what = "object"
		case seqKind:
			what = "array"
		}
	} else if n.kind == scalarKind {
		what = "scalar"
	}
	if n.kind == scalarKind {
		if n.tag == strTag {
			what = "string"
		} else {
			what = strings.TrimPrefix(n.tag, "!!")
		}
	}
	return fmt.Sprintf("%s %s at line %d, column %d", d.format, what, line, col)
}

// detectNewline returns the line break the text uses.
func detectNewline(text string) string {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
