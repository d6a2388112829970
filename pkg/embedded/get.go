package embedded

import (
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
	return gather(text, path, opts, Get, (*doc).ToYAML)
}

// GetText returns the source text of the values the path leads to, as Get
// finds them: a value's own bytes, without a YAML anchor, tag or comment.
func GetText(text string, path fieldpath.Path, opts Options) ([]string, error) {
	return gather(text, path, opts, GetText, func(d *doc, n *span.Node) string { return d.Text[n.Start:n.End] })
}

// gather resolves a path in text and collects what leaf makes of each value
// it reaches, continuing with next inside strings that hold documents: the
// one walk behind Get and GetText.
func gather[T any](text string, path fieldpath.Path, opts Options,
	next func(string, fieldpath.Path, Options) ([]T, error), leaf func(*doc, *span.Node) T) ([]T, error) {
	d, err := parseCached(text, opts)
	if err != nil {
		return nil, err
	}
	places, err := d.resolve(d.Root, path, 0, nil, nil, false, false)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, p := range places {
		if p.kind == inString {
			vs, err := next(p.n.Value, path[p.at:], opts.nested(joinPath(opts.Where, path[:p.at])))
			if err != nil {
				return nil, shift(err, p.at)
			}
			out = append(out, vs...)
			continue
		}
		out = append(out, leaf(d, p.n))
	}
	return out, nil
}
