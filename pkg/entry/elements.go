package entry

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// Words say how Elements speaks of a function's patch.
type Words struct {
	// Patch names the patch: "the patch", "the PodSpec patch".
	Patch string
	// Within names the document the patch goes into, when it is not the
	// resource itself ("the PodSpec"); At gives its field path in item i.
	// Without them, the patch goes into the resource.
	Within string
	At     func(i int) string
	// Narrow is what to do about a container added where other resources
	// had it (inside the parenthesis that counts them).
	Narrow string
	// Hint, when set, says what to do about the container name added
	// without an image.
	Hint func(name string) string
	// Every names what fills a default into every container whatever its
	// name: "podspec-patch's containerPatch with mode: default".
	Every string
}

// Elements reports what kustomize keeps quiet about, from the keyed list
// elements an entry's strategic patch met (smp.Tally): a container added
// without an image, which the API server rejects, a list element added
// to some resources while merged into the existing one in others, and a
// default's element that no resource had, so that it did nothing. Each a
// finding (Flag): a warning, or with strict an error.
func (r *Run) Elements(entry string, t *smp.Tally, w Words) {
	for _, f := range t.Findings() {
		for _, i := range f.NoImage {
			r.Flag(entry, r.Ix.Item(i), w.path(i, f.Path), r.noImage(f, w), "")
		}
		switch {
		case f.Mixed() && len(f.NoImage) == 0:
			field, msg := w.element(f)
			msg += fmt.Sprintf("added as a new list element to %s (%s) while merged into the existing one in %d; a strategic merge adds an element wherever none has its keys: if the patch is meant for the %ss that have it, narrow the target",
				fnrun.Plural(len(f.Created), r.Noun), Names(r.Ix, f.Created), len(f.Merged), r.Noun)
			r.Flag(entry, nil, field, msg, "")
		case f.NoneHad():
			field, msg := w.element(f)
			r.Flag(entry, nil, field, msg+r.noneHad(f, w), "")
		}
	}
}

// element is where a message about element f goes: its field path, or
// (within a document of the resource) the start of the message.
func (w Words) element(f *smp.Finding) (field, msg string) {
	if w.Within != "" {
		return "", fmt.Sprintf("%s's %s: ", w.Within, f.Path)
	}
	return f.Path, ""
}

// noneHad is the message for a default's element f that none of the
// resources had: a default adds no element, so it did nothing.
func (r *Run) noneHad(f *smp.Finding, w Words) string {
	msg := fmt.Sprintf("no such element in the %s the default went into (%s): a default fills the elements there and adds none, so this one did nothing",
		fnrun.Plural(len(f.Unfilled), r.Noun), Names(r.Ix, f.Unfilled))
	if f.Name != "" && w.Every != "" {
		msg += fmt.Sprintf("; to fill a default into every container, whatever its name, use %s", w.Every)
	}
	return msg + " (to add the element, use a patch without mode)"
}

// noImage is the message for a container f added without an image.
func (r *Run) noImage(f *smp.Finding, w Words) string {
	msg := fmt.Sprintf("%s adds this container, which the %s did not have, without an image: the API server will reject it", w.Patch, r.Noun)
	if n := len(f.Merged); n > 0 {
		msg += fmt.Sprintf(" (in %s the patch merged into the container of that name%s)", fnrun.Plural(n, "other "+r.Noun), w.Narrow)
	}
	if w.Hint != nil && f.Name != "" {
		msg += w.Hint(f.Name)
	}
	return msg
}

// path is the field path of p, a path in what the patch goes into, in
// item i.
func (w Words) path(i int, p string) string {
	if w.At == nil {
		return p
	}
	at := w.At(i)
	switch {
	case p == "":
		return at
	case at == "":
		return p
	}
	return at + "." + p
}
