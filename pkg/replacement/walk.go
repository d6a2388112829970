package replacement

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Walking field paths through resources (kyaml nodes). What each segment
// selects is fieldpath.Select's to say, as it is for package embedded, which
// takes over when a path reaches a string with segments left: the string
// holds a document, and the path continues inside it.

// walkError is a failure at one segment of a path.
type walkError struct {
	seg int
	msg string
}

func (e *walkError) Error() string { return e.msg }

func errAt(seg int, format string, args ...any) error {
	return &walkError{seg: seg, msg: fmt.Sprintf(format, args...)}
}

// at names the place reached by path[:i] in messages.
func at(path fieldpath.Path, i int) string {
	if i == 0 {
		return "the top of the resource"
	}
	return path[:i].String()
}

// get returns the values path leads to in a resource. o gives the cache
// of parsed strings, the format of the string the path goes into (if it
// does), and with Secret set, messages do not show the values found.
func get(root *yaml.Node, path fieldpath.Path, o embedded.Options) ([]*yaml.Node, error) {
	one := func(_ *yaml.Node, i int, sel *fieldpath.Selection) error {
		if len(sel.Positions) > 1 {
			return errAt(i, "%d elements of %s match %s; a source must name one value", len(sel.Positions), at(path, i), path[i])
		}
		return nil
	}
	ends, err := fieldpath.Walker[*yaml.Node]{Tree: yamltree.Tree{}, Check: one}.Walk(root, path, 0)
	if err != nil {
		return nil, err
	}
	end := ends[0] // one position at each segment: one end
	n, i := yamltree.Resolve(end.Node), end.At
	switch {
	case !end.Dead:
		return []*yaml.Node{n}, nil
	case n.Kind != yaml.ScalarNode:
		return nil, getError(n, path, i, end.Sel, o.Secret)
	case n.ShortTag() != "!!str":
		return nil, errAt(i, "%s holds %s, which has no %s", at(path, i), yamltree.DescribeSecret(n, o.Secret), path[i])
	}
	// The string holds a document; the path goes on inside it.
	o.Where = path[:i]
	vs, err := embedded.Get(n.Value, path[i:], o)
	if err != nil {
		return nil, withFormatHint(shiftEmbedded(err, i), err)
	}
	return vs, nil
}

// getError says why path[i] selects nothing in the map or list n; with
// secret set, without the values there.
func getError(n *yaml.Node, path fieldpath.Path, i int, sel fieldpath.Selection, secret bool) error {
	seg := path[i]
	switch {
	case n.Kind == yaml.MappingNode && sel.Missing:
		return errAt(i, "no field %q in %s%s%s", seg.Key, at(path, i), keysOf(n), fieldpath.DottedKeyHint[*yaml.Node](yamltree.Tree{}, n, path, i))
	case n.Kind == yaml.MappingNode:
		return errAt(i, "%s is a map; %s selects list elements", at(path, i), seg)
	case n.Kind == yaml.SequenceNode && seg.Kind == fieldpath.Index:
		return errAt(i, "index %d is out of range: %s has %d elements", seg.Index, at(path, i), len(n.Content))
	case n.Kind == yaml.SequenceNode && sel.Missing:
		hint, _ := fieldpath.NoMatch[*yaml.Node](yamltree.Tree{}, n, seg, secret)
		return errAt(i, "no element of %s matches %s%s", at(path, i), seg, hint)
	case n.Kind == yaml.SequenceNode:
		return errAt(i, "%s is a list; %s needs a map (select elements with [name=value] or an index)", at(path, i), seg)
	}
	return errAt(i, "cannot look for %s in %s", seg, at(path, i))
}

// setter writes values at the places a path leads to in a resource.
type setter struct {
	path   fieldpath.Path
	create bool
	format embedded.Format // of the string the path goes into, 0: as it decides
	set    embedded.Setter
	cache  *embedded.Cache
	// secret says the resource, or the value written, is secret; messages
	// must not show values.
	secret bool
	// unanchored records where kustomize's reading of a matcher selects more.
	unanchored []divergence
	// step is told of the strings the setter edits as documents.
	step *entry.Step
}

