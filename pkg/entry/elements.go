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
}

// Elements reports what kustomize keeps quiet about, from the keyed list
// elements an entry's strategic patch met (smp.Tally): a container added
// without an image, which the API server rejects, and a list element added
// to some resources while merged into the existing one in others. Each a
// finding (Flag): a warning, or with strict an error.
func (r *Run) Elements(entry string, t *smp.Tally, w Words) {
	for _, f := range t.Findings() {
		for _, i := range f.NoImage {
			r.Flag(entry, r.Ix.Item(i), w.path(i, f.Path), r.noImage(f, w), "")
		}
		if f.Mixed() && len(f.NoImage) == 0 {
			field, msg := f.Path, ""
			if w.Within != "" {
				field, msg = "", fmt.Sprintf("%s's %s: ", w.Within, f.Path)
			}
			msg += fmt.Sprintf("added as a new list element to %s (%s) while merged into the existing one in %d; a strategic merge adds an element wherever none has its keys: if the patch is meant for the %ss that have it, narrow the target",
				fnrun.Plural(len(f.Created), r.Noun), Names(r.Ix, f.Created), len(f.Merged), r.Noun)
			r.Flag(entry, nil, field, msg, "")
		}
	}
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
