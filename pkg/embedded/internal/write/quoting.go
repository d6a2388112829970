package write

import "github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"

// quoting is how a YAML document quotes its keys and its strings, which new
// keys and strings copy: span.Double or span.Single when every one is
// quoted so (jsonnet's manifestYamlDoc writes "key": "value"), span.Plain
// otherwise. Strings written as block scalars say nothing either way.
type quoting struct {
	keys, strings span.Style
}

// quoting works out the document's quoting once per edit: a batch writes
// many values.
func (w *writer) quoting() quoting {
	if w.quotes == nil {
		q := quotingOf(w.d.Tree)
		w.quotes = &q
	}
	return *w.quotes
}

// quotingOf works out quoting over every key and string of the document.
func quotingOf(t *span.Tree) quoting {
	if t.Format != span.YAML || t.Root == nil {
		return quoting{}
	}
	var keys, strs quoteStyle
	stack := []*span.Node{t.Root}
	for len(stack) > 0 && (keys.open() || strs.open()) {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range n.Keys {
			keys.take(k)
		}
		for _, c := range n.Children {
			switch c.Kind {
			case span.Map, span.Seq:
				stack = append(stack, c)
			case span.Scalar:
				if c.Tag == span.StrTag && c.Style != span.Literal && c.Style != span.Folded {
					strs.take(c)
				}
			}
		}
	}
	return quoting{keys: keys.style(), strings: strs.style()}
}

// quoteStyle is the quoting of the scalars seen so far: broken at the
// first plain one, or one quoted otherwise than those before.
type quoteStyle struct {
	seen   span.Style
	found  bool
	broken bool
}

// open reports whether what is seen next still matters.
func (q *quoteStyle) open() bool { return !q.broken }

// take notes the quoting of scalar n.
func (q *quoteStyle) take(n *span.Node) {
	if n.Kind != span.Scalar || q.broken {
		return
	}
	if n.Style != span.Single && n.Style != span.Double || q.found && n.Style != q.seen {
		q.broken = true
		return
	}
	q.seen, q.found = n.Style, true
}

// style is the quoting every scalar seen shares, span.Plain when they do
// not (or there were none).
func (q *quoteStyle) style() span.Style {
	if q.broken || !q.found {
		return span.Plain
	}
	return q.seen
}