// apply walks the resource and writes at every place the path leads to.
func (s *setter) apply(root *yaml.Node) error {
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	_, err := s.walk(root, 0)
	if err != nil {
		return s.withUnanchoredHint(err)
	}
	return nil
}

// walk writes at every place path[i:] leads to from n, and returns how
// many. A dead end is where the setter creates what is missing or goes
// into a string; under a wildcard or a list matcher, ends where that fails
// are skipped, as kustomize does, and nothing written at all is the first
// one's error.
func (s *setter) walk(n *yaml.Node, i int) (int, error) {
	ends, err := fieldpath.Walker[*yaml.Node]{Tree: literal{}, Check: s.check}.Walk(n, s.path, i)
	if err != nil {
		return 0, err
	}
	total := 0
	var first error
	for _, e := range ends {
		k, err := s.finish(e)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		total += k
	}
	if total == 0 {
		return 0, first
	}
	return total, nil
}

// check is what the setter adds to each segment's selection in a map or
// list: kpt's and kustomize's annotations are not for it (a wildcard passes
// over them, naming one is an error), and where kustomize's reading of a
// matcher selects more is noted.
func (s *setter) check(n *yaml.Node, i int, sel *fieldpath.Selection) error {
	if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return nil // an alias or a scalar: a dead end, for finish
	}
	seg := s.path[i]
	if s.atAnnotations(i) && (seg.Kind == fieldpath.Field || seg.Kind == fieldpath.Index) && protected(seg.Key) {
		return errAt(i, "the annotation %s belongs to kpt and kustomize; functions must not change it", seg.Key)
	}
	s.recordUnanchored(n, i, sel.Unanchored)
	if s.atAnnotations(i) && seg.Kind == fieldpath.Wildcard && n.Kind == yaml.MappingNode {
		sel.Positions = slices.DeleteFunc(sel.Positions, func(p int) bool { return protected(n.Content[2*p].Value) })
	}
	return nil
}

// finish writes at an end of the walk: the place the path leads to, or a
// dead end the setter goes on from (creating what is missing, into a
// string) or reports.
func (s *setter) finish(e fieldpath.End[*yaml.Node]) (int, error) {
	n, i := e.Node, e.At
	switch {
	case !e.Dead:
		return 1, s.write(n, false)
	case n.Kind == yaml.AliasNode:
		return 0, errAt(i, "%s is an alias (*%s); edit the value at its anchor instead", at(s.path, i), n.Value)
	case n.Kind == yaml.ScalarNode:
		return s.intoScalar(n, i)
	case e.Sel.Missing && s.create:
		return s.add(n, i)
	}
	return 0, s.setError(n, i, e.Sel)
}

// intoScalar goes on from a scalar: a null becomes the map or list the
// segment needs (with create), a string holds a document the path goes
// into.
func (s *setter) intoScalar(n *yaml.Node, i int) (int, error) {
	seg := s.path[i]
	if yamltree.IsNull(n) && s.create && seg.Kind != fieldpath.Wildcard {
		becomeContainer(n, seg)
		return s.walk(n, i)
	}
	if n.ShortTag() != "!!str" {
		return 0, errAt(i, "%s holds %s, which has no %s", at(s.path, i), yamltree.DescribeSecret(n, s.secret), seg)
	}
	s.embeddedUnanchored(n.Value, i)
	out, err := embedded.Set(n.Value, s.path[i:], embedded.Options{Create: s.create, Where: s.path[:i], Cache: s.cache, Secret: s.secret, Format: s.format}, s.set)
	if err != nil {
		return 0, s.embeddedError(err, i)
	}
	n.Value = out
	s.step.Document(n, nil)
	return 1, nil
}

// add creates what path[i] names and n lacks: a map entry, the element at
// the end of a list, or the element [key=value] describes.
func (s *setter) add(n *yaml.Node, i int) (int, error) {
	seg := s.path[i]
	switch {
	case n.Kind == yaml.MappingNode:
		v := s.newNode(i + 1)
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg.Key}, v)
		return s.created(v, i+1)
	case seg.Kind == fieldpath.Index:
		v := s.newNode(i + 1)
		n.Content = append(n.Content, v)
		return s.created(v, i+1)
	}
	el, err := s.newElement(n, i)
	if err != nil {
		return 0, err
	}
	n.Content = append(n.Content, el)
	if i+1 == len(s.path) {
		return 1, s.write(el, true)
	}
	return s.walk(el, i+1)
}

