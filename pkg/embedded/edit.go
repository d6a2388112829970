package embedded

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// Setter computes the value to write from the value found at a place (nil
// when the place is being created). It returns a scalar, whose Tag gives its
// type (!!str, !!int, !!float, !!bool, !!null; "" means !!str), or a map or
// list. Returned nodes are read, never kept or modified.
type Setter func(old *yaml.Node) (*yaml.Node, error)

// Options tune Set and Get.
type Options struct {
	// Create adds missing map keys, list elements selected by [key=value]
	// or by the index just past the end, and replaces a null on the way
	// with the maps and lists the rest of the path needs.
	Create bool
	// Where names the place that holds the text, for messages:
	// data.config\.json in "no key "x" in the JSON object at line 1,
	// column 3 of data.config\.json".
	Where fieldpath.Path
	// Cache, if set, keeps parsed documents between calls: a string that
	// several replacements edit in turn is parsed once per version.
	Cache *Cache
	// GivenType makes a scalar written over another take the type of the
	// value given rather than keep the one it replaces (RFC 7386: the
	// overlay replaces): port: 80 set to the string "8080" becomes a
	// quoted string, not the number 8080.
	GivenType bool
	// GivenStyle writes YAML values in the style of the nodes given where
	// the document allows it: a map or list in flow style stays flow
	// ([a, b], {b: 1}) in a block document, and a string keeps its
	// quoting (plain, 'single', "double"). Without it, values take the
	// style of what they replace, and new ones the document's.
	GivenStyle bool
	// Secret keeps values out of messages: the text is, or is held in, a
	// Secret's value. Messages then name the place, never what is there.
	Secret bool
	// Format is the language of the text given: JSON or YAML. Unset, a
	// text held under a key whose name ends in .json (the last segment of
	// Where) is JSON, and an error unless it parses as JSON; any other
	// text is JSON when it starts with { or [ and parses as JSON, and
	// YAML otherwise. Strings nested in the text decide by their own key.
	Format Format
}

// format is the language the text must be in, 0 when the text decides.
func (o Options) format() Format {
	if o.Format != 0 {
		return o.Format
	}
	if namedJSON(o.Where) {
		return JSON
	}
	return 0
}

// namedJSON reports whether the text held at where is JSON by its name:
// the key holding it ends in .json (config.json, dashboard.JSON).
func namedJSON(where fieldpath.Path) bool {
	if len(where) == 0 {
		return false
	}
	last := where[len(where)-1]
	return last.Kind == fieldpath.Field && strings.HasSuffix(strings.ToLower(last.Key), ".json")
}

// nested returns the options for a string nested in the text at where:
// its format is decided by its own key.
func (o Options) nested(where fieldpath.Path) Options {
	o.Where, o.Format = where, 0
	return o
}

// Error is a failure to find or edit a value, and where it happened.
type Error struct {
	// Segment is the index, in the path given, of the segment being
	// resolved when it failed.
	Segment int
	Msg     string
	// Missing: the segment names a map key, or a list element, that is
	// not there and that Options.Create would add.
	Missing bool
	// Near is, for a missing map key, the key there nearest to it (a
	// likely typo), unless the text is secret; or "".
	Near string
	// NamedJSON: the text is valid YAML but not the JSON the name of the
	// key holding it (….json) says it is (Options.Format overrides that).
	NamedJSON bool
}

func (e *Error) Error() string { return e.Msg }

// Get returns the values the path leads to inside the document held in
// text: one for a path without wildcards or list matchers, any number
// otherwise. A string value on the way that holds a document of its own is
// parsed in turn when segments remain. The returned nodes must not be
// modified.
func Get(text string, path fieldpath.Path, opts Options) ([]*yaml.Node, error) {
	return gather(text, path, opts, Get, (*doc).ToYAML)
}

// gather resolves a path in text and collects what leaf makes of each value
// it reaches, continuing with next inside strings that hold documents: the
// one walk behind Get and GetText.
func gather[T any](text string, path fieldpath.Path, opts Options,
	next func(string, fieldpath.Path, Options) ([]T, error), leaf func(*doc, *span.Node) T) ([]T, error) {
	d, err := parseCached(text, opts)
	if err != nil {
		return nil, err
	}
	places, err := d.resolve(d.Root, path, 0, nil, nil, false, false)
	if err != nil {
		return nil, err
	}
	var out []T
	for _, p := range places {
		if p.kind == inString {
			vs, err := next(p.n.Value, path[p.at:], opts.nested(joinPath(opts.Where, path[:p.at])))
			if err != nil {
				return nil, shift(err, p.at)
			}
			out = append(out, vs...)
			continue
		}
		out = append(out, leaf(d, p.n))
	}
	return out, nil
}

