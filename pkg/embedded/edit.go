package embedded

import (
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/verify"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/write"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Change is one edit of a batch given to Edit: what Set, SetText or Delete
// would do at Path.
type Change struct {
	Path fieldpath.Path
	// Set computes the value to write, as for Set.
	Set Setter
	// Text, when Set is nil and Delete is false, is the JSON text to
	// write, as for SetText.
	Text string
	// Delete removes the map key, or the list element, Path names, as
	// Delete does.
	Delete bool
	// Create adds what is missing on the way, as Options.Create does
	// (which, when set, applies to every change).
	Create bool
}

// Edit applies several changes to the document held in text and returns
// the new text. It parses the document once, works out every change on
// that parse, and verifies the result once: a merge that changes a
// thousand values costs one parse, not a thousand.
//
// Every path is resolved in the text as given, so a change cannot reach
// what another creates, an element deleted does not move the ones after it
// for the changes that name them, and changes must touch different places:
// none may write or delete at, or inside, a value another writes or
// deletes, and a key or element may be created once. Edit refuses changes that overlap.
// Otherwise the result is the document applying the changes one by one, in
// order, gives, byte for byte as a rule; new entries and values copy the
// layout and quoting of the text as given, where one change after another
// would copy those of the text the changes before it left, which differ
// only when a change takes away the last example of a layout (a map left
// with one entry no longer shows its separator).
func Edit(text string, opts Options, changes ...Change) (string, error) {
	pc := make([]plan.Change, len(changes))
	for i, c := range changes {
		pc[i] = plan.Change{Path: c.Path, Set: c.Set, Text: c.Text, Delete: c.Delete, Create: c.Create}
	}
	return edit(text, opts, pc)
}

// edit is Edit: in one pass, or, for the rare layouts one pass cannot
// write (a YAML block map losing its last entry along with others), one
// change after another, in the order that keeps every path where it was
// in the text as given (OneByOne).
func edit(text string, opts Options, changes []plan.Change) (string, error) {
	out, err := editBatch(text, opts, changes)
	if !errors.Is(err, errOneByOne) {
		return out, err
	}
	if len(changes) == 1 {
		return "", &Error{Msg: "cannot lay out the edit; please report this" + opts.whereSuffix()}
	}
	for _, c := range plan.OneByOne(changes) {
		if text, err = edit(text, opts, []plan.Change{c}); err != nil {
			return "", err
		}
	}
	return text, nil
}

// errOneByOne says that the batch cannot be written in one pass.
var errOneByOne = errors.New("the changes must be applied one by one")

// editBatch is Edit in one pass, down the layers: the text read (span),
// the changes planned on that one parse (plan, which locates their paths),
// the documents in strings that changes go into edited in turn, the plan
// written as byte edits (write), and the result verified once (verify).
func editBatch(text string, opts Options, changes []plan.Change) (string, error) {
	if len(changes) == 0 {
		return text, nil
	}
	d, err := parseCached(text, opts)
	if err != nil {
		return "", err
	}
	p, err := plan.Make(d, changes, opts.Create)
	if err != nil {
		return "", err
	}
	nested, err := editNested(p.Nested, opts)
	if err != nil {
		return "", err
	}
	edits, checks, err := write.Write(d, p, nested, write.Options{GivenType: opts.GivenType, GivenStyle: opts.GivenStyle})
	if err != nil {
		if errors.Is(err, write.ErrOneByOne) {
			return "", errOneByOne
		}
		return "", err
	}
	return applyAndVerify(text, d, edits, checks, changes, opts)
}

// editNested edits the documents held in strings that changes go into,
// each with its changes as one batch, and returns their new texts.
func editNested(nested []*plan.Nested, opts Options) ([]string, error) {
	out := make([]string, len(nested))
	for i, nd := range nested {
		s, err := edit(nd.Place.N.Value, opts.nested(nd.Where), nd.Changes)
		if err != nil {
			return nil, locate.Shift(err, nd.Place.At)
		}
		out[i] = s
	}
	return out, nil
}

// applyAndVerify writes the edits into text, verifies the result against
// d and the checks, and keeps its parse in the cache.
func applyAndVerify(text string, d *locate.Document, edits []write.Edit, checks map[string]write.Check, changes []plan.Change, opts Options) (string, error) {
	out, err := write.Apply(text, edits)
	if err != nil {
		if len(changes) > 1 {
			return "", errOneByOne
		}
		return "", &Error{Msg: err.Error() + d.Of()}
	}
	nt, err := verify.Verify(d.Tree, out, checks)
	if err != nil {
		what := "edit"
		if onlyDeletes(changes) {
			what = "delete from"
		}
		return "", &Error{Msg: fmt.Sprintf("cannot %s the %s without disturbing the rest of it (%v); please report this", what, d.Format, err) + d.Of()}
	}
	opts.Cache.replace(text, out, &locate.Document{Tree: nt, Jsonish: d.Jsonish})
	return out, nil
}

// onlyDeletes reports whether every change deletes, for messages.
func onlyDeletes(changes []plan.Change) bool {
	for _, c := range changes {
		if !c.Delete {
			return false
		}
	}
	return true
}
