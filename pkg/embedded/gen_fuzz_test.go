package embedded

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// FuzzSetGenerated builds a random document from the fuzzer's seed — maps,
// lists and scalars of every type, rendered as JSON (pretty, compact, odd
// spacing) or YAML (block and flow, every quoting style, literal blocks,
// comments, indentation 2 to 4) — picks a path to one of its values, and
// edits it. On such a document the edit must succeed, leave every byte
// outside the replaced value alone and read back; with create, a missing
// key added below an existing map must read back too; a key whose value
// is picked must be deletable, and gone afterwards.
func FuzzSetGenerated(f *testing.F) {
	for i := int64(0); i < 16; i++ {
		f.Add(i, "new value", false)
	}
	f.Add(int64(99), "line 1\nline 2\n", false)
	f.Add(int64(7), "8080", true)
	f.Add(int64(3), "it's: #not a comment", false)
	f.Fuzz(func(t *testing.T, seed int64, value string, create bool) {
		if !utf8.ValidString(value) {
			return // values come from YAML, which is UTF-8 (Set refuses others)
		}
		r := rand.New(rand.NewSource(seed))
		tree, text := genDoc(t, r)
		path, target := pickPath(r, tree)
		if path == nil {
			return
		}
		if r.Intn(3) == 0 {
			// Nest: the document becomes a string in another one, and the
			// path goes through it.
			outer := mapOf("before", str("x"))
			outer.Content = append(outer.Content, str("holder"), str(text), str("after"), str("y"))
			text = renderDoc(t, r, outer)
			path = append(fieldpath.Path{{Kind: fieldpath.Field, Key: "holder"}}, path...)
		}
		if create {
			if target.Kind != yaml.MappingNode {
				return
			}
			path = append(path, fieldpath.Segment{Kind: fieldpath.Field, Key: "zz-new"})
		} else if target.Kind != yaml.ScalarNode {
			return
		}
		if last := path[len(path)-1]; !create && last.Kind == fieldpath.Field {
			// The value sits in a map: deleting its key must work too.
			out, err := Delete(text, path, Options{})
			if err != nil {
				t.Fatalf("Delete(%s) failed on a generated document: %v\ntext:\n%s", path, err, text)
			}
			if _, err := Get(out, path, Options{}); err == nil {
				t.Fatalf("the key is still there after Delete(%s)\nbefore:\n%s\nafter:\n%s", path, text, out)
			}
		}
		got, err := Set(text, path, Options{Create: create}, setTo(str(value)))
		if err != nil {
			t.Fatalf("Set(%s) failed on a generated document: %v\ntext:\n%s", path, err, text)
		}
		if !create {
			checkSurgical(t, text, got, path)
		}
		vals, err := Get(got, path, Options{})
		if err != nil || len(vals) != 1 || !readsAs(vals[0], value) {
			t.Fatalf("after Set(%s) the value does not read back (%v, %v)\nbefore:\n%s\nafter:\n%s", path, vals, err, text, got)
		}
	})
}

func genDoc(t *testing.T, r *rand.Rand) (*yaml.Node, string) {
	tree := genNode(r, 0)
	if tree.Kind == yaml.ScalarNode {
		tree = mapOf("root", tree)
	}
	return tree, renderDoc(t, r, tree)
}

func renderDoc(t *testing.T, r *rand.Rand, tree *yaml.Node) string {
	if r.Intn(2) == 0 {
		text := renderJSON(r, tree, "")
		if r.Intn(2) == 0 {
			text += "\n"
		}
		return text
	}
	return renderYAML(t, r, tree)
}

var genWords = []string{
	"plain", "two words", "", "8080", "1.5", "true", "no", "null", "~", "a: b", "#hash", "- dash",
	"quote\"d", "it's", "back\\slash", "tab\there", "line\nbreak", "trailing\n", "é ü", "{x}", "[y]",
	"x,y", "*star", "&amp", "!bang", "%pct", "@at", "`tick`", " lead", "trail ", "0x1F", "1e3", "2024-01-02",
	"yes", "On", "-", "?", ":", "---", "...",
}

