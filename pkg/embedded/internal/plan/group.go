package plan

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// Group is a map or list gaining or losing entries.
type Group struct {
	Place   locate.Place
	Appends []Append
	// Gone holds the indexes of the entries deleted, and GoneAt, for each,
	// the segment of the path that names it, for messages.
	Gone   map[int]bool
	GoneAt map[int]int
}

// Append is an entry a change adds.
type Append struct {
	Change int
	Seg    fieldpath.Segment
	Value  *yaml.Node
	// Raw, when set, is the JSON text to write as it is (SetText).
	Raw string
}

// group returns the group of the map or list at pl, made on first use.
func (p *planner) group(pl locate.Place) *Group {
	key := locate.AddrKey(pl.Addr)
	g := p.groups[key]
	if g == nil {
		if p.groups == nil {
			p.groups = map[string]*Group{}
		}
		g = &Group{Place: pl, Gone: map[int]bool{}, GoneAt: map[int]int{}}
		p.groups[key] = g
		p.plan.Groups = append(p.plan.Groups, g)
	}
	return g
}
