package entry

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
	"github.com/patchwork-krm/patchwork/pkg/validate"
)

// Watch looks at what a run's entries change, for a config's explain: and
// validate: (Checks). Every transform calls it where an entry applies to
// a resource: Before copies the resource (treediff.Snapshot), and the
// Step's Done compares it with what the entry left (treediff.Diff), says
// what changed, field by field (explain: true), and checks what changed
// against the resource's schema (validate:, package validate). With
// explain off and validate: off nothing is copied. A nil *Watch, and a
// nil *Step, watch nothing. Steps are taken one after the other: a Step
// is done, or left, before the next Before or Created (its copy is the
// next one's).
type Watch struct {
	Req    *fnrun.Request
	Checks Checks
	// Schema gives the run's schema (the built-in kinds, the CRDs among
	// the items, schemas: files), called once, when first needed.
	Schema func() *schema.Schema
	// Errs receives the findings under validate: error.
	Errs *framework.Results

	schema *schema.Schema
	// seen counts, by entry, field and message, the resources a finding
	// was reported for: past a few, the rest are one line (Finish).
	seen  map[string]*repeated
	order []string
	// copy is the resource before the current step, its memory reused
	// from one step to the next.
	copy treediff.Copy
}

// repeated is a finding met in several resources.
type repeated struct {
	entry, field, msg string
	n                 int
}

// mostRepeated is how many resources one finding is reported for, one
// result each, before the rest are counted.
const mostRepeated = 5

// Before starts watching what entry does to res; nil when nothing is
// watched.
func (w *Watch) Before(entry string, res *yaml.RNode) *Step {
	if w == nil || !w.Checks.watching() || res == nil {
		return nil
	}
	if err := w.copy.Take(res.YNode()); err != nil {
		w.Req.Results = append(w.Req.Results, fnrun.Warningf(entry, res, "", "%v: what the entry changes is neither explained nor validated", err))
		return nil
	}
	return &Step{w: w, entry: entry, res: res, before: &w.copy, secret: res.GetKind() == "Secret"}
}

// Created starts watching a resource entry makes (a generator's): Done
// says it was created, and checks it whole.
func (w *Watch) Created(entry string) *Step {
	if w == nil || !w.Checks.watching() {
		return nil
	}
	_ = w.copy.Take(nil)
	return &Step{w: w, entry: entry, before: &w.copy}
}

// Finish reports the findings met in more resources than were named one
// by one.
func (w *Watch) Finish() {
	if w == nil {
		return
	}
	for _, key := range w.order {
		r := w.seen[key]
		if r.n <= mostRepeated {
			continue
		}
		more := fnrun.Plural(r.n-mostRepeated, "more resource")
		w.finding(r.entry, nil, r.field, fmt.Sprintf("%s (in %s)", r.msg, more))
	}
}

// rules is the run's schema, got once.
func (w *Watch) rules() *schema.Schema {
	if w.schema == nil {
		w.schema = schema.Builtin()
		if w.Schema != nil {
			w.schema = w.Schema()
		}
	}
	return w.schema
}

// report records a validation finding: a warning, or under validate:
// error an error; one result per resource for the first few resources a
// finding is met in.
func (w *Watch) report(entry string, res *yaml.RNode, f validate.Finding) {
	key := entry + "\x00" + f.Where + "\x00" + f.String()
	r := w.seen[key]
	if r == nil {
		if w.seen == nil {
			w.seen = map[string]*repeated{}
		}
		r = &repeated{entry: entry, field: f.Where, msg: f.String()}
		w.seen[key] = r
		w.order = append(w.order, key)
	}
	if r.n++; r.n <= mostRepeated {
		w.finding(entry, res, f.Where, f.String())
	}
}

// finding records one result of a finding, as an error under validate:
// error.
func (w *Watch) finding(entry string, res *yaml.RNode, field, msg string) {
	if w.Checks.Validate == "error" {
		*w.Errs = append(*w.Errs, fnrun.Errorf(entry, res, field, "%s", msg))
		return
	}
	w.Req.Results = append(w.Req.Results, fnrun.Warningf(entry, res, field, "%s", msg))
}

// Mark is a resource as it was before an entry, kept to tell whether the
// entry changed it (style and comments included, as fnrun.Changed).
type Mark struct {
	step  *Step
	print uint64
}