func genNode(r *rand.Rand, depth int) *yaml.Node {
	k := r.Intn(10)
	if depth >= 4 {
		k = 9
	}
	switch {
	case k < 3:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := map[string]bool{}
		for i := r.Intn(4); i >= 0; i-- {
			key := genWords[r.Intn(len(genWords))]
			if r.Intn(2) == 0 {
				key = fmt.Sprintf("k%d", r.Intn(20))
			}
			if keys[key] || key == "" {
				continue
			}
			keys[key] = true
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, genNode(r, depth+1))
		}
		return n
	case k < 5:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := r.Intn(4); i >= 0; i-- {
			n.Content = append(n.Content, genNode(r, depth+1))
		}
		return n
	}
	switch r.Intn(6) {
	case 0:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(r.Intn(100000) - 50)}
	case 1:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: []string{"true", "false"}[r.Intn(2)]}
	case 2:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: "2.5"}
	case 3:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: genWords[r.Intn(len(genWords))]}
}

func renderJSON(r *rand.Rand, n *yaml.Node, indent string) string {
	pretty := r.Intn(2) == 0
	unit := []string{"  ", "    ", "\t"}[r.Intn(3)]
	colon := []string{":", ": ", " : "}[r.Intn(3)]
	var b strings.Builder
	var write func(n *yaml.Node, indent string)
	write = func(n *yaml.Node, indent string) {
		switch n.Kind {
		case yaml.MappingNode, yaml.SequenceNode:
			open, close, step := "{", "}", 2
			if n.Kind == yaml.SequenceNode {
				open, close, step = "[", "]", 1
			}
			b.WriteString(open)
			for i := 0; i < len(n.Content); i += step {
				if i > 0 {
					b.WriteString(",")
				}
				if pretty {
					b.WriteString("\n" + indent + unit)
				} else if i > 0 && r.Intn(2) == 0 {
					b.WriteString(" ")
				}
				v := n.Content[i]
				if step == 2 {
					b.WriteString(encode.JSONQuote(n.Content[i].Value) + colon)
					v = n.Content[i+1]
				}
				write(v, indent+unit)
			}
			if pretty && len(n.Content) > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(close)
		default:
			b.WriteString(encode.JSONScalar(n.Tag, n.Value))
		}
	}
	write(n, indent)
	return b.String()
}

func renderYAML(t *testing.T, r *rand.Rand, n *yaml.Node) string {
	styled := restyle(r, n, false)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2 + r.Intn(3))
	if err := enc.Encode(styled); err != nil {
		t.Skip(err) // the encoder refuses some style combinations
	}
	out := buf.String()
	var check yaml.Node
	if yaml.Unmarshal([]byte(out), &check) != nil {
		t.Skip("yaml.v3 wrote YAML it cannot read back") // a generator limit, not the editor's
	}
	if r.Intn(3) == 0 {
		out += "---\nsecond: document\n"
	}
	return out
}

// restyle copies a tree with random presentation: quoting, flow or block,
// comments.
func restyle(r *rand.Rand, n *yaml.Node, inFlow bool) *yaml.Node {
	c := *n
	c.Content = nil
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if inFlow || r.Intn(4) == 0 {
			c.Style = yaml.FlowStyle
		}
		for _, ch := range n.Content {
			c.Content = append(c.Content, restyle(r, ch, c.Style == yaml.FlowStyle))
		}
	case yaml.ScalarNode:
		if n.Tag == "!!str" {
			switch r.Intn(5) {
			case 0:
				c.Style = yaml.DoubleQuotedStyle
			case 1:
				c.Style = yaml.SingleQuotedStyle
			case 2:
				if !inFlow {
					c.Style = yaml.LiteralStyle
				}
			}
		}
		if !inFlow && r.Intn(5) == 0 {
			c.LineComment = "# note"
		}
	}
	return &c
}

// pickPath walks from the root choosing children at random and returns the
// path to where it stopped, writing each step the way a user would.
func pickPath(r *rand.Rand, n *yaml.Node) (fieldpath.Path, *yaml.Node) {
	var path fieldpath.Path
	for n.Kind != yaml.ScalarNode {
		if len(n.Content) == 0 || (len(path) > 0 && r.Intn(4) == 0) {
			break
		}
		if n.Kind == yaml.MappingNode {
			i := r.Intn(len(n.Content)/2) * 2
			path = append(path, fieldpath.Segment{Kind: fieldpath.Field, Key: n.Content[i].Value})
			n = n.Content[i+1]
			continue
		}
		i := r.Intn(len(n.Content))
		path = append(path, fieldpath.Segment{Kind: fieldpath.Index, Index: i})
		n = n.Content[i]
	}
	if len(path) == 0 {
		return nil, nil
	}
	return path, n
}
