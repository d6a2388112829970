package valuemerge

import (
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	yaml "go.yaml.in/yaml/v3"
)

// Doc is a JSON or YAML document held in a string, opened to be changed as
// data and written back as edits: Want starts as a copy of the document's
// value, the caller changes it in place (a merge, a strategic or JSON
// patch), and Write rewrites only what differs, through package embedded.
// This is the one writer of every merge and patch into a string.
type Doc struct {
	// Want is the value the text is to read as: a copy of the document's
	// nodes, its aliases pointing at the copies of their anchors, so that
	// a change to an anchored value changes what its aliases stand for, in
	// the copy as in the text (strategic merge's rule: package smp works on
	// such nodes, and expands << keys itself where it must).
	Want *yaml.Node

	text string
	old  *yaml.Node
	// origin maps a node of Want to the node of old it copies: an element
	// a merge kept is told from one it added, and only what differs is
	// written.
	origin map[*yaml.Node]*yaml.Node
	opts   Options
}

// Options say how a Doc is written.
type Options struct {
	// Format is the document's language, JSON or YAML.
	Format Format
	// Edit are the options of the editor: where the string is, whether it
	// is secret, a cache of parsed texts.
	Edit embedded.Options
	// Overlay, when set, is the text a merge took its values from: a new
	// value the overlay holds at the same place, spelled on one line, is
	// written as the overlay spelled it (JSON: [1, null] stays so).
	Overlay *Overlay
	// Who names what brings the change, in messages: "the patch" when
	// empty, "the overlay" for a merge of values.
	Who string
}

func (o Options) who() string {
	if o.Who == "" {
		return "the patch"
	}
	return o.Who
}

// Overlay is the text of a merge's overlay and its value as read.
type Overlay struct {
	Text string
	Root *yaml.Node
}

// ErrNotInPlace says the new value cannot be written as edits of the text
// (the root changes kind, a value inherited through a << key goes, the
// result would read otherwise): the caller writes the document whole, or
// reports it.
var ErrNotInPlace = errors.New("the change cannot be written in place")

// ErrOtherKind is ErrNotInPlace for a document whose value becomes another
// kind of value (a map a list): nothing of the text can be kept.
var ErrOtherKind = fmt.Errorf("%w: the whole document becomes another kind of value", ErrNotInPlace)

// Open opens the document held in text, whose value (as read by package
// embedded or yaml.v3) is old.
func Open(text string, old *yaml.Node, o Options) (*Doc, error) {
	d := &Doc{text: text, old: old, origin: map[*yaml.Node]*yaml.Node{}, opts: o}
	d.Want = d.copyTree(old)
	return d, nil
}

// copyTree deep-copies a document's nodes, recording the origin of each
// copy, its aliases pointing at the copies of their anchors.
func (d *Doc) copyTree(root *yaml.Node) *yaml.Node {
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		c := *n
		d.origin[&c] = n
		if len(n.Content) > 0 {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, k := range n.Content {
				c.Content[i] = cp(k)
			}
		}
		return &c
	}
	out := cp(root)
	copies := make(map[*yaml.Node]*yaml.Node, len(d.origin))
	for c, n := range d.origin {
		copies[n] = c
	}
	for c := range d.origin {
		if c.Kind == yaml.AliasNode && copies[c.Alias] != nil {
			c.Alias = copies[c.Alias]
		}
	}
	return out
}

// Write returns the text edited so that it reads as Want: values that
// differ replaced, keys added after the existing ones and removed with
// their lines, elements a merge kept edited where they are, elements it
// removed taken out with their own comments, new ones appended. Nothing
// else changes. The result is read again and must mean Want; an error
// wrapping ErrNotInPlace says it cannot be written so.
func (d *Doc) Write() (string, error) {
	if err := d.jsonValues(); err != nil {
		return "", err
	}
	w := newWriter(d)
	if err := w.diff(nil, d.old, d.Want); err != nil {
		return "", err
	}
	if w.empty() {
		return d.text, nil
	}
	out, err := w.apply(d.text)
	if err != nil {
		return "", err
	}
	if err := d.check(out); err != nil {
		return "", err
	}
	return out, nil
}

// check reads the result back: an edit that wrote something else is a bug
// here, reported rather than written (without the values: they may be
// secret).
func (d *Doc) check(out string) error {
	eo := d.opts.Edit
	eo.Format = d.opts.Format.embedded()
	got, err := embedded.Get(out, nil, eo)
	if err != nil {
		return fmt.Errorf("%w: the result does not parse: %v", ErrNotInPlace, err)
	}
	if !sameMeaning(got[0], d.Want, d.opts.Format) {
		return fmt.Errorf("%w: the result does not mean what the merge means", ErrNotInPlace)
	}
	return nil
}

// embedded is the format as package embedded names it.
func (f Format) embedded() embedded.Format {
	if f == JSON {
		return embedded.JSON
	}
	return embedded.YAML
}

// notInPlace is an error of the editor, or of the check of its result,
// that says the change cannot be written as edits: its message is the
// cause's, and it is ErrNotInPlace.
type notInPlace struct{ err error }

func (e notInPlace) Error() string   { return e.err.Error() }
func (e notInPlace) Unwrap() []error { return []error{ErrNotInPlace, e.err} }

// apply writes the edits collected into text: the batch, then the
// elements appended.
func (w *writer) apply(text string) (string, error) {
	eo := w.d.opts.Edit
	eo.Format = w.d.opts.Format.embedded()
	eo.GivenType, eo.GivenStyle = true, true
	out, err := embedded.Edit(text, eo, w.changes...)
	for _, c := range w.appends {
		if err == nil {
			out, err = embedded.Edit(out, eo, c)
		}
	}
	if err != nil {
		return "", notInPlace{err}
	}
	return out, nil
}