// Set writes the value computed by set at every place the path leads to
// inside the document held in text, and returns the new text. Only the
// bytes of the values replaced (or the entries added) change: layout,
// comments, key order and later YAML documents stay as they are. The result
// is parsed again and compared with the original before it is returned, so
// an edit that would disturb anything else is an error instead.
func Set(text string, path fieldpath.Path, opts Options, set Setter) (string, error) {
	return Edit(text, opts, Change{Path: path, Set: set})
}

// parseCached parses text, or takes its parse from the cache. Documents
// are never modified once parsed, so sharing them is safe; only where, used
// in messages, differs between uses.
func parseCached(text string, opts Options) (*doc, error) {
	f := opts.format()
	if d := opts.Cache.get(text); d != nil && d.is(f) {
		dd := *d
		dd.where = opts.Where
		dd.secret = opts.Secret
		return &dd, nil
	}
	d, err := parseFor(text, opts.Where, opts.Secret, f)
	if err != nil {
		if e, ok := err.(*Error); ok && f == JSON && opts.Format == 0 {
			// JSON that does not parse (not a scalar) but would as YAML:
			// the name is what makes it an error
			_, jerr := span.ParseJSON(text)
			_, yerr := span.ParseYAML(text)
			e.NamedJSON = jerr != nil && yerr == nil
		}
		return nil, err
	}
	if opts.Cache.get(text) == nil {
		opts.Cache.put(text, d)
	}
	return d, nil
}

// is reports whether the document was read as format f (0: as the text
// decided, which any document was).
func (d *doc) is(f Format) bool {
	return f == 0 || d.format == f && !d.jsonish
}

// parse reads text as JSON when it starts with { or [ and parses as JSON,
// and as YAML otherwise.
func parse(text string, where fieldpath.Path) (*doc, error) {
	return parseFor(text, where, false, 0)
}

// parseFor is parse for a text whose values messages must not show when
// secret is set, read as format f (0: as parse decides). Errors are
// *Error.
func parseFor(text string, where fieldpath.Path, secret bool, f Format) (*doc, error) {
	var d *doc
	var err error
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Msg: fmt.Sprintf("%s is empty: there is no JSON or YAML document to look into", whereName(where))}
	}
	switch {
	case f == JSON || f == YAML:
		if d, err = parseAs(text, f); err != nil {
			return nil, syntaxMessage(err, f, where, secret)
		}
	case looksLikeJSON(text):
		if d, err = parseAs(text, JSON); err != nil {
			// Not strict JSON; it may still be YAML in flow style
			// ({a: b}), which is worth a try before giving up.
			yd, yerr := parseAs(text, YAML)
			if yerr != nil {
				return nil, syntaxMessage(err, JSON, where, secret)
			}
			d = yd
			d.jsonish = true
		}
	default:
		if d, err = parseAs(text, YAML); err != nil {
			return nil, syntaxMessage(err, YAML, where, secret)
		}
	}
	d.where = where
	d.secret = secret
	if d.Root.Kind == span.Scalar {
		held := "the text " + abbreviate(text)
		if secret {
			held = hidden
		}
		return nil, &Error{Msg: fmt.Sprintf("%s holds %s, not a JSON or YAML map or list", whereName(where), held)}
	}
	return d, nil
}

// syntaxMessage says where a text fails to parse as format f. For a secret
// text the parser's own words stay out: they may quote what is there.
func syntaxMessage(err error, f Format, where fieldpath.Path, secret bool) error {
	se, ok := err.(*span.SyntaxError)
	if !ok {
		return &Error{Msg: err.Error()}
	}
	msg := se.Msg
	if secret {
		msg = "what is there is not shown (the text is secret)"
	}
	line, col := se.Position()
	switch {
	case line == 0:
		return &Error{Msg: fmt.Sprintf("%s does not parse as %s: %s", whereName(where), f, msg)}
	case col == 0:
		return &Error{Msg: fmt.Sprintf("%s does not parse as %s: line %d: %s", whereName(where), f, line, msg)}
	}
	return &Error{Msg: fmt.Sprintf("%s does not parse as %s: line %d, column %d: %s", whereName(where), f, line, col, msg)}
}

func whereName(where fieldpath.Path) string {
	if len(where) == 0 {
		return "the text"
	}
	return "the string at " + where.String()
}

// showValue is how messages show a value: quoted and cut short, or, for a
// secret one, not at all.
func showValue(s string, secret bool) string {
	if secret {
		return hidden
	}
	return abbreviate(s)
}

// hidden stands for a secret value in messages.
const hidden = "a secret value (not shown)"

func abbreviate(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}

