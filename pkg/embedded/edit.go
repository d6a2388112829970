package embedded

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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
	// Delete removes the map key Path names, as Delete does.
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
// what another creates, and changes must touch different places: none may
// write or delete at, or inside, a value another writes or deletes, and a
// key or element may be created once. Edit refuses changes that overlap.
// Otherwise the result is the document applying the changes one by one, in
// order, gives, byte for byte as a rule; new entries and values copy the
// layout and quoting of the text as given, where one change after another
// would copy those of the text the changes before it left, which differ
// only when a change takes away the last example of a layout (a map left
// with one entry no longer shows its separator).
func Edit(text string, opts Options, changes ...Change) (string, error) {
	out, err := editBatch(text, opts, changes)
	if errors.Is(err, errOneByOne) {
		if len(changes) == 1 {
			return "", &Error{Msg: "cannot lay out the edit; please report this" + opts.whereSuffix()}
		}
		// Rare layouts that one pass cannot write (a YAML block map losing
		// its last entry along with others): apply the changes in turn.
		for _, c := range changes {
			if text, err = Edit(text, opts, c); err != nil {
				return "", err
			}
		}
		return text, nil
	}
	return out, err
}

// errOneByOne says that the batch cannot be written in one pass.
var errOneByOne = errors.New("the changes must be applied one by one")

// editBatch is Edit in one pass: the changes are worked out on one parse
// of text, written together, and the result verified once.
func editBatch(text string, opts Options, changes []Change) (string, error) {
	if len(changes) == 0 {
		return text, nil
	}
	d, err := parseCached(text, opts)
	if err != nil {
		return "", err
	}
	d.givenType, d.givenStyle = opts.GivenType, opts.GivenStyle
	b := &batch{d: d, opts: opts, checks: make(map[string]check, 1)}
	if err := b.plan(changes); err != nil {
		return "", err
	}
	out, err := apply(text, b.edits)
	if err != nil {
		if len(changes) > 1 {
			return "", errOneByOne
		}
		return "", &Error{Msg: err.Error() + d.of()}
	}
	nd, err := d.verify(out, b.checks)
	if err != nil {
		what := "edit"
		if b.onlyDeletes(changes) {
			what = "delete from"
		}
		return "", &Error{Msg: fmt.Sprintf("cannot %s the %s without disturbing the rest of it (%v); please report this", what, d.format, err) + d.of()}
	}
	opts.Cache.replace(text, out, nd)
	return out, nil
}

// edit replaces text[start:end] with text.
type edit struct {
	start, end int
	text       string
	// depth is that of the address edited: of two insertions at one
	// offset, the deeper goes first (an entry added to a YAML block map
	// comes after one added to the last value in it).
	depth int
}

// apply writes the edits into text, in order of offset; edits that overlap
// are an error.
func apply(text string, edits []edit) (string, error) {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if (a.end == a.start) != (b.end == b.start) {
			return a.end == a.start // an insertion before a replacement there
		}
		return a.depth > b.depth
	})
	var b strings.Builder
	b.Grow(len(text) + 64)
	pos := 0
	for _, e := range edits {
		if e.start < pos || e.end < e.start || e.end > len(text) {
			return "", fmt.Errorf("two edits overlap")
		}
		b.WriteString(text[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}
