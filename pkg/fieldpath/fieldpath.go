package fieldpath

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// Kind says what a segment selects.
type Kind uint8

const (
	// Field is a key of a map.
	Field Kind = iota
	// Index is a position in a list, counted from 0. Applied to a map, it is
	// the key with the same digits.
	Index
	// Match selects the list elements whose field Key has a value that
	// Value, a regular expression, matches whole (or that is Value's text);
	// with an empty Key, the scalar elements it matches.
	Match
	// Wildcard selects every element of a list (or every value of a map).
	Wildcard
)

func (k Kind) String() string {
	switch k {
	case Index:
		return "index"
	case Match:
		return "matcher"
	case Wildcard:
		return "wildcard"
	}
	return "field"
}

// Segment is one step of a path.
type Segment struct {
	Kind Kind
	// Key is the map key (Field, and Index used on a map: the digits) or the
	// field compared by a Match ("" for scalar elements).
	Key string
	// Value is the text of a Match's regular expression, as written.
	Value string
	// Index is the list position of an Index segment.
	Index int
	// re is Value compiled, for a Match made by Parse or NewMatch; a
	// Match written as a literal compiles it when it is used.
	re *matcher
}

// NewMatch returns the segment [key=value], its expression compiled.
func NewMatch(key, value string) Segment {
	return Segment{Kind: Match, Key: key, Value: value, re: compileMatcher(value)}
}

// String renders the segment as it would be written in a path, followed by
// another segment. A Field key the grammar cannot express is written as
// unrenderable does.
func (s Segment) String() string { return s.render(false) }

// render writes the segment; last says whether no segment follows it, which
// matters for a key that ends in a backslash.
func (s Segment) render(last bool) string {
	switch s.Kind {
	case Index:
		if s.Key != "" {
			return s.Key
		}
		return strconv.Itoa(s.Index)
	case Match:
		// Inside brackets only a dot after a backslash or a "]" needs
		// escaping: [name=app.*] reads as written.
		return "[" + bracketEscaper.Replace(s.Key) + "=" + bracketEscaper.Replace(s.Value) + "]"
	case Wildcard:
		return "*"
	}
	if text, ok := fieldString(s.Key, last); ok {
		return text
	}
	return unrenderable(s.Key)
}

// unrenderable marks a key no path can name: it holds "=" (so brackets
// would read it as a matcher) and it either begins with "[" (so it cannot be
// written plain) or ends in a backslash with a segment after it (which would
// escape the dot). Such keys come only from documents, never from Parse;
// messages show them Go-quoted in angle brackets so nobody mistakes the text
// for a path they can paste.
func unrenderable(key string) string { return "<" + strconv.Quote(key) + ">" }

// bracketEscaper writes a key inside brackets. There `\.` reads as `.`, and
// the bracket closes at the first "]" followed by a dot, so exactly the dots
// after a backslash or a "]" are escaped (kustomize also reads `\.` as a dot
// before it looks at brackets); other dots stay as they are, [a.b].
var bracketEscaper = strings.NewReplacer(`\.`, `\\.`, `].`, `]\.`)

