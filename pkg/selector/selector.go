package selector

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// Selector is one target description, as written in a config.
type Selector struct {
	// APIVersion ("apps/v1") is a shorthand for group and version together,
	// which kustomize users often write and kustomize silently ignores.
	APIVersion         string            `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
	Group              string            `json:"group,omitempty" yaml:"group,omitempty"`
	Version            string            `json:"version,omitempty" yaml:"version,omitempty"`
	Kind               string            `json:"kind,omitempty" yaml:"kind,omitempty"`
	Name               string            `json:"name,omitempty" yaml:"name,omitempty"`
	Namespace          string            `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	LabelSelector      string            `json:"labelSelector,omitempty" yaml:"labelSelector,omitempty"`
	AnnotationSelector string            `json:"annotationSelector,omitempty" yaml:"annotationSelector,omitempty"`
	MatchAnnotations   map[string]string `json:"matchAnnotations,omitempty" yaml:"matchAnnotations,omitempty"`
}

// IsEmpty reports whether the selector sets no field at all.
func (s Selector) IsEmpty() bool {
	// every string field empty, and no matchAnnotations
	return s.APIVersion+s.Group+s.Version+s.Kind+s.Name+s.Namespace+s.LabelSelector+s.AnnotationSelector == "" &&
		len(s.MatchAnnotations) == 0
}

