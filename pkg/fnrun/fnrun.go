package fnrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/redact"
	"github.com/patchwork-krm/patchwork/internal/rlio"
)

// Request is one run of a function on a ResourceList.
type Request struct {
	// Items may be modified in place; replace the slice to add or remove items.
	Items []*yaml.RNode
	// Config is the functionConfig.
	Config *yaml.RNode
	// ConfigDir is the directory relative file paths in the config resolve
	// against ("" means the working directory).
	ConfigDir string
	// ConfigDirWhy says why ConfigDir is the root, for messages about a
	// file not found ("" gives the working directory's reasons).
	ConfigDirWhy string
	// Results collects warnings and infos; errors are returned instead.
	Results framework.Results
	// summary holds the per-entry infos of a successful run (Summarize).
	summary framework.Results
	// explained holds what the entries changed, field by field (Explain).
	explained framework.Results
	// secrets are the values no result may show (redact.go).
	secrets *redact.Set
	// budget is the run's work budget (budget.go).
	budget *budget.Budget
	// intake is what the runner learned from every node before the
	// transform ran (intake.go).
	intake *intake
}

// Files reads the files the config names, below ConfigDir (package
// fnconfig says the rules).
func (r *Request) Files() fnconfig.Files {
	return fnconfig.Files{Dir: r.ConfigDir, Why: r.ConfigDirWhy}
}

// Transform runs one function. Returning an error (framework.Results, or
// any error) makes the run fail: exit code 1, error
// results, the items written back unmodified.
type Transform func(*Request) error

// Function describes one patchwork binary to the runner.
type Function struct {
	// Name is the binary's name, e.g. "multi-patch".
	Name string
	// Short is a one-line description for --help.
	Short string
	// Kinds lists the accepted config types as "apiVersion/kind", the first
	// being the function's own.
	Kinds []string
	// Run is the transform.
	Run Transform
	// Doc is the function's reference (its functions/<name>/README.md,
	// embedded by the binary), printed by --help after the usage, so that
	// `kpt fn doc --image` shows it.
	Doc string
	// TakenBy names, for each config type of the functions shipped beside
	// this one, the function that takes it, so that a config given to the
	// wrong one (a MultiPatch to podspec-patch) says where it belongs. The
	// functions hand it over (package fnkinds); the runner names none.
	TakenBy map[string]string
}

// Outcome is what a run produced: the results, and whether it failed.
type Outcome struct {
	Results framework.Results
	Failed  bool
	// ShownByClient says the client shows the results itself (kpt), so they
	// need not be repeated on stderr (see sentByKpt).
	ShownByClient bool
	// Summaries is how many of the Results, at the end, are the per-entry
	// lines of a successful run (Request.Summarize).
	Summaries int
}

// Process runs f on a request after checking the config's type. A failed
// run may have changed items in place: callers write the input back
// (RunResourceList does). kpt's and kustomize's annotations on the items
// come out of a successful run as they went in, and a panic in a transform
// becomes an error result rather than a crash.
//
// Every result goes through one redaction step on its way out: the values
// of the Secrets among the items (before the run and after it) and those
// the transform registered (Request.Secret) appear in no message, identity
// or field of a result (package redact).
func (f Function) Process(req *Request) Outcome {
	if req.intake == nil {
		req.intake = takeIn(req.Config, req.Items, nil, req.secretSet())
	}
	o := f.process(req)
	req.knowSecrets(req.Items)
	o.Results = req.secrets.Results(o.Results)
	return o
}

func (f Function) process(req *Request) Outcome {
	if err := f.checkKind(req.Config); err != nil {
		return fail(req.Results, err)
	}
	if err := checkMetadata(req.Items); err != nil {
		return fail(req.Results, err)
	}
	if err := checkDuplicateKeys(req.Config, req.intake.dups); err != nil {
		return fail(req.Results, err)
	}
	tools := snapshotToolAnnotations(req.Items)
	if err := req.startBudget(); err != nil {
		return fail(req.Results, err)
	}
	if err := f.safeRun(req); err != nil {
		return fail(req.Results, err)
	}
	for _, r := range req.Results {
		if r.Severity == framework.Error {
			return Outcome{Results: req.Results, Failed: true}
		}
	}
	tools.restore(req.Items)
	return Outcome{Results: append(append(req.Results, req.explained...), req.summary...), Summaries: len(req.summary)}
}

func (f Function) safeRun(req *Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: internal error: %v (nothing was changed; please report this with the input that caused it)", f.Name, p)
		}
	}()
	return f.Run(req)
}

