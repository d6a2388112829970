package valuemerge

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// TOML is decoded with github.com/pelletier/go-toml/v2 and merged as data:
// tables merge key by key, recursively; any other value in the overlay
// (arrays and arrays of tables too) replaces the base's. The result is
// written as edits of the base text (writeTOML, tomledit.go), decoded
// again and checked to be the merge; what cannot be written so is written
// whole by the library, comments lost and keys sorted, and the result says
// so.

func decodeTOML(s, which string) (map[string]any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: TOML, Msg: "the value is empty"}
	}
	var v map[string]any
	if err := toml.Unmarshal([]byte(s), &v); err != nil {
		pe := &ParseError{Which: which, Format: TOML, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			pe.Line, pe.Column = de.Position()
			pe.Msg += unquotedString(s, pe.Line)
		}
		return nil, pe
	}
	if tooDeep(v, 0) {
		// go-toml reads [a.a.a…] of fifty thousand parts in milliseconds;
		// merging and writing it takes the square of that and more
		return nil, &MergeError{Msg: fmt.Sprintf("the %s value nests tables more than %d deep, deeper than a value may nest", which, budget.MaxDepth)}
	}
	return v, nil
}

// tooDeep reports whether tables or arrays nest in v, at depth (the root
// table at 0), deeper than budget.MaxDepth.
func tooDeep(v any, depth int) bool {
	var children []any
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			children = append(children, c)
		}
	case []any:
		children = x
	default:
		return false
	}
	if depth > budget.MaxDepth {
		return true
	}
	for _, c := range children {
		if tooDeep(c, depth+1) {
			return true
		}
	}
	return false
}

// unquotedString says, for line n of a TOML text that does not parse,
// that its value is a string TOML wants quoted (domain = git.example.com):
// the line reads with the value in quotes. "" for any other line. The
// value itself is not shown: it may be a Secret's.
func unquotedString(text string, n int) string {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	key, value, ok := strings.Cut(lines[n-1], "=")
	value = strings.TrimSpace(value)
	if !ok || value == "" || strings.ContainsAny(value[:1], `"'[{`) || strings.Contains(value, "'") {
		return ""
	}
	var v map[string]any
	if toml.Unmarshal([]byte(key+"= '"+value+"'"), &v) != nil {
		return ""
	}
	return " (a string is quoted in TOML: write the value in quotes, key = \"…\")"
}

func checkTOML(s, which string) error {
	_, err := decodeTOML(s, which)
	return err
}

func mergeTOML(base, overlay string) (Merged, error) {
	o, err := decodeTOML(overlay, "overlay")
	if err != nil {
		return Merged{}, err
	}
	if strings.TrimSpace(base) == "" {
		return Merged{Text: overlay}, nil
	}
	b, err := decodeTOML(base, "base")
	if err != nil {
		return Merged{}, err
	}
	want := mergeTables(b, o)
	if reflect.DeepEqual(comparable(want), comparable(b)) {
		return Merged{Text: base}, nil // nothing changes
	}
	return writeTOML(base, overlay, b, o, want)
}

// marshalTOML writes the merge whole: comments go, keys are sorted.
func marshalTOML(want map[string]any) (string, error) {
	out, err := toml.Marshal(want)
	if err != nil || !tomlMeans(string(out), want) {
		return "", fmt.Errorf("internal error merging TOML (please report): the result does not decode to the merge")
	}
	return string(out), nil
}

// mergeTables is what a TOML merge means: the overlay's tables merge into
// the base's key by key, recursively; any other value of the overlay
// (arrays and arrays of tables too) replaces the base's. TOML has no null,
// so this is the whole of RFC 7386 that TOML can say.
func mergeTables(b, o map[string]any) map[string]any {
	out := make(map[string]any, len(b)+len(o))
	for k, v := range b {
		out[k] = v
	}
	for k, v := range o {
		om, oIsTable := v.(map[string]any)
		bm, bIsTable := out[k].(map[string]any)
		if oIsTable && bIsTable {
			v = mergeTables(bm, om)
		}
		out[k] = v
	}
	return out
}

// tomlMeans reports whether text decodes to want.
func tomlMeans(text string, want any) bool {
	var got map[string]any
	if toml.Unmarshal([]byte(text), &got) != nil {
		return false
	}
	return reflect.DeepEqual(comparable(got), comparable(want))
}

// comparable turns decoded TOML into values that compare equal when they
// mean the same: times by their text (a zone decoded twice is two
// pointers), NaN as text (NaN equals nothing).
func comparable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = comparable(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = comparable(c)
		}
		return out
	case time.Time:
		return "time " + x.Format(time.RFC3339Nano)
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
	}
	return v
}

// sortedKeys sorts because go-toml's maps have no order; edits at one place follow the
// keys' order, the same on every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// dottedKey writes a key's parts as TOML: bare where the grammar allows,
// else as basic strings.
func dottedKey(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = tomlKeyPart(p)
	}
	return strings.Join(out, ".")
}

func tomlKeyPart(p string) string {
	if isBareKey(p) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range p {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// bareKeyChars are the characters of a bare TOML key.
const bareKeyChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// isBareKey reports whether a TOML key may be written without quotes:
// ASCII letters, digits, _ and - only.
func isBareKey(p string) bool {
	return p != "" && strings.Trim(p, bareKeyChars) == ""
}