// setError says why path[i] leads nowhere in n.
func (s *setter) setError(n *yaml.Node, i int, sel fieldpath.Selection) error {
	seg := s.path[i]
	switch {
	case n.Kind == yaml.MappingNode && sel.Missing:
		return errAt(i, "no field %q in %s%s%s", seg.Key, at(s.path, i), keysOf(n), createHint(n, s.path, i, s.secret))
	case n.Kind == yaml.MappingNode && seg.Kind == fieldpath.Wildcard:
		return errAt(i, "%s matches nothing: %s is empty", seg, at(s.path, i))
	case n.Kind == yaml.MappingNode:
		return errAt(i, "%s is a map; %s selects list elements", at(s.path, i), seg)
	case n.Kind == yaml.SequenceNode && seg.Kind == fieldpath.Index:
		return errAt(i, "index %d is out of range: %s has %d elements", seg.Index, at(s.path, i), len(n.Content))
	case n.Kind == yaml.SequenceNode && seg.Kind == fieldpath.Wildcard:
		return errAt(i, "%s matches nothing: %s is empty", seg, at(s.path, i))
	case n.Kind == yaml.SequenceNode && sel.Missing:
		return errAt(i, "no element of %s matches %s%s", at(s.path, i), seg, s.noElement(n, i))
	case n.Kind == yaml.SequenceNode:
		return errAt(i, "%s is a list; %s needs a map (select elements with [name=value], an index or *)", at(s.path, i), seg)
	}
	return errAt(i, "cannot look for %s in %s", seg, at(s.path, i))
}

// atAnnotations reports whether path[:i] is metadata.annotations.
func (s *setter) atAnnotations(i int) bool {
	return i == 2 && s.path[0].Key == "metadata" && s.path[1].Key == "annotations"
}

// protected reports whether an annotation is one kpt or kustomize keep
// (file path, index, id): a wildcard passes over them, and naming one is
// an error.
func protected(key string) bool {
	switch key {
	case "config.kubernetes.io/path", "config.kubernetes.io/index", "kustomize.config.k8s.io/id":
		return true
	}
	return strings.HasPrefix(key, "internal.config.kubernetes.io/")
}

// created continues the walk in a node just added: at the end of the path
// it receives the value; otherwise it is the map or list the next segment
// needs.
func (s *setter) created(v *yaml.Node, i int) (int, error) {
	if i == len(s.path) {
		return 1, s.write(v, true)
	}
	return s.walk(v, i)
}

// newNode makes the node added for path[i-1], shaped for path[i].
func (s *setter) newNode(i int) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	if i < len(s.path) {
		becomeContainer(n, s.path[i])
	}
	return n
}

// newElement makes the element [key=value] adds to list: {key: value}, or
// the scalar value for [=value]. The value takes the type the same field has
// in the other elements (a port number stays a number).
func (s *setter) newElement(list *yaml.Node, i int) (*yaml.Node, error) {
	seg := s.path[i]
	tag := "!!str"
	for _, el := range list.Content {
		if sib := yamltree.Lookup(el, seg.Key); el.Kind == yaml.MappingNode && sib != nil {
			if sib.Kind == yaml.ScalarNode && sib.ShortTag() != "!!str" &&
				embedded.KeptTag(sib.ShortTag(), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg.Value}) == sib.ShortTag() {
				tag = sib.ShortTag()
			}
			break
		}
	}
	value := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: seg.Value}
	if seg.Key == "" {
		if i+1 < len(s.path) {
			return nil, errAt(i+1, "cannot go into the scalar element %s creates", seg)
		}
		return value, nil
	}
	if i+1 < len(s.path) && s.path[i+1].Kind != fieldpath.Field {
		return nil, errAt(i+1, "the element %s creates is a map; %s cannot go into it", seg, s.path[i+1])
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg.Key}, value,
	}}, nil
}

// becomeContainer turns a null into the map or list segment seg needs.
func becomeContainer(n *yaml.Node, seg fieldpath.Segment) {
	n.Value = ""
	n.Style = 0
	if seg.Kind == fieldpath.Field {
		n.Kind, n.Tag = yaml.MappingNode, "!!map"
	} else {
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
	}
}