func fail(prior framework.Results, err error) Outcome {
	out := append(framework.Results{}, prior...)
	var rs framework.Results
	switch {
	case errors.As(err, &rs):
		out = append(out, rs...)
	default:
		out = append(out, &framework.Result{Severity: framework.Error, Message: err.Error()})
	}
	for _, r := range out {
		if r.Severity == "" {
			r.Severity = framework.Error
		}
	}
	return Outcome{Results: out, Failed: true}
}

// checkKind rejects a config of a type the function does not accept, naming
// the types it does.
func (f Function) checkKind(config *yaml.RNode) error {
	required := func() error {
		return fmt.Errorf("%s: a function config is required (one of: %s); pass it with kpt fn eval --fn-config FILE, "+
			"as configPath: in a Kptfile pipeline, or as the file listed under transformers:/generators: in kustomization.yaml",
			f.Name, strings.Join(f.Kinds, ", "))
	}
	if config == nil || yaml.IsMissingOrNull(config) {
		return required()
	}
	if err := fnconfig.CheckShape(config); err != nil {
		return fmt.Errorf("%s: %v; expected a config of one of these types: %s", f.Name, err, strings.Join(f.Kinds, ", "))
	}
	if isKptKeyValueInput(config) && !f.accepts("v1/ConfigMap") {
		return required()
	}
	got := config.GetApiVersion() + "/" + config.GetKind()
	if f.accepts(got) {
		return nil
	}
	hint := ""
	if other := f.TakenBy[got]; other != "" && other != f.Name {
		hint = fmt.Sprintf(" (a %s is %s's config: run %s with it)", config.GetKind(), other, other)
	} else if k := suggestKind(config.GetApiVersion(), config.GetKind(), f.Kinds); k != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", k)
	}
	return fmt.Errorf("%s: config of type %s (apiVersion %q, kind %q) is not accepted%s; expected one of: %s",
		f.Name, got, config.GetApiVersion(), config.GetKind(), hint, strings.Join(f.Kinds, ", "))
}

func (f Function) accepts(apiVersionKind string) bool {
	for _, k := range f.Kinds {
		if k == apiVersionKind {
			return true
		}
	}
	return false
}

// suggestKind names the accepted type most likely meant: the kind nearest
// to the one written (StructuredReplacment → StructuredReplacement), or the
// accepted apiVersion when the kind is right and only the apiVersion is off.
// "" when nothing is close.
func suggestKind(apiVersion, kind string, accepted []string) string {
	var kinds []string
	byKind := map[string]string{}
	for _, k := range accepted {
		i := strings.LastIndex(k, "/")
		kinds = append(kinds, k[i+1:])
		if _, ok := byKind[k[i+1:]]; !ok {
			byKind[k[i+1:]] = k
		}
	}
	if full, ok := byKind[kind]; ok {
		return "apiVersion " + full[:strings.LastIndex(full, "/")]
	}
	if k := suggest.Nearest(kind, kinds); k != "" {
		full := byKind[k]
		if full[:strings.LastIndex(full, "/")] == apiVersion {
			return k
		}
		return full
	}
	return ""
}

// isKptKeyValueInput reports whether the config is the ConfigMap kpt fn
// eval makes from `-- key=value` arguments (or, with nothing after --, when
// no config was given at all): named function-input, nothing but data.
func isKptKeyValueInput(config *yaml.RNode) bool {
	return config.GetApiVersion() == "v1" && config.GetKind() == "ConfigMap" && config.GetName() == "function-input"
}

// RunResourceList reads a ResourceList from in, runs f, writes the
// ResourceList to out. It returns the outcome; a failed run wrote the input
// items unmodified. err reports I/O or parse failures only, redacted as
// results are.
//
// An item the function did not change is written as the bytes it was read
// from, where rlio can place it; every other item as kyaml's
// kio.ByteReadWriter (with KeepReaderAnnotations) would write it, for a
// fraction of its time and memory (internal/rlio); with
// PATCHWORK_KYAML_IO=1 the whole list is written by kyaml.
func RunResourceList(f Function, in io.Reader, out io.Writer, configDir string) (Outcome, error) {
	secrets := &redact.Set{}
	o, err := runList(f, in, out, configDir, rlio.FromEnv(), secrets)
	return o, secrets.Error(err)
}

// RunResourceListKyaml is RunResourceList through kyaml's own writer and
// annotation functions: the reference the fast codec is tested and
// benchmarked against.
func RunResourceListKyaml(f Function, in io.Reader, out io.Writer, configDir string) (Outcome, error) {
	secrets := &redact.Set{}
	o, err := runList(f, in, out, configDir, rlio.Codec{Kyaml: true}, secrets)
	return o, secrets.Error(err)
}