func joinPath(a, b fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// shift moves an error found inside a nested string to the segment
// numbering of the enclosing path.
func shift(err error, by int) error {
	if e, ok := err.(*Error); ok {
		return &Error{Segment: e.Segment + by, Msg: e.Msg, Missing: e.Missing, Near: e.Near, NamedJSON: e.NamedJSON}
	}
	return err
}

// of is the suffix naming the holder in messages.
func (d *doc) of() string {
	if len(d.where) == 0 {
		return ""
	}
	return " of " + d.where.String()
}

func (d *doc) errorf(seg int, format string, args ...any) error {
	return &Error{Segment: seg, Msg: fmt.Sprintf(format, args...) + d.of()}
}

type placeKind uint8

const (
	// atNode: the path ends at an existing node, which is replaced.
	atNode placeKind = iota
	// inString: a string holding a document; the path continues inside.
	inString
	// addTo: a key or an element is added to a map or list.
	addTo
	// overNull: a null is replaced by the maps and lists the path needs.
	overNull
)

// place is one spot a path leads to.
type place struct {
	kind placeKind
	n    *span.Node
	addr []int // child positions from the root
	at   int   // next path segment: the one inside the string, or the missing one
	// The map entry or list element that holds n, if any.
	parent *span.Node
	key    *span.Node
}

func (d *doc) resolve(n *span.Node, path fieldpath.Path, i int, addr []int, parent *span.Node, create, edit bool) ([]place, error) {
	here := place{n: n, addr: addr, at: i, parent: parent}
	if parent != nil && parent.Kind == span.Map && len(addr) > 0 {
		here.key = parent.Keys[addr[len(addr)-1]]
	}
	if i == len(path) {
		return []place{here}, nil
	}
	if n.Kind == span.Alias {
		if edit {
			return nil, d.errorf(i, "%s reaches the alias *%s; edit the value at its anchor &%s instead", path[:i], n.Source.Value, n.Source.Value)
		}
		target := d.Anchored(n)
		if target == nil {
			return nil, d.errorf(i, "cannot follow the alias *%s", n.Source.Value)
		}
		n = target
		here.n = n
	}
	seg := path[i]
	d.Open(n)
	if n.Kind == span.Scalar {
		return d.intoScalar(here, path, i, create, edit)
	}
	sel, err := fieldpath.Select(docTree{d, i}, n, seg)
	switch {
	case err != nil:
		return nil, err
	case len(sel.Positions) == 1 && seg.Kind != fieldpath.Wildcard && seg.Kind != fieldpath.Match:
		j := sel.Positions[0]
		return d.resolve(n.Children[j], path, i+1, appendAddr(addr, j), n, create, edit)
	case len(sel.Positions) > 0:
		return d.each(n, path, i, addr, create, edit, sel.Positions)
	case sel.Missing && create && edit:
		here.kind = addTo
		return []place{here}, nil
	case seg.Kind == fieldpath.Wildcard && !sel.Mismatch:
		return d.each(n, path, i, addr, create, edit, nil)
	}
	return nil, d.selectError(n, path, i, sel)
}

// intoScalar resolves a segment at a scalar: a null becomes what the
// segment needs (create), a string holds a document the path goes into.
func (d *doc) intoScalar(here place, path fieldpath.Path, i int, create, edit bool) ([]place, error) {
	n, seg := here.n, path[i]
	if n.Tag == span.NullTag && create && edit && seg.Kind != fieldpath.Wildcard {
		here.kind = overNull
		return []place{here}, nil
	}
	if n.Tag == span.StrTag {
		here.kind = inString
		return []place{here}, nil
	}
	return nil, d.errorf(i, "cannot look for %s in the %s, which holds %s", seg, d.describe(n), showValue(n.Value, d.secret))
}

// selectError says why path[i] leads nowhere in n.
func (d *doc) selectError(n *span.Node, path fieldpath.Path, i int, sel fieldpath.Selection) error {
	seg := path[i]
	switch {
	case n.Kind == span.Map && sel.Missing:
		return &Error{Segment: i, Msg: fmt.Sprintf("no key %q in the %s%s%s", seg.Key, d.describe(n), d.of(), keyList(n)), Missing: true, Near: d.nearKey(n, seg.Key)}
	case n.Kind == span.Map:
		return d.errorf(i, "%s selects list elements, but the %s is a map", seg, d.describe(n))
	case n.Kind == span.Seq && seg.Kind == fieldpath.Index:
		err := d.errorf(i, "index %d is out of range: the %s has %d elements", seg.Index, d.describe(n), len(n.Children))
		err.(*Error).Missing = sel.Missing
		return err
	case n.Kind == span.Seq && sel.Missing:
		err := d.errorf(i, "no element of the %s matches %s", d.describe(n), seg)
		err.(*Error).Missing = true
		return err
	case n.Kind == span.Seq:
		return d.errorf(i, "the %s is a list; %q needs a map (select elements with [name=value], an index or *)", d.describe(n), seg.Key)
	}
	return d.errorf(i, "cannot look for %s in the %s", seg, d.describe(n))
}

// each resolves the rest of the path in several children (wildcards and
// list matchers). Children where the rest does not resolve are skipped, as
// kustomize does; nothing resolving at all is an error.
func (d *doc) each(n *span.Node, path fieldpath.Path, i int, addr []int, create, edit bool, children []int) ([]place, error) {
	if len(children) == 0 {
		return nil, d.errorf(i, "%s matches nothing: the %s is empty", path[i], d.describe(n))
	}
	var out []place
	var first error
	for _, j := range children {
		ps, err := d.resolve(n.Children[j], path, i+1, appendAddr(addr, j), n, create, edit)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		out = append(out, ps...)
	}
	if len(out) == 0 {
		return nil, first
	}
	return out, nil
}

func (d *doc) findKey(n *span.Node, key string, seg int) (int, error) {
	j, err := d.findKeySpelled(n, key, seg)
	if err != nil || j < 0 || n.YAMLInfo == nil || n.Source == nil {
		return j, err
	}
	// A key spelled differently that readers resolve alike (true and
	// True, 80 and 0x50) is the same key: readers keep the last, an edit
	// would change the first (package scalar).
	k := n.Keys[j]
	if k.YAMLInfo == nil || k.Source == nil {
		return j, nil
	}
	other := ""
	c := n.Source.Content
	scalar.ResolvedDuplicates(c, func(a, b int) {
		switch k.Source {
		case c[a]:
			other = c[b].Value
		case c[b]:
			other = c[a].Value
		}
	})
	if other != "" {
		return 0, d.errorf(seg, "key %q appears twice in the %s, spelled %q too (YAML readers take both for one key)", key, d.describe(n), other)
	}
	return j, nil
}

// findKeySpelled is findKey for the key spelled as given: the index of
// the key, -1 when there is none, and an error when it appears twice.
func (d *doc) findKeySpelled(n *span.Node, key string, seg int) (int, error) {
	j, twice := d.Key(n, key)
	if twice {
		return 0, d.errorf(seg, "key %q appears twice in the %s", key, d.describe(n))
	}
	return j, nil
}

// nearKey is the key of map n nearest to key, for Error.Near: "" when none
// is near or the text is secret.
func (d *doc) nearKey(n *span.Node, key string) string {
	if d.secret {
		return ""
	}
	keys := make([]string, 0, len(n.Keys))
	for _, k := range n.Keys {
		if k.Kind == span.Scalar {
			keys = append(keys, k.Value)
		}
	}
	return suggest.Nearest(key, keys)
}

func keyList(n *span.Node) string {
	if len(n.Keys) == 0 {
		return " (it is empty)"
	}
	const most = 8
	var ks []string
	for _, k := range n.Keys {
		if len(ks) == most {
			ks = append(ks, "…")
			break
		}
		ks = append(ks, strconv.Quote(k.Value))
	}
	return " (keys: " + strings.Join(ks, ", ") + ")"
}

func appendAddr(addr []int, i int) []int {
	out := make([]int, len(addr)+1)
	copy(out, addr)
	out[len(addr)] = i
	return out
}

func addrKey(addr []int) string {
	var b strings.Builder
	for _, a := range addr {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(a))
	}
	return b.String()
}

