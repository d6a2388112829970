package valuemerge

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/mergekey"
	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// YAML is merged as data and written as edits of the base text through
// package embedded, as JSON is: the walk over the base and overlay values
// yields one batch of changes (a changed value, a new key, a deleted key),
// applied with one parse and one verification. Values the overlay writes
// keep its types and styles (a flow list stays flow, quoting stays);
// comments, blank lines and the rest of the base stay byte for byte.
// Where the editor cannot write the change in place (say, a key of a
// complex kind, or an anchored map that aliases share), the merged nodes
// are written whole: the meaning is the same, the base's blank lines are
// not kept.

type ydoc struct {
	src   string
	lines []string // each with its "\n", except maybe the last
	root  *yaml.Node
	doc   *yaml.Node
}

func parseYAML(s, which string) (*ydoc, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	if off := invalidUTF8(s); off >= 0 {
		// yaml.v3 would read UTF-16 here; ConfigMap data is UTF-8.
		line, col := lineCol(s, off)
		return nil, &ParseError{Which: which, Format: YAML, Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(which, err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "it holds more than one document"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(which, err)
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	if n := emptySecondaryTag(&doc); n != nil {
		// yaml.v3 reads !%21 as the tag "!!" but writes "!!" back as
		// something else: the merge could not write the value.
		return nil, &ParseError{Which: which, Format: YAML, Line: n.Line, Column: n.Column, Msg: "the tag !! names no type"}
	}
	if err := checkDecodes(&doc, which); err != nil {
		return nil, err
	}
	return &ydoc{src: s, lines: strings.SplitAfter(s, "\n"), root: doc.Content[0], doc: &doc}, nil
}

// checkDecodes catches what the node parser lets through: keys given twice
// (spelled alike, or spelled differently but read alike: true and True),
// bad aliases and merge keys. yaml.v3's decoder checks the rest, with a
// map or list used as a key ({{PROJECT_ID}}, a template placeholder, reads
// as a map) standing aside: YAML allows it, and only a merge that must
// match keys in its map needs strings (ymerger.merge says so, with the
// line).
func checkDecodes(doc *yaml.Node, which string) error {
	if err := checkKeys(doc, which, map[*yaml.Node]bool{}); err != nil {
		return err
	}
	// The decoder cannot hold a map as a key of a Go map: such keys are
	// swapped for unique strings while it runs, in place (a copy would
	// expand aliases, which the decoder bounds), then put back.
	type swap struct {
		m   *yaml.Node
		i   int
		key *yaml.Node
	}
	var swaps []swap
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
					swaps = append(swaps, swap{n, i, k})
					n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprintf("\x00key %d", len(swaps)), Line: k.Line, Column: k.Column}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
	var v any
	err := doc.Decode(&v)
	for _, sw := range swaps {
		sw.m.Content[sw.i] = sw.key
	}
	if err != nil {
		return yamlError(which, err)
	}
	return nil
}

// checkKeys refuses a map whose keys readers take for one key though they
// are spelled differently (package scalar); yaml.v3's decoder refuses those
// spelled alike.
func checkKeys(n *yaml.Node, which string, seen map[*yaml.Node]bool) error {
	if seen[n] {
		return nil
	}
	seen[n] = true
	if n.Kind == yaml.MappingNode {
		var err error
		scalar.ResolvedDuplicates(n.Content, func(i, j int) {
			if err == nil {
				a, b := n.Content[i], n.Content[j]
				err = &ParseError{Which: which, Format: YAML, Line: b.Line, Column: b.Column,
					Msg: fmt.Sprintf("the keys %q (line %d) and %q are one key to YAML readers, which keep only the last; remove one, or quote both to make them strings", a.Value, a.Line, b.Value)}
			}
		})
		if err != nil {
			return err
		}
	}
	for _, c := range n.Content {
		if err := checkKeys(c, which, seen); err != nil {
			return err
		}
	}
	return nil
}

// emptySecondaryTag returns the first node tagged "!!", if any.
func emptySecondaryTag(n *yaml.Node) *yaml.Node {
	if n.Tag == "!!" {
		return n
	}
	for _, c := range n.Content {
		if t := emptySecondaryTag(c); t != nil {
			return t
		}
	}
	return nil
}

func yamlError(which string, err error) error {
	pe := &ParseError{Which: which, Format: YAML, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if n, e := fmt.Sscanf(pe.Msg, "line %d:", &pe.Line); n == 1 && e == nil {
		pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
	}
	return pe
}

func mergeYAML(base, overlay string, keyed keyedLists) (string, error) {
	return mergeYAMLInto(base, overlay, false, keyed)
}

// mergeYAMLInto merges overlay into base; fresh says the result is the
// overlay alone (no base, or nothing of it survives), written by us, so
// strings a YAML 1.1 reader would misread are quoted even where the
// overlay has them plain. A base's own spellings are otherwise kept.
func mergeYAMLInto(base, overlay string, fresh bool, keyed keyedLists) (string, error) {
	o, err := parseYAML(overlay, "overlay")
	if err != nil {
		return "", err
	}
	patch := expandMerges(o.root)
	if isNull(patch) {
		return "", &ParseError{Which: "overlay", Format: YAML, Msg: "the value is null; a null overlay would delete everything"}
	}
	if strings.TrimSpace(base) == "" {
		if len(keyed) > 0 {
			// the overlay's keyed lists lose their $patch elements
			return mergeYAMLInto("{}", overlay, true, keyed)
		}
		return mergeYAMLInto(overlay, overlay, true, keyed)
	}
	b, err := parseYAML(base, "base")
	if err != nil {
		return "", err
	}
	want, err := referenceMerge(b.doc, o.doc, keyed)
	if err != nil {
		return "", err
	}
	out, ok := "", false
	if !fresh || !hasAmbiguousPlain(o.root) {
		// (a fresh result written by the editor would keep strings such
		// as 12:30 plain)
		if out, ok, err = editYAML(b, patch, overlay, keyed); err != nil {
			return "", err
		}
	}
	if ok {
		if same, err := yamlMeans(out, want); err != nil || !same {
			ok = false
		}
	}
	if !ok {
		// The editor could not write the merge in place: write the
		// merged nodes, which keeps order and comments but not blank
		// lines.
		b, _ = parseYAML(base, "base")
		if out, err = nodeMerge(b, o, keyed); err != nil {
			return "", err
		}
		if same, err := yamlMeans(out, want); err != nil || !same {
			return "", fmt.Errorf("internal error merging YAML (please report): the result does not parse back to the merge")
		}
	}
	// The result ends in one line break when the base does, in none when
	// it does not — unless that would change a block scalar ending the
	// document (`>` keeps its final line break as part of the value): then
	// in one.
	stripped := strings.TrimRight(out, "\n")
	for _, end := range []string{lineBreakOf(base), "\n"} {
		if same, err := yamlMeans(stripped+end, want); err == nil && same {
			out = stripped + end
			break
		}
	}
	return out, nil
}

func lineBreakOf(s string) string {
	if strings.HasSuffix(s, "\n") {
		return "\n"
	}
	return ""
}

// editYAML writes the merge as edits of the base text. It reports false
// when the editor cannot, and an error when no merge can be written (a key
// the merge must match is a map).
func editYAML(b *ydoc, patch *yaml.Node, overlay string, keyed keyedLists) (string, bool, error) {
	if !isMap(patch) {
		// The overlay replaces the whole value: written from its nodes.
		return "", false, nil
	}
	if isMap(b.root) && len(b.root.Content) == 0 && scalarKeys(nil, patch, "overlay") != nil {
		// An empty base map: nothing to match, and nothing of its text to
		// keep; the overlay's keys may be maps ({[]: 1}), which no edit
		// path can name.
		return "", false, nil
	}
	if !isMap(b.root) {
		if len(keyed) > 0 {
			return "", false, nil // written from the merged nodes
		}
		// Nothing of the base survives: the overlay less its nulls.
		out, err := mergeYAMLInto(overlay, overlay, true, keyed)
		return out, err == nil, nil
	}
	m := &ymerger{b: b, keyed: keyed}
	if ok, err := m.merge(nil, nil, b.root, patch); err != nil || !ok {
		return "", false, err
	}
	// Elements removed from keyed lists go first (their lines, in the
	// base), then the batch, then elements appended, one by one (a list
	// gains one element per edit).
	text, ok := m.removeLines()
	if !ok {
		return "", false, nil
	}
	out, err := embedded.Edit(text, embedded.Options{GivenType: true, GivenStyle: true}, m.changes...)
	if err != nil {
		return "", false, nil
	}
	for _, a := range m.appends {
		if out, err = embedded.Edit(out, embedded.Options{GivenType: true, GivenStyle: true}, a); err != nil {
			return "", false, nil
		}
	}
	return out, true, nil
}

// ymerger collects the changes that merge the overlay into the base.
type ymerger struct {
	b       *ydoc
	keyed   keyedLists
	changes []embedded.Change
	// appends add elements to keyed lists, each at the end of its list
	// once the changes before it are made.
	appends []embedded.Change
	// gone are the lines (0-based) of the base that removed elements of
	// keyed lists span.
	gone map[int]bool
}

// merge merges the overlay's map pm at path into the base's map bm. It
// reports false when the editor cannot write a change, and an error for a
// key that is a map or a list: a merge cannot match it.
func (m *ymerger) merge(path fieldpath.Path, steps []jsonpatch.Step, bm, pm *yaml.Node) (bool, error) {
	if err := scalarKeys(path, bm, "base"); err != nil {
		return false, err
	}
	if err := scalarKeys(path, pm, "overlay"); err != nil {
		return false, err
	}
	has := make(map[string]int, len(bm.Content)/2)
	for i := 0; i+1 < len(bm.Content); i += 2 {
		has[keyID(bm.Content[i])] = i
	}
	// Changed values and new keys in the overlay's order, deletions last:
	// new keys copy the layout of the entries still there.
	var deletes []fieldpath.Path
	later := shadowed(pm)
	for i := 0; i+1 < len(pm.Content); i += 2 {
		pk, pv := pm.Content[i], pm.Content[i+1]
		if later[i/2] {
			continue
		}
		bi, found := has[keyID(pk)]
		var subSteps []jsonpatch.Step
		if len(m.keyed) > 0 {
			subSteps = keyStep(steps, pk.Value)
		}
		if !found {
			if !isNull(pv) {
				m.set(appendKey(path, pk.Value), m.keyed.mergeNode(nil, pv, subSteps), true)
			}
			continue
		}
		sub := appendKey(path, bm.Content[bi].Value)
		bv := bm.Content[bi+1]
		keys := m.keyed.at(subSteps)
		switch {
		case isNull(pv):
			deletes = append(deletes, sub)
		case isMap(bv) && isMap(pv) && len(bv.Content) > 0:
			if ok, err := m.merge(sub, subSteps, bv, pv); err != nil || !ok {
				return ok, err
			}
		case keys != nil && pv.Kind == yaml.SequenceNode && bv.Kind == yaml.SequenceNode && len(bv.Content) > 0:
			if ok, err := m.mergeList(sub, subSteps, bv, pv, keys); err != nil || !ok {
				return ok, err
			}
		default:
			nv := m.keyed.mergeNode(copyNode(bv), pv, subSteps)
			if isMap(nv) && len(nv.Content) == 0 && isMap(bv) {
				continue // an empty map gains nothing
			}
			if !nodeEqual(bv, nv) {
				m.set(sub, nv, false)
			}
		}
	}
	for _, sub := range deletes {
		m.changes = append(m.changes, embedded.Change{Path: sub, Delete: true})
	}
	return true, nil
}

// scalarKeys refuses a map, one the merge matches keys in, that has a map
// or a list for a key. YAML allows them ({{PROJECT_ID}}, a template
// placeholder, is a map whose key is a map), and parts of a value the
// overlay does not reach may hold them, but no key of the overlay can be
// matched against one.
func scalarKeys(path fieldpath.Path, m *yaml.Node, which string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
			where := "at the top level"
			if len(path) > 0 {
				where = "in " + path.String()
			}
			kind := "a map"
			if k.Kind == yaml.SequenceNode {
				kind = "a list"
			}
			return &MergeError{fmt.Sprintf("the %s value's key %s at line %d, column %d is %s, not a string ({{NAME}} reads as a map in YAML: quote it to make it a string), and the merge must match keys there",
				which, where, k.Line, k.Column, kind)}
		}
	}
	return nil
}

func (m *ymerger) set(path fieldpath.Path, v *yaml.Node, create bool) {
	m.changes = append(m.changes, embedded.Change{Path: path, Create: create, Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }})
}