// fieldString writes a key so that it parses back as a Field, or reports
// that the grammar cannot express it. Dots are escaped (config\.json), the
// way kustomize users write them; brackets are the way out for keys that
// would read as something else.
func fieldString(key string, last bool) (string, bool) {
	// A trailing backslash would escape the dot that follows the segment.
	trailingEscape := !last && strings.HasSuffix(key, `\`)
	needsBrackets := key == "*" || isDigits(key) || strings.HasPrefix(key, "[") || trailingEscape
	if strings.Contains(key, "=") {
		// Brackets would make a matcher of it: plain is the only form.
		if strings.HasPrefix(key, "[") || trailingEscape {
			return "", false
		}
		return escapeDots(key), true
	}
	if needsBrackets || strings.Contains(key, `\`) && strings.Contains(key, ".") {
		// Backslashes and dots together read easier in brackets, where
		// only a dot after a backslash is escaped: [a\b.c], not a\b\.c.
		return "[" + bracketEscaper.Replace(key) + "]", true
	}
	return escapeDots(key), true
}

func escapeDots(s string) string { return strings.ReplaceAll(s, ".", `\.`) }

// Path is a parsed field path.
type Path []Segment

// String renders the path; parsing the result gives the same path, for
// every path Parse returns. A key no path can name is marked (unrenderable).
func (p Path) String() string {
	parts := make([]string, len(p))
	for i, s := range p {
		parts[i] = s.render(i == len(p)-1)
	}
	return strings.Join(parts, ".")
}

// HasWildcard reports whether any segment is a wildcard.
func (p Path) HasWildcard() bool {
	for _, s := range p {
		if s.Kind == Wildcard {
			return true
		}
	}
	return false
}

// Error is a parse error; Offset is the byte position in the path text.
type Error struct {
	Path   string
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("field path %q, column %d: %s", e.Path, e.Offset+1, e.Msg)
}

// Parse parses a field path.
func Parse(text string) (Path, error) {
	if text == "" {
		return nil, &Error{Path: text, Msg: "empty field path"}
	}
	var p Path
	pos := 0
	for {
		seg, next, err := parseSegment(text, pos)
		if err != nil {
			return nil, err
		}
		p = append(p, seg)
		if len(p) > budget.MaxDepth {
			return nil, tooDeep(text, pos)
		}
		if next == len(text) {
			return p, nil
		}
		// next is at a dot separating this segment from the following one.
		pos = next + 1
		if pos == len(text) {
			return nil, &Error{Path: text, Offset: next, Msg: "trailing dot"}
		}
	}
}

// tooDeep refuses a path of more than budget.MaxDepth segments, shown cut:
// creating one (structured-replacement's create) nests as deep as it is
// long, and a document nested d deep is written in about d² bytes of
// indentation (a 200 KB path of 100,000 segments ran for minutes and
// wrote gigabytes). No resource nests a tenth as deep.
func tooDeep(text string, pos int) error {
	shown := text
	if len(shown) > 60 {
		shown = shown[:60] + "…"
	}
	return &Error{Path: shown, Offset: pos, Msg: fmt.Sprintf("more than %d segments, the most a path may have", budget.MaxDepth)}
}

// MustParse is Parse for paths written in code; it panics on error.
func MustParse(text string) Path {
	p, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return p
}

// parseSegment reads the segment starting at pos and returns it with the
// offset of the dot that ends it (or len(text)).
func parseSegment(text string, pos int) (Segment, int, error) {
	if text[pos] == '.' {
		return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: "empty segment (two dots, or a leading dot)"}
	}
	if text[pos] == '[' {
		return parseBracket(text, pos)
	}
	raw, end := scanPlain(text, pos)
	switch {
	case raw == "*":
		return Segment{Kind: Wildcard}, end, nil
	case isDigits(raw):
		n, err := strconv.Atoi(raw)
		if err != nil {
			return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: fmt.Sprintf("index %s is too large", raw)}
		}
		return Segment{Kind: Index, Index: n, Key: raw}, end, nil
	}
	return Segment{Kind: Field, Key: raw}, end, nil
}

// scanPlain reads up to the next unescaped dot, turning `\.` into `.`.
// Other backslashes are kept as they are, as kustomize does.
func scanPlain(text string, pos int) (string, int) {
	var b strings.Builder
	i := pos
	for i < len(text) {
		c := text[i]
		if c == '\\' && i+1 < len(text) && text[i+1] == '.' {
			b.WriteByte('.')
			i += 2
			continue
		}
		if c == '.' {
			break
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), i
}

// parseBracket reads `[...]`. The bracket closes at the first `]` that ends
// the path or is followed by a dot, so values may hold dots and brackets:
// `[image=registry.example.com/app:v1]`.
func parseBracket(text string, pos int) (Segment, int, error) {
	end := -1
	for i := pos + 1; i < len(text); i++ {
		if text[i] == ']' && (i+1 == len(text) || text[i+1] == '.') {
			end = i
			break
		}
	}
	if end < 0 {
		return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: "'[' without a matching ']' at the end of the segment"}
	}
	inner := strings.ReplaceAll(text[pos+1:end], `\.`, ".")
	key, value, isMatch := strings.Cut(inner, "=")
	if !isMatch {
		if inner == "" {
			return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: "empty brackets"}
		}
		return Segment{Kind: Field, Key: inner}, end + 1, nil
	}
	if problem := patternProblem(value); problem != "" {
		return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: fmt.Sprintf("%s: its value is not a regular expression: %s", text[pos:end+1], problem)}
	}
	seg := NewMatch(key, value)
	if err := seg.tooLarge(); err != nil {
		return Segment{}, 0, &Error{Path: text, Offset: pos, Msg: err.Error()}
	}
	return seg, end + 1, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