// Mark remembers res, the resource the step watches, before the entry:
// by the step's copy when it took one (compared, not walked again), else
// by res's fingerprint.
func (s *Step) Mark(res *yaml.RNode) Mark {
	if s != nil {
		return Mark{step: s}
	}
	return Mark{print: fnrun.Fingerprint(res)}
}

// Changed reports whether res differs from the resource marked.
func (m Mark) Changed(res *yaml.RNode) bool {
	if m.step != nil {
		return !fnrun.Same(m.step.before.Root(), res.YNode())
	}
	return fnrun.Changed(m.print, res)
}

// Step is one entry applied to one resource, watched.
type Step struct {
	w      *Watch
	entry  string
	res    *yaml.RNode
	before *treediff.Copy
	// docs are the strings of the resource the entry edited as JSON or
	// YAML documents, compared inside, with their schemas (nil: none).
	docs        map[*yaml.Node]*schema.Type
	secret      bool
	skipUnknown bool
}

// Document says the entry edits n, a string of the resource, as a JSON or
// YAML document whose schema is t (nil: none; its merge keys align list
// elements): what changes inside it is told by its path there.
func (s *Step) Document(n *yaml.Node, t *schema.Type) {
	if s == nil {
		return
	}
	if s.docs == nil {
		s.docs = map[*yaml.Node]*schema.Type{}
	}
	s.docs[n] = t
}

// outsideDocuments drops from changes those of the strings the entry
// edited as documents: validate checks nothing in them, whether the
// difference was read inside them (explain: true) or not.
func (s *Step) outsideDocuments(changes []treediff.Change) []treediff.Change {
	if len(s.docs) == 0 {
		return changes
	}
	out := changes[:0]
	for _, ch := range changes {
		if _, doc := s.docs[ch.New]; !doc || ch.Op != treediff.Changed {
			out = append(out, ch)
		}
	}
	return out
}

// Secret says the resource holds a secret value (one copied from a
// Secret): no value of it is told.
func (s *Step) Secret() {
	if s != nil {
		s.secret = true
	}
}

// FieldsChecked says the entry's patch was checked for fields the schema
// does not know already (its typos were reported): not again.
func (s *Step) FieldsChecked() {
	if s != nil {
		s.skipUnknown = true
	}
}

// Done compares the resource with what it was, and says and checks what
// changed.
func (s *Step) Done() {
	if s != nil {
		s.DoneAs(s.res)
	}
}

// DoneAs is Done for a resource that is now res (the generator puts a new
// resource in the place of the old); nil: it was deleted.
func (s *Step) DoneAs(res *yaml.RNode) {
	if s == nil {
		return
	}
	if res == nil {
		if s.w.Checks.Explain {
			s.w.Req.Explain(s.entry, s.res, "", "deleted")
		}
		return
	}
	s.secret = s.secret || res.GetKind() == "Secret"
	changes, err := treediff.Diff(s.before.Root(), res.YNode(), s.diffOptions(res))
	if err != nil {
		s.w.Req.Results = append(s.w.Req.Results, fnrun.Warningf(s.entry, res, "", "%v: what the entry changed is neither explained nor validated", err))
		return
	}
	if s.w.Checks.Explain {
		for _, l := range explainLines(changes, s.secret) {
			s.w.Req.Explain(s.entry, res, l.field, "%s", l.msg)
		}
	}
	if s.w.Checks.validating() {
		r := s.w.rules().Rule(res.GetApiVersion(), res.GetKind())
		if !s.w.Checks.Explain {
			changes = s.outsideDocuments(changes)
		}
		for _, f := range validate.Changes(r, res.YNode(), changes, validate.Options{Secret: s.secret, SkipUnknown: s.skipUnknown}) {
			s.w.report(s.entry, res, f)
		}
	}
}

// diffOptions is how the step compares res with its copy: list elements
// aligned by res's schema, and, for explain, the strings the entry edited
// as documents compared inside. Validate checks nothing inside a document
// held in a string (no schema says what it holds), so only explain needs
// the two texts read and compared, which was three fifths of the CPU of a
// structured-replacement run.
func (s *Step) diffOptions(res *yaml.RNode) treediff.Options {
	o := treediff.Options{Origin: s.before.Origin, Type: s.w.rules().Lookup(res.GetApiVersion(), res.GetKind())}
	if s.w.Checks.Explain {
		o.Document = func(_, n *yaml.Node) (*schema.Type, bool) { t, ok := s.docs[n]; return t, ok }
	}
	return o
}
