package apply

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// newError turns structured-merge's validation errors into an *smp.Error
// (the error every merge gives, a field path and a message): the first of them, its path in our words, its message without Go values
// (the node at its path described instead, a Secret's without its value).
// lead, when given, says what the error is about.
func newError(err error, root *yaml.Node, lead string, secret bool) error {
	var ves typed.ValidationErrors
	if !errors.As(err, &ves) || len(ves) == 0 {
		return err
	}
	ve := ves[0]
	msg := message(ve.ErrorMessage, func() string { return yamltree.DescribeSecret(at(root, ve.Path), secret) })
	if lead != "" {
		msg = lead + ": " + msg
	}
	if len(ves) > 1 {
		msg += " (and " + strconv.Itoa(len(ves)-1) + " more)"
	}
	return &smp.Error{Path: fieldPath(ve.Path), Msg: msg}
}

// expected finds structured-merge's "expected string, got <a Go value>".
var expected = regexp.MustCompile(`(?:[lr]hs: )?expected (numeric|string|boolean|any scalar|map|list)[^,]*, got .*`)

var kinds = map[string]string{
	"numeric": "a number", "string": "a string", "boolean": "a boolean", "any scalar": "a scalar",
	"map": "a map", "list": "a list",
}

// message words structured-merge's message as ours: no Go value shown, got
// says what is there instead.
func message(m string, got func() string) string {
	m = strings.TrimPrefix(strings.TrimPrefix(m, "lhs: "), "rhs: ")
	if loc := expected.FindStringSubmatchIndex(m); loc != nil {
		want := kinds[m[loc[2]:loc[3]]]
		m = m[:loc[0]] + "expected " + want + ", got " + got()
	}
	if k := duplicate.FindStringSubmatch(m); k != nil {
		return "two elements have the same keys (" + strings.ReplaceAll(strings.Trim(fieldPath("["+k[1]+"]"), "[]"), ",", ", ") +
			"): the list is keyed by them, a key left out taking its default"
	}
	return strings.ReplaceAll(m, "field not declared in schema", "no such field in the schema")
}

// duplicate finds structured-merge's "duplicate entries for key [a=1,b="x"]".
var duplicate = regexp.MustCompile(`duplicate entries for key \[(.*)\]$`)

// fieldPath is a structured-merge path in our words: no leading dot, key
// values unquoted (.spec.ports[port=80,protocol="TCP"] as
// spec.ports[port=80,protocol=TCP]).
func fieldPath(p string) string {
	p = strings.TrimPrefix(p, ".")
	var b strings.Builder
	in := false
	for _, r := range p {
		switch {
		case r == '[':
			in = true
		case r == ']':
			in = false
		case r == '"' && in:
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// at is the node a structured-merge path leads to from root, or nil: map
// keys (which may hold dots) matched longest first, list elements by
// index or by their key fields.
func at(root *yaml.Node, p string) *yaml.Node {
	n := yamltree.Resolve(root)
	for p != "" && n != nil {
		switch {
		case p[0] == '.' && n.Kind == yaml.MappingNode:
			n, p = field(n, p[1:])
		case p[0] == '[' && n.Kind == yaml.SequenceNode:
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil
			}
			n, p = element(n, p[1:end]), p[end+1:]
		default:
			return nil
		}
	}
	return n
}

// field is the value of the longest key of m that p starts with, and the
// rest of p.
func field(m *yaml.Node, p string) (*yaml.Node, string) {
	var best *yaml.Node
	rest := ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if strings.HasPrefix(p, k) && (len(p) == len(k) || p[len(k)] == '.' || p[len(k)] == '[') && (best == nil || len(k) > len(p)-len(rest)) {
			best, rest = yamltree.Resolve(m.Content[i+1]), p[len(k):]
		}
	}
	return best, rest
}

// element is the element of list l a path element selects: [3], or
// [name="a",port=80] by its key fields' values (JSON, as the path spells
// them).
func element(l *yaml.Node, sel string) *yaml.Node {
	if i, err := strconv.Atoi(sel); err == nil {
		if i >= 0 && i < len(l.Content) {
			return yamltree.Resolve(l.Content[i])
		}
		return nil
	}
	for _, e := range l.Content {
		if e = yamltree.Resolve(e); e.Kind == yaml.MappingNode && keysMatch(e, sel) {
			return e
		}
	}
	return nil
}

func keysMatch(e *yaml.Node, sel string) bool {
	for _, kv := range strings.Split(sel, ",") {
		k, v, ok := strings.Cut(kv, "=")
		f := yamltree.Lookup(e, k)
		if !ok || f == nil {
			return false
		}
		if j, err := yamljson.Encode(f, nil); err != nil || string(j) != v {
			return false
		}
	}
	return true
}