// RunResourceListEncoded is RunResourceList with every item encoded, none
// copied as it was read: the fast writer, which the tests hold to kyaml's
// bytes.
func RunResourceListEncoded(f Function, in io.Reader, out io.Writer, configDir string) (Outcome, error) {
	secrets := &redact.Set{}
	o, err := runList(f, in, out, configDir, rlio.Codec{Encode: true}, secrets)
	return o, secrets.Error(err)
}

// runList runs f on the ResourceList in in. The values of the Secrets it
// holds go into secrets as soon as it is read, for whoever prints the
// error it may return.
func runList(f Function, in io.Reader, out io.Writer, configDir string, codec rlio.Codec, secrets *redact.Set) (Outcome, error) {
	rl, raw, err := readList(in, codec)
	if err != nil {
		return Outcome{}, err
	}
	if rl.Kind != kio.ResourceListKind {
		return Outcome{}, fmt.Errorf("the input is not a ResourceList (kind: ResourceList, with items and functionConfig), as kpt and kustomize send; to run on plain resource files, give the config first: %s CONFIG [FILE...]", f.Name)
	}
	req := &Request{Items: rl.Items, Config: rl.FunctionConfig, ConfigDir: configDir, secrets: secrets}
	// before the annotations are migrated: an item migration changes is
	// written anew
	req.intake = takeIn(rl.FunctionConfig, rl.Items, rl.Placed, req.secretSet())
	rl.Unchanged = req.intake.unchanged
	migration, err := codec.Migrate(rl.Items)
	if err != nil {
		return Outcome{}, err
	}
	if configDir == "" {
		req.ConfigDir = fnconfig.PackageDir(rl.FunctionConfig)
		if req.ConfigDir != "" {
			req.ConfigDirWhy = "the config file's directory in the package (kpt fn render)"
		}
	}
	kpt := sentByKpt(rl.Items, rl.FunctionConfig)
	outcome := f.Process(req)
	outcome.ShownByClient = kpt
	if outcome.Failed {
		// All-or-nothing: the transform may have changed items in place
		// before it failed, so write what came in, read afresh. Only a
		// failing run pays for the second parse.
		orig, err := codec.Read(raw)
		if err != nil {
			return outcome, err
		}
		orig.FunctionConfig, orig.Results = rl.FunctionConfig, rl.Results
		orig.Unchanged = func(*yaml.RNode) bool { return true }
		rl = orig
	} else {
		rl.Items = req.Items
		if err := migration.Reconcile(rl.Items); err != nil {
			return outcome, err
		}
	}
	if len(outcome.Results) > 0 {
		if rl.Results, err = resultsNode(outcome.Results); err != nil {
			return outcome, err
		}
	}
	if err := codec.Write(out, rl); err != nil {
		return outcome, fmt.Errorf("writing ResourceList: %w", err)
	}
	return outcome, nil
}

// readList reads the ResourceList in in and returns it with the bytes it
// was read from, the collector paused while they are parsed (pauseGC); but
// on kyaml's path, which runs as kyaml-based functions do, with Go's
// collector untouched: it is the yardstick the benchmarks measure against.
func readList(in io.Reader, codec rlio.Codec) (*rlio.List, []byte, error) {
	raw, err := readAll(in)
	if err != nil {
		return nil, nil, fmt.Errorf("reading ResourceList: %w", err)
	}
	if !codec.Kyaml {
		defer pauseGC()()
	}
	rl, err := codec.Read(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("reading ResourceList: %w", err)
	}
	return rl, raw, nil
}

// RunBytes runs f on a ResourceList held in memory; for tests and benchmarks.
func RunBytes(f Function, in []byte) ([]byte, Outcome, error) {
	out := outBuffer(in)
	o, err := RunResourceList(f, bytes.NewReader(in), out, "")
	return out.Bytes(), o, err
}

// RunBytesKyaml is RunBytes through RunResourceListKyaml.
func RunBytesKyaml(f Function, in []byte) ([]byte, Outcome, error) {
	out := outBuffer(in)
	o, err := RunResourceListKyaml(f, bytes.NewReader(in), out, "")
	return out.Bytes(), o, err
}

// outBuffer is a buffer for the output of a run on in, sized for a list
// about as long, as a file or pipe takes it without growing: what the
// benchmarks measure is the run, not a buffer growing by doubling.
func outBuffer(in []byte) *bytes.Buffer {
	out := &bytes.Buffer{}
	out.Grow(len(in) + len(in)/4)
	return out
}

// Identity is the function that changes nothing: the yardstick every
// benchmark is measured against (read and write through this runner).
var Identity = Function{
	Name:  "identity",
	Kinds: []string{"v1/ConfigMap"},
	Run:   func(*Request) error { return nil },
}
