package embedded

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// Get returns the values the path leads to inside the document held in
// text: one for a path without wildcards or list matchers, any number
// otherwise. A string value on the way that holds a document of its own is
// parsed in turn when segments remain. The returned nodes must not be
// modified.
func Get(text string, path fieldpath.Path, opts Options) ([]*yaml.Node, error) {
	return gather(text, path, opts, Get, func(d *locate.Document, n *span.Node) *yaml.Node { return d.ToYAML(n) })
}

// GetText returns the source text of the values the path leads to, as Get
// finds them: a value's own bytes, without a YAML anchor, tag or comment.
func GetText(text string, path fieldpath.Path, opts Options) ([]string, error) {
	return gather(text, path, opts, GetText, func(d *locate.Document, n *span.Node) string { return d.Text[n.Start:n.End] })
}

// gather resolves a path in text and collects what leaf makes of each value
// it reaches, continuing with next inside strings that hold documents: the
// one walk behind Get and GetText.
func gather[T any](text string, path fieldpath.Path, opts Options,
	next func(string, fieldpath.Path, Options) ([]T, error), leaf func(*locate.Document, *span.Node) T) ([]T, error) {
	d, err := parseCached(text, opts)
	if err != nil {
		return nil, err
	}
	places, err := d.Resolve(path, false, false)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, p := range places {
		if p.Kind == locate.InString {
			vs, err := next(p.N.Value, path[p.At:], opts.nested(locate.JoinPath(opts.Where, path[:p.At])))
			if err != nil {
				return nil, locate.Shift(err, p.At)
			}
			out = append(out, vs...)
			continue
		}
		out = append(out, leaf(d, p.N))
	}
	return out, nil
}
