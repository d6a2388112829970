package smp

import (
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Element is what a merge did with one element of a keyed list the patch
// names (MergeElements). Elements inside one that was added, or inside a
// list or map the patch replaces, are not listed on their own: they came
// with it.
type Element struct {
	// Path is where the element is, in the notation of Error.Path:
	// spec.template.spec.containers[name=server].
	Path string
	// Created says the document had no element with these keys, so the patch
	// added one; otherwise it merged into the one there, or, with
	// Unfilled, a default (Options.Default) found none to fill and added
	// none.
	Created, Unfilled bool
	// Container says the element is a container (of containers,
	// initContainers or ephemeralContainers); Image: it has an image
	// after the merge. A container added without one is rejected by the
	// API server. Name is its name.
	Container, Image bool
	Name             string
}

// record notes the keyed element on top of the path, which the merge adds
// (created) or merges into, before the elements inside it: it returns its
// place in m.elements for settle, or -1 when it is not recorded.
func (m *merger) record(created bool) int {
	if !m.track || m.whole > 0 {
		return -1
	}
	e := Element{Path: formatPath(m.path), Created: created}
	n := len(m.path)
	e.Container = n >= 2 && !m.path[n-2].elem && containerLists[m.path[n-2].field]
	if e.Container {
		if name := yamltree.Lookup(yamltree.Resolve(m.path[n-1].node), "name"); name != nil {
			e.Name = yamltree.Resolve(name).Value
		}
	}
	m.elements = append(m.elements, e)
	return len(m.elements) - 1
}

// settle completes the record at slot with r, the element as merged.
func (m *merger) settle(slot int, r *yaml.Node) {
	if slot < 0 || !m.elements[slot].Container {
		return
	}
	if img := yamltree.Lookup(yamltree.Resolve(r), "image"); img != nil {
		img = yamltree.Resolve(img)
		m.elements[slot].Image = img.Kind != yaml.ScalarNode || (!yamltree.IsNull(img) && img.Value != "")
	}
}

// containerLists are the fields of a PodSpec that hold containers.
var containerLists = map[string]bool{"containers": true, "initContainers": true, "ephemeralContainers": true}

// Tally gathers, over the resources one patch is merged into, where each
// keyed element was added and where merged: a patch meant to change
// container "server" in every Deployment silently adds an image-less
// "server" to those that have none, which the API server rejects later.
// Resources are the caller's numbers (item positions).
type Tally struct {
	order []string
	by    map[string]*Finding
}

// Finding is what the merges of one patch did with one keyed element.
type Finding struct {
	Path string
	// Created and Merged are the resources where the element was added
	// and where it merged into the one there. Created leaves out the
	// resources the patch injected a whole container into (a sidecar with
	// its image): what it adds there goes with the container. Unfilled are
	// those where a default found no such element, and so did nothing.
	Created, Merged, Unfilled []int
	// NoImage are the resources the element, a container, was added to
	// without an image; Name is the container's name.
	NoImage []int
	Name    string
}

// Mixed reports whether the element was added to some resources while it
// merged in others: the patch was probably meant for those that have it.
func (f *Finding) Mixed() bool { return len(f.Created) > 0 && len(f.Merged) > 0 }

// NoneHad reports whether a default met the element in none of the
// resources: it filled nothing there, and adds no element (fill.go), so
// the patch's element did nothing at all.
func (f *Finding) NoneHad() bool { return len(f.Unfilled) > 0 && len(f.Merged) == 0 }

// Add records what one merge (MergeElements) into resource did.
func (t *Tally) Add(resource int, elements []Element) {
	injected := injectsContainer(elements)
	for _, e := range elements {
		f := t.finding(e.Path)
		switch {
		case e.Unfilled:
			f.Unfilled, f.Name = append(f.Unfilled, resource), e.Name
		case !e.Created:
			f.Merged = append(f.Merged, resource)
		case e.Container && !e.Image:
			f.NoImage, f.Name = append(f.NoImage, resource), e.Name
			f.Created = append(f.Created, resource)
		case !injected:
			f.Created = append(f.Created, resource)
		}
	}
}

// injectsContainer reports whether a merge added a whole container with
// its image (a sidecar): what else it added there goes with it.
func injectsContainer(elements []Element) bool {
	for _, e := range elements {
		if e.Created && e.Container && e.Image {
			return true
		}
	}
	return false
}

func (t *Tally) finding(path string) *Finding {
	if f, ok := t.by[path]; ok {
		return f
	}
	if t.by == nil {
		t.by = map[string]*Finding{}
	}
	f := &Finding{Path: path}
	t.by[path] = f
	t.order = append(t.order, path)
	return f
}

// Findings returns, in the order the merges met them, the elements worth
// a word: added to some resources and merged in others, containers added
// without an image, and a default's elements no resource had.
func (t *Tally) Findings() []*Finding {
	var out []*Finding
	for _, p := range t.order {
		if f := t.by[p]; f.Mixed() || len(f.NoImage) > 0 || f.NoneHad() {
			out = append(out, f)
		}
	}
	return out
}
