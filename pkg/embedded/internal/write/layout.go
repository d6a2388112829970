package write

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// lineIndent returns the white space that starts the line holding off.
func (w *writer) lineIndent(off int) string {
	t := w.d.Text
	ls := w.d.Lines()[w.d.LineOf(off)]
	return t[ls:blankEnd(t, ls)]
}

// jsonLayout describes the JSON around container (nil: the document), new
// lines indented from indent.
func (w *writer) jsonLayout(container *span.Node, indent string) encode.JSONLayout {
	l := encode.JSONLayout{Indent: indent, Unit: "  ", Colon: ": ", Comma: " ", NL: w.d.Newline}
	var f layoutFacts
	if container != nil {
		w.layoutWalk(container, &f)
	}
	f.fill(w.documentFacts())
	l.Pretty = w.layout.pretty
	if f.colonFound {
		l.Colon = f.colon
	}
	if f.unitFound {
		l.Unit = f.unit
	}
	if f.commaFound {
		l.Comma = f.comma
	}
	if !f.commaFound && l.Colon == ":" {
		l.Comma = ""
	}
	return l
}

// documentFacts is what the whole document says of its layout, worked out
// once: a batch of edits asks for it again and again.
func (w *writer) documentFacts() *layoutFacts {
	if w.layout == nil {
		w.layout = &layoutFacts{pretty: strings.ContainsAny(w.d.Text, "\n\r")}
		w.layoutWalk(w.d.Root, w.layout)
	}
	return w.layout
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
func (w *writer) layoutWalk(n *span.Node, f *layoutFacts) {
	if n.Kind != span.Map && n.Kind != span.Seq || f.done() {
		return
	}
	w.d.Open(n)
	if !f.colonFound {
		w.colonFact(n, f)
	}
	if !f.unitFound {
		w.unitFact(n, f)
	}
	if !f.commaFound {
		w.commaFact(n, f)
	}
	for _, c := range n.Children {
		w.layoutWalk(c, f)
	}
}

// colonFact takes the spacing between the first key of map n and its
// value (": " when they are on different lines).
func (w *writer) colonFact(n *span.Node, f *layoutFacts) {
	if n.Kind != span.Map || len(n.Keys) == 0 {
		return
	}
	f.colon = w.d.Text[n.Keys[0].End:n.Children[0].Start]
	if strings.ContainsAny(f.colon, "\n\r") {
		f.colon = ": "
	}
	f.colonFound = true
}

// unitFact takes the indentation step of n when its first entry starts a
// line indented further than n's.
func (w *writer) unitFact(n *span.Node, f *layoutFacts) {
	if len(n.Children) == 0 {
		return
	}
	first := entryStart(n, 0)
	if w.d.LineOf(first) == w.d.LineOf(n.Start) {
		return
	}
	outer, inner := w.lineIndent(n.Start), w.lineIndent(first)
	if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
		f.unit = inner[len(outer):]
		f.unitFound = true
	}
}

// commaFact takes the spacing after the first comma of n when its first
// two entries are on one line.
func (w *writer) commaFact(n *span.Node, f *layoutFacts) {
	if len(n.Children) < 2 {
		return
	}
	t := w.d.Text
	gapStart := strings.IndexByte(t[n.Children[0].End:], ',') + n.Children[0].End + 1
	if gap := t[gapStart:entryStart(n, 1)]; !strings.ContainsAny(gap, "\n\r") {
		f.comma = gap
		f.commaFound = true
	}
}

// yamlLayout is how new YAML is laid out in this document.
func (w *writer) yamlLayout() encode.YAMLLayout {
	d := w.d
	q := w.quoting()
	return encode.YAMLLayout{Unit: d.Unit, SeqIndented: d.SeqIndented >= 0, NL: d.Newline, Quote: d.Jsonish,
		Given: w.opts.GivenStyle, KeyQuote: q.keys, StrQuote: q.strings}
}
