package embedded

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// lineIndent returns the white space that starts the line holding off.
func (d *doc) lineIndent(off int) string {
	ls := d.Lines()[d.LineOf(off)]
	i := ls
	for i < len(d.Text) && (d.Text[i] == ' ' || d.Text[i] == '\t') {
		i++
	}
	return d.Text[ls:i]
}

// jsonLayout describes the JSON around container (nil: the document).
func (d *doc) jsonLayout(container *span.Node, indent string) jsonLayout {
	l := jsonLayout{indent: indent, unit: "  ", colon: ": ", comma: " ", nl: d.Newline}
	// What the whole document says is worked out once: a batch of edits
	// asks for it again and again.
	if d.layout == nil {
		d.layout = &layoutFacts{pretty: strings.ContainsAny(d.Text, "\n\r")}
		d.layoutWalk(d.Root, d.layout)
	}
	var f layoutFacts
	if container != nil {
		d.layoutWalk(container, &f)
	}
	f.fill(d.layout)
	l.pretty = d.layout.pretty
	if f.colonFound {
		l.colon = f.colon
	}
	if f.unitFound {
		l.unit = f.unit
	}
	if f.commaFound {
		l.comma = f.comma
	}
	if !f.commaFound && l.colon == ":" {
		l.comma = ""
	}
	return l
}

// layoutFacts is what the JSON text says of its own layout: the first map
// with an entry tells the colon spacing, the first collection with two
// entries on one line the spacing after commas, the first collection
// spread over lines the indentation step.
type layoutFacts struct {
	pretty                            bool // the text spans lines
	colon, comma, unit                string
	colonFound, commaFound, unitFound bool
}

// done reports whether every fact is found.
func (f *layoutFacts) done() bool { return f.colonFound && f.commaFound && f.unitFound }

// fill takes what f has not found from g, found further on.
func (f *layoutFacts) fill(g *layoutFacts) {
	if !f.colonFound && g.colonFound {
		f.colon, f.colonFound = g.colon, true
	}
	if !f.commaFound && g.commaFound {
		f.comma, f.commaFound = g.comma, true
	}
	if !f.unitFound && g.unitFound {
		f.unit, f.unitFound = g.unit, true
	}
}

// layoutWalk looks for the facts f lacks in n and below, depth first, and
// stops when it has them all.
func (d *doc) layoutWalk(n *span.Node, f *layoutFacts) {
	if n.Kind != span.Map && n.Kind != span.Seq || f.done() {
		return
	}
	d.Open(n)
	if !f.colonFound {
		d.colonFact(n, f)
	}
	if !f.unitFound {
		d.unitFact(n, f)
	}
	if !f.commaFound {
		d.commaFact(n, f)
	}
	for _, c := range n.Children {
		d.layoutWalk(c, f)
	}
}

// colonFact takes the spacing between the first key of map n and its
// value (": " when they are on different lines).
func (d *doc) colonFact(n *span.Node, f *layoutFacts) {
	if n.Kind != span.Map || len(n.Keys) == 0 {
		return
	}
	f.colon = d.Text[n.Keys[0].End:n.Children[0].Start]
	if strings.ContainsAny(f.colon, "\n\r") {
		f.colon = ": "
	}
	f.colonFound = true
}

// unitFact takes the indentation step of n when its first entry starts a
// line indented further than n's.
func (d *doc) unitFact(n *span.Node, f *layoutFacts) {
	if len(n.Children) == 0 {
		return
	}
	first := entryStart(n, 0)
	if d.LineOf(first) == d.LineOf(n.Start) {
		return
	}
	outer, inner := d.lineIndent(n.Start), d.lineIndent(first)
	if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
		f.unit = inner[len(outer):]
		f.unitFound = true
	}
}

// commaFact takes the spacing after the first comma of n when its first
// two entries are on one line.
func (d *doc) commaFact(n *span.Node, f *layoutFacts) {
	if len(n.Children) < 2 {
		return
	}
	gapStart := strings.IndexByte(d.Text[n.Children[0].End:], ',') + n.Children[0].End + 1
	if gap := d.Text[gapStart:entryStart(n, 1)]; !strings.ContainsAny(gap, "\n\r") {
		f.comma = gap
		f.commaFound = true
	}
}

// yamlLayout is how new YAML is laid out in this document.
func (d *doc) yamlLayout() yamlLayout {
	return yamlLayout{unit: d.Unit, seqIndented: d.SeqIndented >= 0, nl: d.Newline, quote: d.jsonish, given: d.givenStyle,
		keyQuote: d.keyQuoting()}
}

// keyQuoting is how the document quotes its keys, which new keys copy:
// span.Double or span.Single when every key is quoted so (jsonnet writes
// "key": ...), span.Plain otherwise. Worked out once per document: a batch
// writes many values.
func (d *doc) keyQuoting() span.Style {
	if d.keyQuote == nil {
		q := d.findKeyQuoting()
		d.keyQuote = &q
	}
	return *d.keyQuote
}

// findKeyQuoting works out keyQuoting over every key of the document.
func (d *doc) findKeyQuoting() span.Style {
	if d.format != YAML || d.Root == nil {
		return span.Plain
	}
	seen := span.Style(0)
	found := false
	stack := []*span.Node{d.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range n.Keys {
			if k.Kind != span.Scalar {
				continue
			}
			if k.Style != span.Single && k.Style != span.Double || found && k.Style != seen {
				return span.Plain
			}
			seen, found = k.Style, true
		}
		for _, c := range n.Children {
			if c.Kind == span.Map || c.Kind == span.Seq {
				stack = append(stack, c)
			}
		}
	}
	if !found {
		return span.Plain
	}
	return seen
}
