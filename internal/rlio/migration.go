package rlio

import (
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The runner keeps kpt's path/index/id annotations in the format they came
// in (internal.config.kubernetes.io/* or the legacy config.kubernetes.io/*
// and config.k8s.io/id, or both), as kyaml's framework does with
// kio.PreprocessResourcesForInternalAnnotationMigration before the transform
// and kio.ReconcileInternalAnnotations after it.
//
// preprocessAnnotations and reconcileAnnotations do exactly what that pair
// does (same nodes, keys, order, styles and tags; same errors at the same
// point), but find metadata.annotations once per item and read and edit
// that mapping in place. kyaml's pair decodes the whole metadata with
// RNode.GetMeta about eight times per item, which on 30,000 items cost a
// sixth of the run's CPU and a third of its allocations.
//
// The fast path covers items of the plain shape (see plainItem). When any
// item is not plain, the whole list goes through kyaml's own functions, so
// odd shapes behave as kyaml makes them behave. migration_test.go and
// FuzzAnnotationMigration compare the two on the same inputs.

// The annotations the migration reads, by position in an origAnnotations.
const (
	annPath = iota
	annIndex
	annID
	annLegacyPath
	annLegacyIndex
	annLegacyID
	numMigrationAnnotations
)

var migrationKeys = [numMigrationAnnotations]string{
	annPath:        kioutil.PathAnnotation,
	annIndex:       kioutil.IndexAnnotation,
	annID:          kioutil.IdAnnotation,
	annLegacyPath:  kioutil.LegacyPathAnnotation,
	annLegacyIndex: kioutil.LegacyIndexAnnotation,
	annLegacyID:    kioutil.LegacyIdAnnotation,
}

// migrationID is the annotation that ties an output item to the input item
// it came from (its index), added before the transform and removed after.
const migrationID = kioutil.InternalAnnotationsMigrationResourceIDAnnotation

// annotationPairs are the (internal, legacy) pairs kept in step, in the
// order kyaml visits them (it matters: copies are appended in this order).
var annotationPairs = [3][2]int{{annPath, annLegacyPath}, {annIndex, annLegacyIndex}, {annID, annLegacyID}}

// origAnnotations is what kyaml records of an input item (its
// GetInternalAnnotations map) as far as ReconcileInternalAnnotations reads
// it: whether each of the six annotations was present, and its value.
type origAnnotations struct {
	found [numMigrationAnnotations]bool
	value [numMigrationAnnotations]string
}

// annotationMigration is preprocessAnnotations' record for
// reconcileAnnotations.
type annotationMigration struct {
	// kyaml is kyaml's own record, when the input was not all plain.
	kyaml map[string]map[string]string
	// orig holds each input item's annotations, by index (the migration id).
	orig []origAnnotations
}

// preprocessAnnotations is kio.PreprocessResourcesForInternalAnnotationMigration:
// it marks each item with its index (migrationID), records its path, index
// and id annotations, fills in whichever of a pair is missing, and rejects
// an item whose pair disagrees.
func preprocessAnnotations(items []*yaml.RNode) (*annotationMigration, error) {
	if !allPlain(items) {
		m, err := kio.PreprocessResourcesForInternalAnnotationMigration(items)
		return &annotationMigration{kyaml: m}, err
	}
	state := &annotationMigration{orig: make([]origAnnotations, len(items))}
	for i, it := range items {
		a := locateAnnotations(it)
		a.set(migrationID, strconv.Itoa(i))
		o := &state.orig[i]
		for k, key := range migrationKeys {
			o.value[k], o.found[k] = a.get(key)
		}
		// kioutil.CopyLegacyAnnotations
		for _, p := range annotationPairs {
			v, legacy := o.value[p[0]], o.value[p[1]]
			switch {
			case v != "" && legacy == "":
				a.set(migrationKeys[p[1]], v)
			case v == "" && legacy != "":
				a.set(migrationKeys[p[0]], legacy)
			}
		}
		if err := a.checkMismatched(); err != nil {
			return nil, err
		}
	}
	return state, nil
}

// reconcileAnnotations is kio.ReconcileInternalAnnotations: after the
// transform, it carries a change the transform made to one of a pair over
// to the other, puts the annotations back in the input's format, and
// removes migrationID.
func reconcileAnnotations(items []*yaml.RNode, state *annotationMigration) error {
	if state.kyaml != nil || !allPlain(items) {
		m := state.kyaml
		if m == nil {
			m = state.kyamlRecord()
		}
		return kio.ReconcileInternalAnnotations(items, m)
	}
	useInternal, useLegacy, err := state.format()
	if err != nil {
		return err
	}
	for _, it := range items {
		a := locateAnnotations(it)
		// missingInternalOrLegacyAnnotations
		for _, p := range annotationPairs {
			v, _ := a.get(migrationKeys[p[0]])
			legacy, _ := a.get(migrationKeys[p[1]])
			switch {
			case v == "" && legacy != "":
				a.set(migrationKeys[p[0]], legacy)
			case v != "" && legacy == "":
				a.set(migrationKeys[p[1]], v)
			}
		}
		if err := a.checkAltered(state); err != nil {
			return err
		}
		// formatInternalAnnotations
		if !useInternal {
			a.clear(kioutil.IdAnnotation)
			a.clear(kioutil.PathAnnotation)
			a.clear(kioutil.IndexAnnotation)
		}
		if !useLegacy {
			a.clear(kioutil.LegacyIdAnnotation)
			a.clear(kioutil.LegacyPathAnnotation)
			a.clear(kioutil.LegacyIndexAnnotation)
		}
		if err := a.checkMismatched(); err != nil {
			return err
		}
		a.clear(migrationID)
	}
	return nil
}

// format is kio's determineAnnotationsFormat: which of the two formats the
// input used, across all items (an error when items disagree).
func (s *annotationMigration) format() (useInternal, useLegacy bool, err error) {
	if len(s.orig) == 0 {
		return true, true, nil
	}
	var internal, legacy *bool
	for i := range s.orig {
		f := &s.orig[i].found
		hasInternal := f[annPath] || f[annIndex] || f[annID]
		hasLegacy := f[annLegacyPath] || f[annLegacyIndex] || f[annLegacyID]
		if !hasInternal && !hasLegacy {
			continue
		}
		if internal == nil {
			internal, legacy = &hasInternal, &hasLegacy
		}
		if hasInternal != *internal || hasLegacy != *legacy {
			return false, false, errInconsistentFormat
		}
	}
	if internal == nil {
		return false, false, nil
	}
	return *internal, *legacy, nil
}

// kyamlRecord is the record kio.PreprocessResourcesForInternalAnnotationMigration
// would have made, for handing to kio.ReconcileInternalAnnotations when the
// transform left an item kyaml must handle. (kyaml records every
// internal.config.kubernetes.io/* annotation; its reconcile reads only
// these.)
func (s *annotationMigration) kyamlRecord() map[string]map[string]string {
	m := make(map[string]map[string]string, len(s.orig))
	for i, o := range s.orig {
		id := strconv.Itoa(i)
		annos := map[string]string{migrationID: id}
		for k, key := range migrationKeys {
			if o.found[k] {
				annos[key] = o.value[k]
			}
		}
		m[id] = annos
	}
	return m
}

// lookup finds the input item a migration id names. kyaml keys its record
// by strconv.Itoa(index), so only that exact spelling matches.
func (s *annotationMigration) lookup(id string) (*origAnnotations, bool) {
	i, err := strconv.Atoi(id)
	if err != nil || i < 0 || i >= len(s.orig) || strconv.Itoa(i) != id {
		return nil, false
	}
	return &s.orig[i], true
}

var (
	errInconsistentFormat = errorString("the annotation formatting in the input resources is not consistent")
	errMismatched         = [numMigrationAnnotations]error{
		annPath:  errorString("resource input to function has mismatched legacy and internal path annotations"),
		annIndex: errorString("resource input to function has mismatched legacy and internal index annotations"),
		annID:    errorString("resource input to function has mismatched legacy and internal id annotations"),
	}
)

type errorString string

func (e errorString) Error() string { return string(e) }

// checkMismatched is kio's checkMismatchedAnnos: an internal annotation and
// its legacy twin, both set, must agree.
func (a *itemAnnotations) checkMismatched() error {
	for _, p := range annotationPairs {
		v, _ := a.get(migrationKeys[p[0]])
		legacy, _ := a.get(migrationKeys[p[1]])
		if v != "" && legacy != "" && v != legacy {
			return errMismatched[p[0]]
		}
	}
	return nil
}

// checkAltered is kio's checkAnnotationsAltered: when the transform changed
// one of the path (or index) annotations of an input item, the other
// follows; when it changed both, differently, that is an error.
func (a *itemAnnotations) checkAltered(s *annotationMigration) error {
	rid, _ := a.get(migrationID)
	o, ok := s.lookup(rid)
	if !ok {
		return nil
	}
	for _, p := range annotationPairs[:2] { // path and index, not id
		internal, _ := a.get(migrationKeys[p[0]])
		legacy, _ := a.get(migrationKeys[p[1]])
		orig := o.value[p[0]]
		if !o.found[p[0]] {
			orig = o.value[p[1]]
		}
		if orig == "" {
			continue
		}
		switch {
		case orig != internal && orig != legacy && internal != legacy:
			return errMismatched[p[0]]
		case orig != internal:
			a.set(migrationKeys[p[1]], internal)
		case orig != legacy:
			a.set(migrationKeys[p[0]], legacy)
		}
	}
	return nil
}

// itemAnnotations is one plain item's metadata and metadata.annotations
// mappings (nil when absent), found once and kept current as set creates
// and removes them.
type itemAnnotations struct {
	item, meta, annos *yaml.Node
}

func locateAnnotations(rn *yaml.RNode) itemAnnotations {
	a := itemAnnotations{item: rn.YNode()}
	if a.meta = fieldValue(a.item, yaml.MetadataField); a.meta != nil {
		a.annos = fieldValue(a.meta, yaml.AnnotationsField)
	}
	return a
}

// get reads an annotation as RNode.GetMeta decodes it: a null is "", and
// found says whether the key is there at all (kyaml's record keeps keys
// with empty values, and determineAnnotationsFormat counts them).
func (a *itemAnnotations) get(key string) (value string, found bool) {
	if a.annos == nil {
		return "", false
	}
	v := fieldValue(a.annos, key)
	switch {
	case v == nil:
		return "", false
	case v.Tag == yaml.NodeTagNull:
		return "", true
	}
	return v.Value, true
}

// set is yaml.SetAnnotation. First, as SetAnnotation does
// (yaml.ClearEmptyAnnotations), an empty annotations mapping and then an
// empty metadata are removed; missing ones are appended (so an empty one
// moves to the end). An existing value node is overwritten in place with a
// !!str scalar keeping its style (FieldSetter); a new one is appended
// single-quoted.
func (a *itemAnnotations) set(key, value string) {
	if a.meta != nil {
		if a.annos != nil && len(a.annos.Content) == 0 {
			removeField(a.meta, yaml.AnnotationsField)
			a.annos = nil
		}
		if len(a.meta.Content) == 0 {
			removeField(a.item, yaml.MetadataField)
			a.meta = nil
		}
	}
	if a.meta == nil {
		a.meta = appendField(a.item, yaml.MetadataField, &yaml.Node{Kind: yaml.MappingNode})
	}
	if a.annos == nil {
		a.annos = appendField(a.meta, yaml.AnnotationsField, &yaml.Node{Kind: yaml.MappingNode})
	}
	if old := fieldValue(a.annos, key); old != nil {
		style := old.Style
		*old = yaml.Node{}
		old.SetString(value) // !!str, or !!binary for invalid UTF-8, as NewStringRNode
		old.Style = style
		return
	}
	v := &yaml.Node{}
	v.SetString(value)
	v.Style = yaml.SingleQuotedStyle
	appendField(a.annos, key, v)
}

// clear is yaml.ClearAnnotation: it removes the key, leaving an empty
// annotations mapping in place.
func (a *itemAnnotations) clear(key string) {
	if a.annos != nil {
		removeField(a.annos, key)
	}
}

// fieldValue returns the value of a mapping's first key spelled name (as
// kyaml's field lookups match), or nil.
func fieldValue(m *yaml.Node, name string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i+1]
		}
	}
	return nil
}