// nodeMerge merges on nodes and writes the whole document.
func nodeMerge(b, o *ydoc, keyed keyedLists) (string, error) {
	patch := expandMerges(o.root)
	doc := b.doc
	if root, err := mergekey.Expand(b.root); err == nil {
		// Merged in place, an anchored map would change every map that
		// aliases or merges it (<<), and an inherited value could not be
		// deleted: the base is written expanded.
		b.root = root
	}
	if !isMap(b.root) || !isMap(patch) {
		// Nothing of the base survives: the overlay's document (and its
		// comments), less its null members.
		c := *o.doc
		doc = &c
	}
	doc.Content = []*yaml.Node{keyed.mergeNode(b.root, patch, nil)}
	nullKeys(doc)
	quoteAmbiguous(doc)
	return encodeYAML(doc, detectYAMLStyle(b.root, o.root))
}

// nullKeys spells empty nulls ("key:", "{0}") "null", keys and values
// alike: the encoder would write an empty string.
func nullKeys(n *yaml.Node) {
	if isNull(n) && n.Value == "" {
		n.Value, n.Tag, n.Style = "null", "!!null", 0
	}
	for _, c := range n.Content {
		nullKeys(c)
	}
}

// quoteAmbiguous quotes the plain strings of a document written whole that
// YAML 1.1 readers would take for something else (12:30, on): the project's
// one quoting rule (package scalar).
func quoteAmbiguous(n *yaml.Node) {
	scalar.QuoteIfNeeded(n)
	for _, c := range n.Content {
		quoteAmbiguous(c)
	}
}

