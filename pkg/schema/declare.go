package schema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Lists no schema describes — a HelmRelease's spec.values.env, an Argo CD
// Application's helm parameters — are replaced by a strategic merge. A
// user who knows how their elements are identified declares it (a config's
// mergeKeys); the declaration becomes ordinary merge metadata here, so the
// merge engine treats a declared list exactly as a list of a built-in type
// or a CRD: the same key rules, directives and errors.

// Case gives the elements of a list that a field-path matcher selects
// (spec.sources.[chart=app]) a type of their own.
type Case struct {
	Match fieldpath.Segment
	Type  *Type
}

// ElementFor returns the type of one element of a list: that of the first
// case whose matcher selects it (fieldpath.Matches decides), Elem
// otherwise. n is the element as it stands in the document, or the patch's
// element where the document has none.
func (t *Type) ElementFor(n *yaml.Node) *Type {
	if t == nil {
		return nil
	}
	if n != nil {
		for _, c := range t.Cases {
			if fieldpath.Matches(yamltree.Tree{}, yamltree.Resolve(n), c.Match) {
				return c.Type
			}
		}
	}
	return t.Elem
}

// DeclareError is a declaration of merge keys that cannot be taken.
type DeclareError struct {
	// At is the part of the path where the problem is ("" for the whole).
	At  string
	Msg string
}

func (e *DeclareError) Error() string {
	if e.At == "" {
		return e.Msg
	}
	return e.At + ": " + e.Msg
}

// ListKeys declares that the lists a path reaches merge by keys: the
// fields that identify an element (a config's mergeKeys).
type ListKeys struct {
	Path fieldpath.Path
	Keys []string
}

// WithListKeys returns t with the lists l.Path reaches merged by l.Keys, leaving t
// itself (which may be shared, as the built-in types are) unchanged. A
// path's segments are read as the schema reads a document:
//
//   - a field name is that field (of a map with arbitrary keys too);
//   - * is every element of a list, or every value of a map;
//   - [key=value] is the elements of a list that fieldpath.Matches selects
//     (their own type: ElementFor);
//   - an index is refused: a position does not identify an element across
//     resources and runs.
//
// A list the schema already merges by other keys, or as a set, keeps its
// rules: declaring others is an error (for built-in kinds see Describes).
func (t *Type) WithListKeys(l ListKeys) (*Type, error) {
	path, keys := l.Path, l.Keys
	if len(keys) == 0 {
		return nil, &DeclareError{Msg: "keys: give at least one field that identifies an element"}
	}
	for i, k := range keys {
		if strings.TrimSpace(k) == "" {
			return nil, &DeclareError{Msg: fmt.Sprintf("keys[%d]: empty field name", i)}
		}
		if slices.Contains(keys[:i], k) {
			return nil, &DeclareError{Msg: fmt.Sprintf("keys: %q is listed twice", k)}
		}
	}
	if len(path) == 0 {
		return nil, &DeclareError{Msg: "path: empty"}
	}
	return graft(t, path, 0, slices.Clone(keys))
}