// edit replaces text[start:end] with text.
type edit struct {
	start, end int
	text       string
	// depth is that of the address edited: of two insertions at one
	// offset, the deeper goes first (an entry added to a YAML block map
	// comes after one added to the last value in it).
	depth int
}

func apply(text string, edits []edit) (string, error) {
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if (a.end == a.start) != (b.end == b.start) {
			return a.end == a.start // an insertion before a replacement there
		}
		return a.depth > b.depth
	})
	var b strings.Builder
	b.Grow(len(text) + 64)
	pos := 0
	for _, e := range edits {
		if e.start < pos || e.end < e.start || e.end > len(text) {
			return "", fmt.Errorf("two edits overlap")
		}
		b.WriteString(text[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}

// check is what verify expects to find after an edit at one address: the
// value written there, or the entries the map or list there lost and
// gained.
type check struct {
	want *yaml.Node // as it must read back
	// gone: the indexes of the entries deleted; added: the entries
	// appended, in order.
	gone  map[int]bool
	added []addedCheck
}

// addedCheck is an entry added to a map or list, as it must read back.
type addedCheck struct {
	key  string
	want *yaml.Node
}

// entries reports whether the check is of entries lost and gained rather
// than of a value written.
func (c check) entries() bool { return len(c.gone) > 0 || len(c.added) > 0 }

// looksLikeJSON reports whether text starts (after whitespace) with an object
// or an array, the only documents this package treats as JSON.
func looksLikeJSON(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	return t != "" && (t[0] == '{' || t[0] == '[')
}
