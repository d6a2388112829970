package selector

import (
	"fmt"
	"strings"
)

// Set is the selection of one config entry: the union of its targets minus
// whatever any reject selector matches. No target at all selects everything
// but guarded resources (the Kptfile, local-config resources, the function
// config), which only a target naming their kind and name selects.
type Set struct {
	Target  *Selector  `json:"target,omitempty" yaml:"target,omitempty"`
	Targets []Selector `json:"targets,omitempty" yaml:"targets,omitempty"`
	Reject  []Selector `json:"reject,omitempty" yaml:"reject,omitempty"`
}

// SetMatcher is a compiled Set.
type SetMatcher struct {
	src     Set
	targets []*Matcher
	reject  []*Matcher
	// readOnly selections (replacement sources) may read guarded resources.
	readOnly bool
}

// ReadOnly lets the set select guarded resources (the Kptfile, local-config
// resources, the function config) like any other, for selections that only
// read: a replacement source. A values ConfigMap marked local-config is
// the usual source of kpt's apply-replacements, and reading it changes
// nothing on disk.
func (sm *SetMatcher) ReadOnly() *SetMatcher {
	sm.readOnly = true
	return sm
}

// All returns the target selectors of the set, for messages.
func (s Set) All() []Selector {
	var all []Selector
	if s.Target != nil {
		all = append(all, *s.Target)
	}
	return append(all, s.Targets...)
}

// CompileSet compiles every selector of the set; errors name the selector
// (target, targets[1], reject[0]) and its field.
func CompileSet(s Set) (*SetMatcher, error) {
	sm := &SetMatcher{src: s}
	if s.Target != nil {
		m, err := Compile(*s.Target)
		if err != nil {
			return nil, fmt.Errorf("target.%v", err)
		}
		sm.targets = append(sm.targets, m)
	}
	for i, t := range s.Targets {
		m, err := Compile(t)
		if err != nil {
			return nil, fmt.Errorf("targets[%d].%v", i, err)
		}
		sm.targets = append(sm.targets, m)
	}
	for i, t := range s.Reject {
		m, err := Compile(t)
		if err != nil {
			return nil, fmt.Errorf("reject[%d].%v", i, err)
		}
		sm.reject = append(sm.reject, m)
	}
	return sm, nil
}

// Matches reports whether one resource is selected.
func (sm *SetMatcher) Matches(r *Resource) bool {
	if sm.rejects(r) {
		return false
	}
	guarded := r.Guarded && !sm.readOnly
	if len(sm.targets) == 0 {
		return !guarded
	}
	for _, m := range sm.targets {
		if m.Matches(r) && (!guarded || m.names(r)) {
			return true
		}
	}
	return false
}

func (sm *SetMatcher) rejects(r *Resource) bool {
	for _, m := range sm.reject {
		if m.Matches(r) {
			return true
		}
	}
	return false
}

// Select returns the positions of the selected items, in item order. Only
// the items of the named kinds are examined when every target names one.
func (sm *SetMatcher) Select(ix *Index) []int {
	var out []int
	consider := func(i int) {
		if !ix.removed[i] && sm.Matches(&ix.resources[i]) {
			out = append(out, i)
		}
	}
	if cands, ok := sm.candidates(ix); ok {
		for _, i := range cands {
			consider(i)
		}
		return out
	}
	for i := range ix.items {
		consider(i)
	}
	return out
}

// candidates merges the lists of items each target needs to look at
// (Index.candidates); false when a target needs every item looked at.
func (sm *SetMatcher) candidates(ix *Index) ([]int, bool) {
	if len(sm.targets) == 0 {
		return nil, false
	}
	lists := make([][]int, len(sm.targets))
	for k, m := range sm.targets {
		l, ok := ix.candidates(m)
		if !ok {
			return nil, false
		}
		lists[k] = l
	}
	if len(lists) == 1 {
		return lists[0], true
	}
	return union(lists), true
}

// NoMatch explains, for a warning, that the set selected nothing; when a
// name pattern looks like a shell glob it says which expression was
// probably meant.
func (s Set) NoMatch() string {
	sels := s.All()
	if len(sels) == 0 {
		return "matches no resource"
	}
	msg := "target " + strings.Join(selectorStrings(sels), " or ") + " matches no resource"
	for _, sel := range sels {
		msg += globNote(sel.Name)
	}
	return msg
}