// hasAmbiguousPlain reports whether n holds a plain string quoteAmbiguous
// would quote.
func hasAmbiguousPlain(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!str" && scalar.NeedsQuotes(n.Value) {
		return true
	}
	for _, c := range n.Content {
		if hasAmbiguousPlain(c) {
			return true
		}
	}
	return false
}

func isMap(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

type ystyle struct {
	unit    int
	compact bool // sequences in mappings start at the key's column
}

func encodeYAML(n *yaml.Node, st ystyle) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(st.unit)
	if st.compact {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func detectYAMLStyle(roots ...*yaml.Node) ystyle {
	st := ystyle{}
	seqKnown := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			if n.Style&yaml.FlowStyle != 0 {
				return
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Style&yaml.FlowStyle == 0 && v.Line > k.Line {
					if st.unit == 0 && v.Kind == yaml.MappingNode && v.Column > k.Column {
						st.unit = v.Column - k.Column
					}
					if !seqKnown && v.Kind == yaml.SequenceNode {
						st.compact, seqKnown = v.Column == k.Column, true
					}
				}
				walk(v)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	if st.unit == 0 {
		st.unit = 2
	}
	if !seqKnown {
		st.compact = true
	}
	return st
}

// mergeNode is RFC 7386 on nodes, with keyed lists: it merges patch into b
// (in place when both are mappings) and returns the result. Values taken
// from the patch are copies, less their null members and $patch
// directives.
func (l keyedLists) mergeNode(b, patch *yaml.Node, steps []jsonpatch.Step) *yaml.Node {
	if patch.Kind == yaml.SequenceNode {
		if keys := l.at(steps); keys != nil {
			return l.mergeList(b, patch, steps, keys)
		}
	}
	if !isMap(patch) {
		return copyNode(patch)
	}
	if !isMap(b) {
		if len(l) == 0 {
			return stripNulls(patch)
		}
		shell := *patch // the patch's style and comments, its entries merged in
		shell.Content = nil
		b = &shell
	}
	// Of the base's entries with one key (null and ""), readers keep the
	// last: so does the merge.
	if dup := shadowed(b); slices.Contains(dup, true) {
		var kept []*yaml.Node
		for i := 0; i+1 < len(b.Content); i += 2 {
			if !dup[i/2] {
				kept = append(kept, b.Content[i], b.Content[i+1])
			}
		}
		b.Content = kept
	}
	later := shadowed(patch)
	for i := 0; i+1 < len(patch.Content); i += 2 {
		pk, pv := patch.Content[i], patch.Content[i+1]
		if later[i/2] {
			continue
		}
		idx := -1
		for j := 0; j+1 < len(b.Content); j += 2 {
			if keyID(b.Content[j]) == keyID(pk) {
				idx = j
			}
		}
		var sub []jsonpatch.Step
		if len(l) > 0 {
			sub = keyStep(steps, pk.Value)
		}
		switch {
		case idx >= 0 && isNull(pv):
			b.Content = append(b.Content[:idx:idx], b.Content[idx+2:]...)
		case idx >= 0:
			b.Content[idx+1] = l.mergeNode(b.Content[idx+1], pv, sub)
		case !isNull(pv):
			b.Content = append(b.Content, copyNode(pk), l.mergeNode(nil, pv, sub))
		}
	}
	return b
}

// mergeList merges the overlay's list pl into the base's bl by the key
// fields, on nodes (what jsonpatch.MergeValuesKeyed does on values).
func (l keyedLists) mergeList(bl, pl *yaml.Node, steps []jsonpatch.Step, fields []string) *yaml.Node {
	out := copyNode(pl)
	out.Content = nil
	if bl != nil && bl.Kind == yaml.SequenceNode {
		out = copyNode(bl)
	}
	for i, pe := range pl.Content {
		vals, del := elementKeys(pe, fields)
		if del {
			kept := out.Content[:0:0]
			for _, e := range out.Content {
				if !hasKeys(e, fields, vals) {
					kept = append(kept, e)
				}
			}
			out.Content = kept
			continue
		}
		j := slices.IndexFunc(out.Content, func(e *yaml.Node) bool { return hasKeys(e, fields, vals) })
		if j >= 0 {
			out.Content[j] = l.mergeNode(out.Content[j], withoutDirective(pe), elementStep(steps, out.Content[j], i))
		} else {
			out.Content = append(out.Content, l.mergeNode(nil, withoutDirective(pe), elementStep(steps, pe, i)))
		}
	}
	return out
}

// shadowed tells, for each entry of a mapping, whether a later entry has
// the same key (keyID: null, ~ and an empty key are one key). A reader keeps
// the last, as nodeValue does, so the merge skips the others: applied in
// turn, {null, "": {}} would delete a key and then find nothing to merge.
func shadowed(m *yaml.Node) []bool {
	out := make([]bool, len(m.Content)/2)
	last := make(map[string]int, len(out))
	for i := 0; i+1 < len(m.Content); i += 2 {
		id := keyID(m.Content[i])
		if j, ok := last[id]; ok {
			out[j] = true
		}
		last[id] = i / 2
	}
	return out
}

// stripNulls copies n without null mapping values, at any depth of
// mappings (lists are taken as they are).
func stripNulls(n *yaml.Node) *yaml.Node {
	c := copyNode(n)
	var strip func(n *yaml.Node)
	strip = func(n *yaml.Node) {
		if !isMap(n) {
			return
		}
		var kept []*yaml.Node
		later := shadowed(n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !isNull(n.Content[i+1]) && !later[i/2] {
				strip(n.Content[i+1])
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
	}
	strip(c)
	return c
}

// copyNode copies a node deeply, replacing aliases by copies of what they
// point to (an anchor of the overlay means nothing in the base).
func copyNode(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		c := copyNode(n.Alias)
		c.Anchor = ""
		return c
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x)
	}
	return &c
}

// expandMerges returns the overlay root with aliases and merge keys expanded.
func expandMerges(n *yaml.Node) *yaml.Node {
	c, err := mergekey.Expand(n)
	if err != nil {
		// parseYAML decoded the value, which checks merge keys and bounds
		// aliases: not reached
		c = copyNode(n)
	}
	var clear func(n *yaml.Node)
	clear = func(n *yaml.Node) {
		n.Anchor = ""
		if isNull(n) && n.Value == "" {
			// An empty null ("&a" alone, "key:") is written "null", which
			// stays a null wherever it lands, a flow list included.
			n.Value, n.Tag, n.Style = "null", "!!null", 0
		}
		for _, x := range n.Content {
			clear(x)
		}
	}
	clear(c)
	return c
}

// keyID identifies a mapping key as readers do: ~, null and an empty key
// are one key when decoded (yaml.v3 also takes "null" and null for the
// same key); other scalars by what yaml.v3 resolves them to (package
// scalar: 0 and "0", true and True are one key); a map or list used as a
// key by its content.
func keyID(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		var b strings.Builder
		writeKey(&b, k)
		return b.String()
	}
	switch k.Value {
	case "", "~", "null", "Null", "NULL":
		return "!!null"
	}
	return scalar.KeyForms(k)[1]
}

// writeKey writes a key that is a map or a list as text that tells it from
// any other.
func writeKey(b *strings.Builder, n *yaml.Node) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	fmt.Fprintf(b, "(%d %q", n.Kind, n.Value)
	for _, c := range n.Content {
		writeKey(b, c)
	}
	b.WriteByte(')')
}

func nodeEqual(a, b *yaml.Node) bool {
	va, err1 := nodeValue(a)
	vb, err2 := nodeValue(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// nodeValue is what a node means, in the terms of jsonpatch.MergeValues: mappings
// become maps keyed by keyID (the last of equal keys wins; a string key as
// the JSON key yaml.v3 makes of it, so that mergeKeys find their fields),
// sequences slices, scalars their decoded values.
func nodeValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeValue(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("unknown alias %q", n.Value)
		}
		return nodeValue(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		var merged []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if mergekey.Is(n.Content[i]) {
				merged = append(merged, n.Content[i+1])
				continue
			}
			v, err := nodeValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[strings.TrimPrefix(keyID(n.Content[i]), "v3\x00")] = v
		}
		// A merge key (<<) adds the entries of the maps it names that the
		// map does not set itself; of several maps, the first wins.
		for _, mv := range merged {
			v, err := nodeValue(mv)
			if err != nil {
				return nil, err
			}
			maps, ok := v.([]any)
			if !ok {
				maps = []any{v}
			}
			for _, mm := range maps {
				mm, ok := mm.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("line %d: a merge key (<<) takes a map or a list of maps", mv.Line)
				}
				for k, x := range mm {
					if _, set := m[k]; !set {
						m[k] = x
					}
				}
			}
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeValue(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func referenceMerge(base, overlay *yaml.Node, keyed keyedLists) (any, error) {
	b, err := nodeValue(base)
	if err != nil {
		return nil, yamlError("base", err)
	}
	o, err := nodeValue(overlay)
	if err != nil {
		return nil, yamlError("overlay", err)
	}
	want, err := jsonpatch.MergeValuesKeyed(b, o, keyed.fn())
	return want, keyError(err)
}

// yamlMeans tells whether text parses, as Check parses (one document,
// nothing after it), to want.
func yamlMeans(text string, want any) (bool, error) {
	d, err := parseYAML(text, "result")
	if err != nil {
		return false, err
	}
	got, err := nodeValue(d.doc)
	if err != nil {
		return false, err
	}
	return reflect.DeepEqual(got, want), nil
}
