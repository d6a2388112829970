package generator

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator/hash"
	"github.com/patchwork-krm/patchwork/pkg/generator/kv"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotations.
const (
	// GeneratedFrom marks a resource this function named; its value is
	// the generator's name (the resource's name before the hash suffix).
	GeneratedFrom = "fn.patchwork.dev/generated-from"

	// kustomize's hints on a generator function's output.
	kustomizeNeedsHash = "kustomize.config.k8s.io/needs-hash"
	kustomizeBehavior  = "kustomize.config.k8s.io/behavior"
	// kustomize's mark on resources its own generators made and that it
	// will hash at the end of the build.
	kustomizeWillHash = "internal.config.kubernetes.io/needsHashSuffix"
	localConfig       = "config.kubernetes.io/local-config"
)

// Function is the merge-values-generator function.
var Function = fnrun.Function{
	Name:    fnkinds.MergeValuesGenerator.Name,
	Short:   "kustomize's configMapGenerator and secretGenerator, with mergeValues to deep-merge JSON/YAML values",
	Kinds:   fnkinds.MergeValuesGenerator.Kinds,
	TakenBy: fnkinds.TakenBy(),
	Run:     transform,
}

// transform is the function.
func transform(req *fnrun.Request) error {
	knowSecretLiterals(req)
	es, err := entries(req.Config)
	if err != nil {
		return err
	}
	// As a kustomize generator, our config comes back as an item; it is
	// local-config, and kustomize drops it from the build.
	r := &run{req: req, kustomizeGenerator: isKustomizeGenerator(req), claimed: claimedNamespaces(es)}
	if errs := duplicateCreates(es); len(errs) > 0 {
		return errs
	}
	var errs framework.Results
	for _, e := range es {
		r.done = ""
		if res := r.one(e); res != nil {
			errs = append(errs, res)
		} else if r.done != "" {
			req.Summarize(e.where, "%s", r.done)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// duplicateCreates refuses two create entries for one kind, namespace and
// name: the second would silently regenerate over the first, whose data
// would be lost. kustomize refuses them too.
func duplicateCreates(es []entry) framework.Results {
	first := map[idKey]entry{}
	var errs framework.Results
	for _, e := range es {
		if e.args.Behavior != "" && e.args.Behavior != "create" || e.args.Name == "" {
			continue
		}
		k := idKey{e.kind, normNS(e.args.Namespace), e.args.Name}
		if f, dup := first[k]; dup {
			errs = append(errs, fnrun.Errorf(e.where, nil, "name",
				"%s is created by %s already; two create entries would overwrite each other (give one behavior merge or replace, or another name)",
				describeID(e), f.where))
			continue
		}
		first[k] = e
	}
	return errs
}

// isKustomizeGenerator tells whether kustomize runs us from a
// kustomization's generators: it then passes nothing but a copy of the
// config, marked local-config, read from no file (a kpt package's config
// file has a path).
func isKustomizeGenerator(req *fnrun.Request) bool {
	if len(req.Items) == 0 {
		return false
	}
	for _, it := range req.Items {
		a := it.GetAnnotations()
		if it.GetApiVersion() != req.Config.GetApiVersion() || it.GetKind() != req.Config.GetKind() ||
			it.GetName() != req.Config.GetName() || a[localConfig] != "true" ||
			a["internal.config.kubernetes.io/path"] != "" || a["config.kubernetes.io/path"] != "" {
			return false
		}
	}
	return true
}

type run struct {
	req                *fnrun.Request
	kustomizeGenerator bool
	refs               *namerefs.Index
	items              *itemIndex // built on first use
	// claimed holds, by kind and name, the namespaces generators of this
	// config name: what was generated there is theirs, not that of a
	// generator of the same name without a namespace.
	claimed map[genKey]map[string]bool
	// done says what the current entry made, for its summary line.
	done string
}

func claimedNamespaces(es []entry) map[genKey]map[string]bool {
	m := map[genKey]map[string]bool{}
	for _, e := range es {
		if e.args.Namespace == "" {
			continue
		}
		k := genKey{e.kind, e.args.Name}
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][normNS(e.args.Namespace)] = true
	}
	return m
}

// one runs one generator; it returns an error result or nil.
func (r *run) one(e entry) *framework.Result {
	a := e.args
	if a.Name == "" {
		return fnrun.Errorf(e.where, nil, "name", "a generator needs a name")
	}
	behavior := a.Behavior
	if behavior == "" {
		behavior = "create"
	}
	if behavior != "create" && behavior != "merge" && behavior != "replace" {
		return fnrun.Errorf(e.where, nil, "behavior", "unknown behavior %q; give create, merge or replace", a.Behavior)
	}
	if e.kind == "ConfigMap" && a.Type != "" {
		return fnrun.Errorf(e.where, nil, "type", "type is for secretGenerator entries, not ConfigMaps")
	}
	formats, res := checkMergeValues(e, behavior)
	if res != nil {
		return res
	}
	pairs, res := r.load(e, formats)
	if res != nil {
		return res
	}

	if r.kustomizeGenerator {
		return r.forKustomize(e, behavior, pairs, formats)
	}
	switch behavior {
	case "create":
		return r.create(e, pairs)
	default:
		return r.update(e, behavior, pairs, formats)
	}
}

// valueRules are a generator's mergeValues by key: how each value merges.
type valueRules map[string]valueRule

type valueRule struct {
	format valuemerge.Format
	keyed  []schema.ListKeys
}

// checkMergeValues validates the mergeValues list.
func checkMergeValues(e entry, behavior string) (valueRules, *framework.Result) {
	rules := valueRules{}
	for i, mv := range e.args.MergeValues {
		where := fmt.Sprintf("%s.mergeValues[%d]", e.where, i)
		if behavior != "merge" {
			return nil, fnrun.Errorf(where, nil, "", "mergeValues needs behavior: merge (this generator's behavior is %s)", behavior)
		}
		if mv.Key == "" {
			return nil, fnrun.Errorf(where, nil, "key", "missing key")
		}
		f, err := valuemerge.ParseFormat(mv.Format)
		if err != nil {
			return nil, fnrun.Errorf(where, nil, "format", "key %q: %v", mv.Key, err)
		}
		if _, dup := rules[mv.Key]; dup {
			return nil, fnrun.Errorf(where, nil, "key", "key %q is listed twice", mv.Key)
		}
		keyed, res := checkMergeKeys(where, mv, f)
		if res != nil {
			return nil, res
		}
		rules[mv.Key] = valueRule{format: f, keyed: keyed}
	}
	return rules, nil
}

// checkMergeKeys compiles a mergeValues entry's mergeKeys.
func checkMergeKeys(where string, mv MergeValue, f valuemerge.Format) ([]schema.ListKeys, *framework.Result) {
	if len(mv.MergeKeys) > 0 && !f.HasLists() {
		return nil, fnrun.Errorf(where, nil, "mergeKeys", "key %q: mergeKeys apply to json and yaml values, not %s", mv.Key, f)
	}
	var out []schema.ListKeys
	for j, mk := range mv.MergeKeys {
		field := fmt.Sprintf("mergeKeys[%d]", j)
		if mk.Path == "" {
			return nil, fnrun.Errorf(where, nil, field+".path", "missing path (the field path of the lists to merge by key, such as scrape_configs)")
		}
		p, err := fieldpath.Parse(mk.Path)
		if err != nil {
			return nil, fnrun.Errorf(where, nil, field+".path", "%v", err)
		}
		if len(mk.Keys) == 0 {
			return nil, fnrun.Errorf(where, nil, field+".keys", "missing keys (the fields that identify an element, such as [name])")
		}
		for _, k := range mk.Keys {
			if k == "" {
				return nil, fnrun.Errorf(where, nil, field+".keys", "an empty key")
			}
		}
		l := schema.ListKeys{Path: p, Keys: mk.Keys}
		if _, err := (*schema.Type)(nil).WithListKeys(l.Path, l.Keys); err != nil {
			return nil, fnrun.Errorf(where, nil, field+".path", "%v", err)
		}
		out = append(out, l)
	}
	return out, nil
}

// load reads the generator's pairs and checks the overlay values of
// mergeValues keys parse.
func (r *run) load(e entry, formats valueRules) ([]kv.Pair, *framework.Result) {
	a := e.args
	src := kv.Sources{Envs: a.Envs, Files: a.Files}
	if a.Env != "" {
		src.Envs = append(append([]string{}, a.Envs...), a.Env)
	}
	for i, l := range a.Literals {
		where := fmt.Sprintf("literals[%d]", i)
		key, value := l.Key, l.Value
		if l.IsRaw {
			var err error
			if key, value, err = kv.ParseLiteral(l.Raw); err != nil {
				return nil, fnrun.Errorf(e.where, nil, where, "%v", err)
			}
		}
		src.Literals = append(src.Literals, kv.Pair{Key: key, Value: value, Source: where})
	}
	read := r.req.Files().ReadFile
	if e.kind == "Secret" {
		read = secretReader(r.req)
	}
	pairs, err := kv.Load(src, read)
	if err != nil {
		return nil, fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	have := map[string]kv.Pair{}
	for _, p := range pairs {
		have[p.Key] = p
	}
	for i, mv := range a.MergeValues {
		where := fmt.Sprintf("%s.mergeValues[%d]", e.where, i)
		p, ok := have[mv.Key]
		if !ok {
			return nil, fnrun.Errorf(where, nil, "", "key %q is not among the generator's literals, files or envs", mv.Key)
		}
		if err := valuemerge.Check(formats[mv.Key].format, p.Value, "overlay"); err != nil {
			return nil, fnrun.Errorf(where, nil, "", "key %q (from %s): %v", mv.Key, p.Source, err)
		}
	}
	return pairs, nil
}

// forKustomize writes the generated resource with kustomize's hints, for a
// kustomization's generators: kustomize hashes it and merges or replaces it
// into the base's resource itself.
func (r *run) forKustomize(e entry, behavior string, pairs []kv.Pair, formats valueRules) *framework.Result {
	if len(formats) > 0 {
		return fnrun.Errorf(e.where+".mergeValues[0]", nil, "",
			"under kustomize, a generator sees only its own config, not the resource to merge into: list this config under the kustomization's transformers:, not generators:")
	}
	res, err := build(e, pairs)
	if err != nil {
		return fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	ann := map[string]string{kustomizeBehavior: behavior}
	if !e.opts.DisableNameSuffixHash {
		ann[kustomizeNeedsHash] = "true"
	}
	for _, k := range sortedKeys(ann) {
		if err := setMetaKey(res, "annotations", k, ann[k]); err != nil {
			return fnrun.Errorf(e.where, res, "", "%v", err)
		}
	}
	r.req.Items = append(r.req.Items, res)
	r.done = "generated " + fnrun.Describe(res) + " for kustomize (" + behavior + ")"
	return nil
}

// create adds the generated resource. One an earlier run made is
// regenerated in its place, in its namespace when the generator names none
// (a later pipeline step may have set it).
func (r *run) create(e entry, pairs []kv.Pair) *framework.Result {
	res, err := build(e, pairs)
	if err != nil {
		return fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	idx, ours, err := r.find(e, false)
	if err != nil {
		return fnrun.Errorf(e.where, nil, "", "behavior create: %v", err)
	}
	if idx >= 0 && !ours {
		return fnrun.Errorf(e.where, r.req.Items[idx], "", "behavior create: the resource already exists; use behavior merge or replace to change it")
	}
	if err := setMetaKey(res, "annotations", GeneratedFrom, e.args.Name); err != nil {
		return fnrun.Errorf(e.where, res, "", "%v", err)
	}
	oldName, verb := e.args.Name, "created"
	if idx >= 0 {
		verb = "regenerated (an earlier run's output)"
		old := r.req.Items[idx]
		oldName = old.GetName()
		if ns := old.GetNamespace(); e.args.Namespace == "" && ns != "" {
			// Appended after the other metadata, where kpt's
			// set-namespace and a JSON patch add put it.
			if err := res.SetNamespace(ns); err != nil {
				return fnrun.Errorf(e.where, res, "metadata.namespace", "%v", err)
			}
		}
		keepToolAnnotations(old, res)
		r.forget(idx)
		r.req.Items[idx] = res
	} else {
		r.req.Items = append(r.req.Items, res)
		idx = len(r.req.Items) - 1 // a ConfigMap or Secret refers to nothing: refs needs no update
	}
	defer r.remember(idx)
	defer func() { r.done = verb + " " + fnrun.Describe(res) }()
	return r.name(e, res, e.args.Name, oldName)
}

// update merges or replaces into the existing resource.
func (r *run) update(e entry, behavior string, pairs []kv.Pair, formats valueRules) *framework.Result {
	idx, ours, err := r.find(e, true)
	if err != nil {
		return fnrun.Errorf(e.where, nil, "", "behavior %s: %v", behavior, err)
	}
	if idx < 0 {
		return fnrun.Errorf(e.where, nil, "", "%s", r.notFound(e, behavior))
	}
	res := r.req.Items[idx]
	oldName := res.GetName()
	r.forget(idx)
	defer r.remember(idx)
	before := fnrun.Fingerprint(res)
	defer func() {
		r.done = map[string]string{"merge": "merged into ", "replace": "replaced the data of "}[behavior] + fnrun.Describe(res)
		if !fnrun.Changed(before, res) {
			r.done += " (no change)"
		}
	}()
	if behavior == "merge" {
		err = merge(e, res, pairs, formats)
	} else {
		err = replace(e, res, pairs)
	}
	if err != nil {
		var re resultError
		if errors.As(err, &re) {
			return re.r
		}
		return fnrun.Errorf(e.where, res, "", "%v", err)
	}
	if res.GetAnnotations()[kustomizeWillHash] != "" {
		// A kustomize transformer run on a base's generated resource:
		// kustomize hashes it at the end of the build and fixes the
		// references itself.
		return nil
	}
	if res.GetName() != e.args.Name || !e.opts.DisableNameSuffixHash {
		if err := setMetaKey(res, "annotations", GeneratedFrom, e.args.Name); err != nil {
			return fnrun.Errorf(e.where, res, "", "%v", err)
		}
	}
	base := e.args.Name
	if !named(oldName, base) {
		// Found by an earlier name (kustomize renamed it earlier in the
		// build, namePrefix say): the hash goes after its current name,
		// less the hash an earlier run of ours put there.
		base = oldName
		if n := len(oldName) - hash.Len - 1; ours && n > 0 && oldName[n] == '-' && hash.IsSuffix(oldName[n+1:]) {
			base = oldName[:n]
		}
	}
	return r.name(e, res, base, oldName)
}

// named reports whether name is base or base-<hash suffix>.
func named(name, base string) bool {
	if name == base {
		return true
	}
	n := len(name) - hash.Len - 1
	return n == len(base) && strings.HasPrefix(name, base+"-") && hash.IsSuffix(name[n+1:])
}

// name gives res its final name, base plus the hash of its content unless
// hashing is off, and makes the references to oldName follow.
func (r *run) name(e entry, res *yaml.RNode, base, oldName string) *framework.Result {
	newName := base
	if !e.opts.DisableNameSuffixHash {
		s, err := hash.Suffix(res)
		if err != nil {
			return fnrun.Errorf(e.where, res, "", "%v", err)
		}
		newName = base + "-" + s
	}
	if newName == oldName && res.GetName() == newName {
		return nil
	}
	if cur := res.GetName(); cur != newName {
		// In a kustomize build, later steps find it by the name it had.
		if err := selector.RecordEarlierID(res, selector.ID{Kind: e.kind, Name: cur, Namespace: res.GetNamespace()}); err != nil {
			return fnrun.Errorf(e.where, res, "metadata.annotations", "%v", err)
		}
	}
	if err := res.SetName(newName); err != nil {
		return fnrun.Errorf(e.where, res, "metadata.name", "%v", err)
	}
	if r.refs == nil {
		r.refs = namerefs.NewIndex(r.req.Items)
	}
	// The resource's own namespace, which a later pipeline step may have
	// set on what an earlier run generated without one.
	ns := res.GetNamespace()
	r.refs.Rename(namerefs.Target{Kind: e.kind, Namespace: ns, Old: oldName, New: newName})
	if oldName != base {
		// References may still use the generator's own name (a resource
		// added to the package after the first run).
		r.refs.Rename(namerefs.Target{Kind: e.kind, Namespace: ns, Old: base, New: newName})
	}
	return nil
}

func describeID(e entry) string {
	name := e.args.Name
	if e.args.Namespace != "" {
		name = e.args.Namespace + "/" + name
	}
	return "v1 " + e.kind + " " + name
}

// find locates the resource a generator acts on. It returns its index (-1
// when there is none) and whether an earlier run generated it, or an error
// when several resources could be the one.
//
// A resource an earlier run generated carries our annotation. It is looked
// for in the generator's namespace or, when the generator names none, in
// any namespace but those another generator of this config names, since a
// later pipeline step (set-namespace) may have moved it there; copies in
// several namespaces are an error. Other resources are
// found by kind, namespace and name as kustomize finds them: the one with
// the generator's name or, for merge and replace (hashed), one kustomize
// generated and hashed (name-<suffix> where the suffix is the hash of its
// content).
func (r *run) find(e entry, hashed bool) (int, bool, error) {
	x := r.index()
	name := e.args.Name
	k := idKey{e.kind, normNS(e.args.Namespace), name}
	var ours []int
	for _, i := range x.byGen[genKey{e.kind, name}] {
		ns := normNS(r.req.Items[i].GetNamespace())
		if ns == k.ns || e.args.Namespace == "" && !r.claimed[genKey{e.kind, name}][ns] {
			ours = append(ours, i)
		}
	}
	if err := r.oneNamespace(e, ours); err != nil {
		return -1, false, err
	}
	var others []int // not ours
	for _, i := range x.byName[k] {
		if r.req.Items[i].GetAnnotations()[GeneratedFrom] != name {
			others = append(others, i)
		}
	}
	if hashed && len(others) == 0 {
		for _, i := range x.byBase[k] {
			n := r.req.Items[i].GetName()
			// A guarded resource (local-config, say) is found by its
			// exact name only, never by a name that merely looks hashed.
			if selector.Describe(r.req.Items[i]).Guarded {
				continue
			}
			if s, err := hash.Suffix(r.req.Items[i]); err == nil && s == n[len(n)-hash.Len:] && r.req.Items[i].GetAnnotations()[GeneratedFrom] == "" {
				others = append(others, i)
			}
		}
	}
	switch {
	case len(ours)+len(others) > 1:
		return -1, false, fmt.Errorf("%s could be any of %s; remove the stale ones", describeID(e), r.describeAll(ours, others))
	case len(ours) == 1:
		return ours[0], true, nil
	case len(others) == 1:
		return others[0], false, nil
	}
	return -1, false, nil
}

// oneNamespace checks that the resources an earlier run generated for a
// generator without a namespace are all in one namespace.
func (r *run) oneNamespace(e entry, ours []int) error {
	seen := map[string]bool{}
	var where []string
	for _, i := range ours {
		it := r.req.Items[i]
		ns := normNS(it.GetNamespace())
		if !seen[ns] {
			seen[ns] = true
			where = append(where, ns+" ("+it.GetName()+")")
		}
	}
	if len(where) < 2 {
		return nil
	}
	sort.Strings(where)
	return fmt.Errorf("%s: %ss an earlier run generated from %q are in several namespaces: %s; set namespace: on the generator to say which one it makes",
		describeID(e), e.kind, e.args.Name, strings.Join(where, ", "))
}

// describeAll names the candidates of an ambiguous find.
func (r *run) describeAll(ours, others []int) string {
	var names []string
	for _, i := range others {
		names = append(names, fnrun.Describe(r.req.Items[i]))
	}
	for _, i := range ours {
		names = append(names, fnrun.Describe(r.req.Items[i])+" (generated by an earlier run)")
	}
	return strings.Join(names, ", ")
}

type idKey struct{ kind, ns, name string }

// genKey is a kind and the generator name in our annotation; the
// namespace is left out, so that a generator without one finds what it
// made wherever a later step put it.
type genKey struct{ kind, name string }

// itemIndex finds ConfigMaps and Secrets without scanning the items for
// each generator: by name, by our generated-from annotation, and by name
// less something that looks like a hash suffix.
type itemIndex struct {
	byName, byBase map[idKey][]int
	byGen          map[genKey][]int
}

func (r *run) index() *itemIndex {
	if r.items == nil {
		r.items = &itemIndex{byName: map[idKey][]int{}, byGen: map[genKey][]int{}, byBase: map[idKey][]int{}}
		for i := range r.req.Items {
			r.remember(i)
		}
	}
	return r.items
}

// remember indexes item i as it is now; forget removes it.
func (r *run) remember(i int) { r.indexItem(i, true) }
func (r *run) forget(i int)   { r.indexItem(i, false) }

func (r *run) indexItem(i int, add bool) {
	if r.items == nil {
		return
	}
	it := r.req.Items[i]
	kind := it.GetKind()
	if (kind != "ConfigMap" && kind != "Secret") || it.GetApiVersion() != "v1" {
		return
	}
	ns, name := normNS(it.GetNamespace()), it.GetName()
	put(r.items.byName, idKey{kind, ns, name}, i, add)
	// A merge or replace finds a resource kustomize renamed earlier in the
	// build (namePrefix, namespace) by the name it had, as kustomize does.
	for _, id := range selector.Describe(it).Earlier {
		if id.Kind == kind {
			put(r.items.byName, idKey{kind, normNS(id.Namespace), id.Name}, i, add)
		}
	}
	if g := it.GetAnnotations()[GeneratedFrom]; g != "" {
		put(r.items.byGen, genKey{kind, g}, i, add)
	}
	if n := len(name) - hash.Len - 1; n > 0 && name[n] == '-' && hash.IsSuffix(name[n+1:]) {
		put(r.items.byBase, idKey{kind, ns, name[:n]}, i, add)
	}
}

// put adds item i to m's list for k (add) or removes it.
func put[K comparable](m map[K][]int, k K, i int, add bool) {
	list := m[k][:0:0]
	for _, j := range m[k] {
		if j != i {
			list = append(list, j)
		}
	}
	if add {
		list = append(list, i)
	}
	if len(list) == 0 {
		delete(m, k)
	} else {
		m[k] = list
	}
}

func normNS(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// keepToolAnnotations copies kpt's and kustomize's bookkeeping annotations
// (file path, index, ids) from the resource being regenerated.
func keepToolAnnotations(from, to *yaml.RNode) {
	for _, k := range sortedKeys(from.GetAnnotations()) {
		if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") ||
			strings.HasPrefix(k, "kustomize.config.k8s.io/") || k == "config.k8s.io/id" {
			_ = setMetaKey(to, "annotations", k, from.GetAnnotations()[k])
		}
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// encodeBase64 writes base64 as kustomize does in generated Secrets and
// binaryData: lines of 70 characters, each ending in a newline once there
// is more than one line. (The hash depends on it.)
func encodeBase64(s string) string {
	const width = 70
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	if len(enc) < width {
		return enc
	}
	var b strings.Builder
	for i := 0; i < len(enc); i += width {
		b.WriteString(enc[i:min(i+width, len(enc))])
		b.WriteByte('\n')
	}
	return b.String()
}

// valueNode is a data value as kustomize writes it: a string, in literal
// block style when it has several lines.
func valueNode(s string) *yaml.RNode {
	n := stringNode(s)
	if strings.Contains(s, "\n") {
		n.YNode().Style = yaml.LiteralStyle
	}
	return n
}

// stringNode is a string scalar, double-quoted where a YAML 1.1 reader
// (kubectl, the API server, PyYAML) would take it for something else
// ("yes", "12:30:45").
func stringNode(s string) *yaml.RNode {
	n := yaml.NewStringRNode(s)
	scalar.QuoteIfNeeded(n.YNode())
	return n
}

// isText tells whether a value can go in a ConfigMap's data.
func isText(s string) bool { return utf8.ValidString(s) }