func removeField(m *yaml.Node, name string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// appendField appends name: value to a mapping, the key as
// yaml.FieldSetter creates it (a plain scalar without a tag).
func appendField(m *yaml.Node, name string, value *yaml.Node) *yaml.Node {
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name}, value)
	return value
}

func allPlain(items []*yaml.RNode) bool {
	for _, it := range items {
		if !plainItem(it) {
			return false
		}
	}
	return true
}

// plainItem reports whether an item has the shape the fast path handles
// exactly as kyaml does: the item, its metadata and metadata.annotations
// are mappings (metadata and annotations may be absent), each of those two
// fields appears once, and each annotation the migration reads or writes
// appears at most once, with a scalar key not tagged !!null (GetMeta would
// file that under "") and a scalar value. Anything else (a null or scalar
// metadata, an alias, a duplicate) goes to kyaml, whose filters error out or
// pick fields in ways not worth copying.
func plainItem(rn *yaml.RNode) bool {
	if rn == nil || rn.Document() == nil {
		return false
	}
	if d := rn.Document(); d.Kind == yaml.DocumentNode && len(d.Content) == 0 {
		return false
	}
	item := rn.YNode()
	if !plainMapping(item) {
		return false
	}
	meta, ok := onlyField(item, yaml.MetadataField)
	if !ok || meta == nil {
		return ok
	}
	if !plainMapping(meta) {
		return false
	}
	annos, ok := onlyField(meta, yaml.AnnotationsField)
	if !ok || annos == nil {
		return ok
	}
	if !plainMapping(annos) {
		return false
	}
	var seen [numMigrationAnnotations + 1]bool
	for i := 0; i < len(annos.Content); i += 2 {
		k := migrationKeyIndex(annos.Content[i].Value)
		if k < 0 {
			continue
		}
		key, value := annos.Content[i], annos.Content[i+1]
		if seen[k] || key.Kind != yaml.ScalarNode || key.Tag == yaml.NodeTagNull || value.Kind != yaml.ScalarNode {
			return false
		}
		seen[k] = true
	}
	return true
}

func plainMapping(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.MappingNode && n.Tag != yaml.NodeTagNull && len(n.Content)%2 == 0
}

// onlyField returns the value of the mapping's key spelled name (nil when
// absent); ok is false when the key appears more than once.
func onlyField(m *yaml.Node, name string) (value *yaml.Node, ok bool) {
	n := 0
	for i := 0; i < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			n++
			value = m.Content[i+1]
		}
	}
	return value, n == 0 || (n == 1 && value != nil)
}

// migrationKeyIndex places key among migrationKeys, migrationID last, or -1.
func migrationKeyIndex(key string) int {
	if key == migrationID {
		return numMigrationAnnotations
	}
	for i, k := range migrationKeys {
		if k == key {
			return i
		}
	}
	return -1
}