// write replaces n's value with what the setter computes from it.
func (s *setter) write(n *yaml.Node, created bool) error {
	var old *yaml.Node
	if !created {
		old = n
	}
	v, err := s.set(old)
	if err != nil {
		return err
	}
	assign(n, v, created)
	return nil
}

// assign writes v into dst in place, so that the resource keeps dst's
// position, comments and key. A scalar keeps its type when the new text
// reads as one (replicas: 3 stays a number), and its quoting style.
func assign(dst, v *yaml.Node, created bool) {
	v = yamltree.Resolve(v)
	if v.Kind == yaml.ScalarNode {
		oldTag := ""
		if !created && dst.Kind == yaml.ScalarNode {
			oldTag = dst.ShortTag()
		}
		tag := embedded.KeptTag(oldTag, v)
		if dst.Kind != yaml.ScalarNode || created || tag != "!!str" || oldTag != "!!str" {
			// New text of another type, or a string where another type
			// was: plain, and the encoder quotes what needs quoting.
			dst.Style = 0
		}
		dst.Kind, dst.Tag, dst.Value, dst.Content = yaml.ScalarNode, tag, v.Value, nil
		if tag == "!!null" && dst.Value == "" {
			dst.Value = "null"
		}
		scalar.QuoteIfNeeded(dst) // "yes" must not become a boolean for kubectl
		return
	}
	c := deepCopy(v)
	dst.Kind, dst.Tag, dst.Value, dst.Content, dst.Style = c.Kind, c.Tag, "", c.Content, c.Style&yaml.FlowStyle
	if dst.Tag == "" {
		dst.Tag = map[yaml.Kind]string{yaml.MappingNode: "!!map", yaml.SequenceNode: "!!seq"}[c.Kind]
	}
}

// deepCopy copies a value made by rule.value, whose aliases are already
// expanded (within a budget; see smp.CopyExpanded).
func deepCopy(n *yaml.Node) *yaml.Node {
	n = yamltree.Resolve(n)
	c := *n
	c.Anchor = ""
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			c.Content[i] = deepCopy(ch)
		}
	}
	return &c
}

func keysOf(n *yaml.Node) string {
	if len(n.Content) == 0 {
		return " (it is empty)"
	}
	const most = 8
	var ks []string
	for j := 0; j+1 < len(n.Content); j += 2 {
		if len(ks) == most {
			ks = append(ks, "…")
			break
		}
		ks = append(ks, strconv.Quote(n.Content[j].Value))
	}
	return " (keys: " + strings.Join(ks, ", ") + ")"
}

// showValue shows a scalar's text in messages, unless it is secret.
func showValue(v string, secret bool) string {
	if secret {
		return "the secret value (not shown)"
	}
	return strconv.Quote(v)
}

// embeddedError is shiftEmbedded for an error of embedded.Set, telling,
// as for a field missing in the resource itself, that options.create adds
// a missing key or element.
func (s *setter) embeddedError(err error, i int) error {
	var e *embedded.Error
	if s.create || !errors.As(err, &e) || !e.Missing || !s.creatable(i+e.Segment) {
		if s.secret && s.path[0].Key == "data" {
			return shiftEmbedded(err, i) // base64: the caller says so
		}
		return withFormatHint(shiftEmbedded(err, i), err)
	}
	near := e.Near
	err = shiftEmbedded(err, i)
	if w, ok := err.(*walkError); ok {
		w.msg += newFieldHint(near, "key")
	}
	return err
}

// withFormatHint adds to shifted, the walk's form of the embedded error
// orig, what to do when a string is not the JSON its key's name promises
// or options.format says: set options.format: yaml if it is YAML.
func withFormatHint(shifted, orig error) error {
	if w, ok := shifted.(*walkError); ok {
		w.msg += embedded.FormatHint(orig, "options.format")
	}
	return shifted
}

func shiftEmbedded(err error, by int) error {
	var e *embedded.Error
	if errors.As(err, &e) {
		return &walkError{seg: e.Segment + by, msg: e.Msg}
	}
	return err
}