func graft(t *Type, path fieldpath.Path, i int, keys []string) (*Type, error) {
	c := &Type{}
	if t != nil {
		*c = *t // a copy: t may be shared
	}
	if i == len(path) {
		if err := c.declare(path, keys); err != nil {
			return nil, err
		}
		return c, nil
	}
	seg := path[i]
	var err error
	switch seg.Kind {
	case fieldpath.Field:
		err = c.graftField(seg.Key, path, i, keys)
	case fieldpath.Wildcard:
		err = c.graftEvery(path, i, keys)
	case fieldpath.Match:
		err = c.graftCase(seg, path, i, keys)
	default:
		return nil, &DeclareError{At: path[:i+1].String(),
			Msg: "an index names a position, not an element: positions change as elements are added, merged and removed; select elements with [key=value], or all of them with *"}
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// declare makes c, the list the path reaches, merge by keys, unless its
// schema merges it by other keys or as a set.
func (c *Type) declare(path fieldpath.Path, keys []string) error {
	switch {
	case c.Strategy == MergeByKeys && !slices.Equal(c.Keys, keys):
		return &DeclareError{At: path.String(), Msg: fmt.Sprintf("its schema already merges this list by %s; declared keys may not change that", keyList(c.Keys))}
	case c.Strategy == Set:
		return &DeclareError{At: path.String(), Msg: "its schema already merges this list as a set of values; declared keys may not change that"}
	}
	c.Strategy, c.Keys = MergeByKeys, keys
	return nil
}

// graftField declares the rest of the path below one field.
func (c *Type) graftField(key string, path fieldpath.Path, i int, keys []string) error {
	f, err := graft(c.Field(key), path, i+1, keys)
	if err != nil {
		return err
	}
	c.Fields = maps.Clone(c.Fields)
	if c.Fields == nil {
		c.Fields = map[string]*Type{}
	}
	c.Fields[key] = f
	return nil
}

// graftEvery declares the rest of the path below every value: the
// elements or map values (Elem), every named field, every case.
func (c *Type) graftEvery(path fieldpath.Path, i int, keys []string) error {
	var err error
	if c.Elem, err = graft(c.Elem, path, i+1, keys); err != nil {
		return err
	}
	if len(c.Fields) > 0 {
		fields := make(map[string]*Type, len(c.Fields))
		for k, f := range c.Fields {
			if fields[k], err = graft(f, path, i+1, keys); err != nil {
				return err
			}
		}
		c.Fields = fields
	}
	return c.graftCases(func(Case) bool { return true }, path, i, keys)
}

// graftCase declares the rest of the path below the elements seg selects:
// a case of their own, starting from what every element has.
func (c *Type) graftCase(seg fieldpath.Segment, path fieldpath.Path, i int, keys []string) error {
	for _, k := range c.Cases {
		if k.Match == seg {
			return c.graftCases(func(k Case) bool { return k.Match == seg }, path, i, keys)
		}
	}
	ct, err := graft(c.Elem, path, i+1, keys)
	if err != nil {
		return err
	}
	c.Cases = append(slices.Clone(c.Cases), Case{Match: seg, Type: ct})
	return nil
}

func (c *Type) graftCases(which func(Case) bool, path fieldpath.Path, i int, keys []string) error {
	if len(c.Cases) == 0 {
		return nil
	}
	cases := slices.Clone(c.Cases)
	for j, k := range cases {
		if !which(k) {
			continue
		}
		t, err := graft(k.Type, path, i+1, keys)
		if err != nil {
			return err
		}
		cases[j].Type = t
	}
	c.Cases = cases
	return nil
}

// Describes reports whether the schema of a built-in kind describes what
// path reaches: a field of the kind, whose merge rules come from the
// Kubernetes API (a list merged by keys, as a set, or atomic), which a
// declaration may not replace, as a CRD may not redefine a built-in kind.
// It returns the place described and how it merges. A path that leaves
// the kind's fields, or goes below a field the API leaves open
// (RawExtension), describes nothing.
func (s *Schema) Describes(apiVersion, kind string, path fieldpath.Path) (string, string, bool) {
	if Builtin().Lookup(apiVersion, kind) == nil {
		return "", "", false
	}
	sh := s.Shape(apiVersion, kind)
	t := s.Lookup(apiVersion, kind)
	return describes(sh, t, path, 0)
}

func describes(sh Shape, t *Type, path fieldpath.Path, i int) (string, string, bool) {
	switch {
	case i == len(path):
		return path.String(), howMerged(sh, t), true
	case path[i].Kind == fieldpath.Field:
		return describesField(sh, t, path, i)
	case path[i].Kind == fieldpath.Wildcard:
		return describesEvery(sh, t, path, i)
	case sh.Kind() == List:
		return describes(sh.Elem(), t.Element(), path, i+1)
	}
	return "", "", false
}

// howMerged says how a field of the kind merges: a map, or a list of maps
// (List) or of values, or a scalar (Unchecked), by its strategy.
func howMerged(sh Shape, t *Type) string {
	if sh.Kind() == Object || sh.Kind() == Map {
		return "a map, not a list"
	}
	strategy, keys := t.List()
	switch strategy {
	case MergeByKeys:
		return "merged by " + keyList(keys)
	case Set:
		return "merged as a set of values"
	}
	return "atomic: a patch replaces it"
}

// describesField follows a field name into an object's field or a map's
// value.
func describesField(sh Shape, t *Type, path fieldpath.Path, i int) (string, string, bool) {
	if sh.Kind() != Object && sh.Kind() != Map {
		return "", "", false
	}
	key := path[i].Key
	f, ok := sh.Field(key)
	if !ok {
		return "", "", false
	}
	return describes(f, t.Field(key), path, i+1)
}

// describesEvery follows * into every field of an object (the first that
// describes something answers), the values of a map, the elements of a
// list.
func describesEvery(sh Shape, t *Type, path fieldpath.Path, i int) (string, string, bool) {
	switch sh.Kind() {
	case Object:
		for _, name := range sh.Names() {
			f, _ := sh.Field(name)
			if at, how, ok := describes(f, t.Field(name), path, i+1); ok {
				return at, how, true
			}
		}
	case Map:
		return describes(sh.Elem(), t.Field(""), path, i+1)
	case List:
		return describes(sh.Elem(), t.Element(), path, i+1)
	}
	return "", "", false
}

func keyList(keys []string) string { return "[" + strings.Join(keys, ", ") + "]" }