// String renders the selector compactly for messages: {kind=Deployment name=app1-*}.
func (s Selector) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add("apiVersion", s.APIVersion)
	add("group", s.Group)
	add("version", s.Version)
	add("kind", s.Kind)
	add("name", s.Name)
	add("namespace", s.Namespace)
	add("labelSelector", s.LabelSelector)
	add("annotationSelector", s.AnnotationSelector)
	if len(s.MatchAnnotations) > 0 {
		keys := make([]string, 0, len(s.MatchAnnotations))
		for k := range s.MatchAnnotations {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var kv []string
		for _, k := range keys {
			kv = append(kv, k+"="+s.MatchAnnotations[k])
		}
		add("matchAnnotations", strings.Join(kv, ","))
	}
	if len(parts) == 0 {
		return "{} (everything)"
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// pattern is one anchored regular expression; a pattern without
// metacharacters is compared as a plain string, which is most of them and
// much cheaper than running a regexp per resource.
type pattern struct {
	literal string
	re      *regexp.Regexp
}

func compilePattern(field, expr string) (*pattern, error) {
	if expr == "" {
		return nil, nil
	}
	if regexp.QuoteMeta(expr) == expr {
		return &pattern{literal: expr}, nil
	}
	// A program too large to run is refused before it runs (budget.MaxProgram).
	if err := budget.CheckProgram(expr); err != nil {
		return nil, fmt.Errorf("%s: %v", field, err)
	}
	// An escaped literal (`cm\.v1`, as regexp.QuoteMeta writes it) is a
	// literal too: it names one value.
	if re, err := regexp.Compile(expr); err == nil {
		if lit, complete := re.LiteralPrefix(); complete {
			return &pattern{literal: lit}, nil
		}
	}
	re, err := regexp.Compile("^(?:" + expr + ")$")
	if err != nil {
		return nil, fmt.Errorf("%s: invalid regular expression %q: %s", field, expr,
			suggest.Regexp(expr, "to leave resources out, use reject"))
	}
	return &pattern{re: re}, nil
}

// literalValue is the one value a literal pattern matches; ok is false for
// a regular expression, or no pattern.
func (p *pattern) literalValue() (string, bool) {
	if p == nil || p.re != nil {
		return "", false
	}
	return p.literal, true
}

func (p *pattern) match(s string) bool {
	if p == nil {
		return true
	}
	if p.re == nil {
		return p.literal == s
	}
	return p.re.MatchString(s)
}

// Matcher is a compiled Selector.
type Matcher struct {
	src                                               Selector
	apiVersion, group, version, kind, name, namespace *pattern
	labels, annotations                               labels.Selector
	matchAnnotations                                  map[string]string
}

// Compile checks and compiles a selector. Errors name the offending field.
func Compile(s Selector) (*Matcher, error) {
	m := &Matcher{src: s, matchAnnotations: s.MatchAnnotations}
	var err error
	for _, f := range []struct {
		name string
		expr string
		dst  **pattern
	}{
		{"apiVersion", s.APIVersion, &m.apiVersion},
		{"group", s.Group, &m.group},
		{"version", s.Version, &m.version},
		{"kind", s.Kind, &m.kind},
		{"name", s.Name, &m.name},
		{"namespace", s.Namespace, &m.namespace},
	} {
		if *f.dst, err = compilePattern(f.name, f.expr); err != nil {
			return nil, err
		}
	}
	if s.LabelSelector != "" {
		if m.labels, err = labels.Parse(s.LabelSelector); err != nil {
			return nil, fmt.Errorf("labelSelector %q: %v", s.LabelSelector, err)
		}
	}
	if s.AnnotationSelector != "" {
		if m.annotations, err = labels.Parse(s.AnnotationSelector); err != nil {
			return nil, fmt.Errorf("annotationSelector %q: %v (annotation values that are not valid label values, such as URLs, can be matched exactly with matchAnnotations)", s.AnnotationSelector, err)
		}
	}
	return m, nil
}

// Selector returns the selector the matcher was compiled from.
func (m *Matcher) Selector() Selector { return m.src }

// Matches reports whether the described resource is selected.
//
// Kind, name and namespace match the resource's current ID or any earlier
// one (kustomize's previous-ID annotations), all three from the same ID, as
// kustomize's replacements and target-less patches match; group, version,
// labels and annotations are the current ones.
func (m *Matcher) Matches(r *Resource) bool {
	// labels first: most selectors that have them name a kind too, and
	// Index.Select hands over only that kind's items, which the labels tell
	// apart
	return m.matchesMetadata(r) && m.matchesGroupVersion(r) && m.matchesAnyID(r)
}

func (m *Matcher) matchesGroupVersion(r *Resource) bool {
	return m.group.match(r.Group) && m.version.match(r.Version) &&
		(m.apiVersion == nil || m.apiVersion.match(r.APIVersion()))
}

// matchesAnyID matches the current ID or an earlier one.
func (m *Matcher) matchesAnyID(r *Resource) bool {
	if m.matchesID(ID{r.Kind, r.Name, r.Namespace}) {
		return true
	}
	for _, id := range r.Earlier {
		if m.matchesID(id) {
			return true
		}
	}
	return false
}

// matchesID matches kind, name and namespace.
func (m *Matcher) matchesID(id ID) bool {
	return m.kind.match(id.Kind) && m.name.match(id.Name) && m.inNamespace(id.Namespace)
}

// inNamespace matches the namespace. A resource without one lives in
// "default" once applied, so a selector for "default" selects it too
// (kustomize does the same).
func (m *Matcher) inNamespace(ns string) bool {
	return m.namespace == nil || m.namespace.match(ns) || ns == "" && m.namespace.match("default")
}

// matchesMetadata matches the label and annotation selectors and
// matchAnnotations.
func (m *Matcher) matchesMetadata(r *Resource) bool {
	return selects(m.labels, r.Labels) && selects(m.annotations, r.Annotations) && m.hasAnnotations(r)
}

// selects reports whether a selector (none: everything) selects a set of
// labels or annotations.
func selects(sel labels.Selector, set map[string]string) bool {
	return sel == nil || sel.Matches(labels.Set(set))
}

// hasAnnotations reports whether the resource has every annotation of
// matchAnnotations, with its value.
func (m *Matcher) hasAnnotations(r *Resource) bool {
	for k, v := range m.matchAnnotations {
		if got, ok := r.Annotations[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// names reports whether the selector names the resource explicitly: a
// literal kind and a literal name (no pattern) that are the resource's.
// Only such a selector selects a guarded resource.
func (m *Matcher) names(r *Resource) bool {
	kind, kindOK := m.kind.literalValue()
	name, nameOK := m.name.literalValue()
	if !kindOK || !nameOK {
		return false
	}
	for _, id := range r.IDs() {
		if kind == id.Kind && name == id.Name {
			return true
		}
	}
	return false
}

// literalKind returns the kind when the selector names exactly one, so an
// index can look at that kind's resources only.
func (m *Matcher) literalKind() (string, bool) { return m.kind.literalValue() }

// labelEquals is a label the label selector requires with one value
// (app=api, app==api, app in (api)); false when it requires none.
func (m *Matcher) labelEquals() (key, value string, ok bool) {
	if m.labels == nil {
		return "", "", false
	}
	reqs, _ := m.labels.Requirements()
	for _, r := range reqs {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
			if vs := r.ValuesUnsorted(); len(vs) == 1 {
				return r.Key(), vs[0], true
			}
		}
	}
	return "", "", false
}

// globNote is the hint for a name pattern that looks like a shell glob, or "".
func globNote(name string) string {
	if hint := suggest.Glob(name); hint != "" {
		return fmt.Sprintf(" (name is a regular expression, not a shell glob: did you mean %q?)", hint)
	}
	return ""
}
