package write

import (
	"errors"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// Options are those of package embedded that decide how values are
// written.
type Options struct {
	// GivenType: a scalar takes the type of the value given rather than
	// keep the one it replaces.
	GivenType bool
	// GivenStyle: YAML values keep the style of the nodes given where
	// the document allows it.
	GivenStyle bool
}

// ErrOneByOne says that the plan cannot be written in one pass: a YAML
// block map loses its last entry along with others, or while gaining new
// ones, and which comments stay then depends on the order of the changes.
var ErrOneByOne = errors.New("the changes must be applied one by one")

// Write spells plan p of document d as edits, with the checks, by
// address (locate.AddrKey), of what must read back. nested[i] is the new
// text of the string p.Nested[i], its document edited already. Errors are
// *locate.Error, or ErrOneByOne.
func Write(d *locate.Document, p *plan.Plan, nested []string, o Options) ([]Edit, map[string]Check, error) {
	w := &writer{d: d, opts: o, checks: make(map[string]Check, 1)}
	for _, r := range p.Replaces {
		if err := w.replaceAt(r.Place, r.Value, r.Raw); err != nil {
			return nil, nil, err
		}
	}
	for i, n := range p.Nested {
		if err := w.replaceAt(n.Place, &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: nested[i]}, ""); err != nil {
			return nil, nil, err
		}
	}
	for _, g := range p.Groups {
		if err := w.group(g); err != nil {
			return nil, nil, err
		}
	}
	return w.edits, w.checks, nil
}

// writer collects the edits of one plan, and what it learns of the
// document's layout on the way.
type writer struct {
	d      *locate.Document
	opts   Options
	edits  []Edit
	checks map[string]Check
	// layout is what the JSON text says of its layout (jsonLayout).
	layout *layoutFacts
	// quotes is how keys and strings are quoted, if alike (quoting); nil
	// until needed.
	quotes *quoting
}

// replaceAt writes v (or SetText's raw text) over the value at p.
func (w *writer) replaceAt(p locate.Place, v *yaml.Node, raw string) error {
	e, c, err := w.replace(p, v, raw)
	if err != nil {
		return w.asError(err, p)
	}
	w.add(p.Addr, e, c)
	return nil
}

// asError makes an *Error, which names the segment, of an error found
// while writing the value at p (fuzz finding: "cannot find the ':' after the
// key" came back bare, for the empty key of "&0:").
func (w *writer) asError(err error, p locate.Place) error {
	var e *locate.Error
	if errors.As(err, &e) {
		return err
	}
	return &locate.Error{Segment: max(p.At-1, 0), Msg: err.Error() + w.d.Of()}
}

// add records edit e of the value at addr and what must read back there.
func (w *writer) add(addr []int, e Edit, c Check) {
	e.Depth = len(addr)
	w.edits = append(w.edits, e)
	w.checks[locate.AddrKey(addr)] = c
}
