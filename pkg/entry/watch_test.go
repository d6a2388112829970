package entry

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// watched runs edit on the resource between Before and Done, with the
// checks, and returns the results (infos included: a run that succeeded)
// and the errors.
func watched(t *testing.T, checks Checks, doc string, edit func(res *yaml.RNode, s *Step)) (infos, warnings, errs []string) {
	t.Helper()
	res := yaml.MustParse(doc)
	req := &fnrun.Request{Items: []*yaml.RNode{res}, Config: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")}
	var errors framework.Results
	w := &Watch{Req: req, Checks: checks, Errs: &errors}
	s := w.Before("patches[0]", res)
	edit(res, s)
	s.Done()
	w.Finish()
	o := fnrun.Identity.Process(req)
	for _, r := range o.Results {
		switch r.Severity {
		case framework.Info:
			infos = append(infos, r.Message)
		case framework.Warning:
			warnings = append(warnings, r.Message)
		}
	}
	for _, r := range errors {
		errs = append(errs, r.Message)
	}
	return infos, warnings, errs
}

const deploy = `apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: "app:1", args: [a, b]}
      - {name: old, image: old}
`

func set(t *testing.T, res *yaml.RNode, path []string, value string) {
	t.Helper()
	if err := res.PipeE(yaml.LookupCreate(yaml.MappingNode, path[:len(path)-1]...), yaml.SetField(path[len(path)-1], yaml.MustParse(value))); err != nil {
		t.Fatal(err)
	}
}

func TestExplain(t *testing.T) {
	infos, _, _ := watched(t, Checks{Explain: true, Validate: "off"}, deploy, func(res *yaml.RNode, _ *Step) {
		set(t, res, []string{"spec", "replicas"}, "3")
		set(t, res, []string{"spec", "paused"}, "true")
		ctrs, _ := res.Pipe(yaml.Lookup("spec", "template", "spec", "containers"))
		app := ctrs.YNode().Content[0]
		yaml.NewRNode(app).Field("image").Value.YNode().Value = "app:2"
		set(t, yaml.NewRNode(app), []string{"args"}, "[a, c]")
		ctrs.YNode().Content = []*yaml.Node{app, yaml.MustParse("{name: proxy, image: envoy}").YNode()}
		_ = res.PipeE(yaml.Clear("metadata"))
		set(t, res, []string{"metadata", "name"}, "api")
	})
	want := []string{
		`patches[0]: apps/v1 Deployment api: spec.replicas: 1 → 3`,
		`patches[0]: apps/v1 Deployment api: spec.template.spec.containers[name=app].image: "app:1" → "app:2"`,
		`patches[0]: apps/v1 Deployment api: spec.template.spec.containers[name=app].args: ["a", "b"] → ["a", "c"]`,
		`patches[0]: apps/v1 Deployment api: spec.template.spec.containers: 1 element added ([name=proxy]), 1 element removed ([name=old]), 1 merged`,
		`patches[0]: apps/v1 Deployment api: spec.paused: added: true`,
	}
	if got := strings.Join(infos, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}

// A Secret's values are never told, nor the old values of a resource a
// secret value went into.
func TestExplainSecret(t *testing.T) {
	infos, _, _ := watched(t, Checks{Explain: true}, "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: hunter2}\n", func(res *yaml.RNode, _ *Step) {
		set(t, res, []string{"stringData", "a"}, "swordfish")
		set(t, res, []string{"stringData", "b"}, "more")
	})
	got := strings.Join(infos, "\n")
	if got != "patches[0]: v1 Secret s: stringData.a: changed\npatches[0]: v1 Secret s: stringData.b: added" {
		t.Errorf("got\n%s", got)
	}
	infos, _, _ = watched(t, Checks{Explain: true}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\n", func(res *yaml.RNode, s *Step) {
		s.Secret()
		set(t, res, []string{"data", "a"}, "swordfish")
	})
	if got := strings.Join(infos, "\n"); strings.Contains(got, "swordfish") || !strings.HasSuffix(got, "data.a: changed") {
		t.Errorf("got\n%s", got)
	}
}

// A string the entry edits as a document is explained inside.
func TestExplainDocument(t *testing.T) {
	infos, _, _ := watched(t, Checks{Explain: true}, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  app.json: '{\"port\": 80, \"hosts\": [{\"name\": \"a\"}]}'\n", func(res *yaml.RNode, s *Step) {
		n := res.Field("data").Value.Field("app.json").Value.YNode()
		n.Value = `{"port": 8080, "hosts": [{"name": "a"}, {"name": "b"}]}`
		s.Document(n, nil)
	})
	want := "patches[0]: v1 ConfigMap c: data.[app.json]: in the document: port: 80 → 8080\n" +
		"patches[0]: v1 ConfigMap c: data.[app.json]: in the document: hosts: 1 element added ([name=b])"
	if got := strings.Join(infos, "\n"); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Findings are warnings, errors under validate: error, named by entry,
// resource and field; the same finding in many resources is named for the
// first five, then counted.
func TestValidateFindings(t *testing.T) {
	edit := func(res *yaml.RNode, _ *Step) { set(t, res, []string{"spec", "replicas"}, `"3"`) }
	infos, warnings, errs := watched(t, Checks{}, deploy, edit)
	want := `patches[0]: apps/v1 Deployment api: spec.replicas: the schema wants an integer, got the string "3"`
	if len(infos) != 0 || len(errs) != 0 || strings.Join(warnings, "\n") != want {
		t.Errorf("warn: infos %q, warnings %q, errors %q", infos, warnings, errs)
	}
	_, warnings, errs = watched(t, Checks{Validate: "error"}, deploy, edit)
	if len(warnings) != 0 || strings.Join(errs, "\n") != want {
		t.Errorf("error: warnings %q, errors %q", warnings, errs)
	}
	_, warnings, errs = watched(t, Checks{Validate: "off"}, deploy, edit)
	if len(warnings)+len(errs) != 0 {
		t.Errorf("off: warnings %q, errors %q", warnings, errs)
	}

	req := &fnrun.Request{}
	w := &Watch{Req: req}
	for i := range 8 {
		res := yaml.MustParse(strings.Replace(deploy, "name: api", fmt.Sprintf("name: d%d", i), 1))
		s := w.Before("patches[0]", res)
		edit(res, s)
		s.Done()
	}
	w.Finish()
	var got []string
	for _, r := range req.Results {
		got = append(got, r.Message)
	}
	if len(got) != 6 || got[5] != `patches[0]: spec.replicas: the schema wants an integer, got the string "3" (in 3 more resources)` {
		t.Errorf("repeated:\n%s", strings.Join(got, "\n"))
	}
}

func TestChecksCheck(t *testing.T) {
	for _, v := range []string{"", "warn", "error", "off"} {
		if err := (Checks{Validate: v}).Check(); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
	if err := (Checks{Validate: "strict"}).Check(); err == nil || err.Error() != `validate: "strict" is not one of warn, error, off` {
		t.Errorf("got %v", err)
	}
}

// Nothing is watched without a Watch, or with explain off and validate:
// off; a resource created is "created", one deleted "deleted".
func TestWatchNothingCreatedDeleted(t *testing.T) {
	var w *Watch
	var s *Step = w.Before("x", yaml.MustParse(deploy))
	s.Document(nil, nil)
	s.Secret()
	s.FieldsChecked()
	s.Done()
	w.Finish()
	if (&Watch{Checks: Checks{Validate: "off"}}).Before("x", yaml.MustParse(deploy)) != nil {
		t.Error("a step with nothing to do")
	}
	req := &fnrun.Request{Config: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")}
	w = &Watch{Req: req, Checks: Checks{Explain: true}}
	cm := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\n")
	w.Created("configMapGenerator[0]").DoneAs(cm)
	w.Before("patches[0]", cm).DoneAs(nil)
	o := fnrun.Identity.Process(req)
	var got []string
	for _, r := range o.Results {
		got = append(got, r.Message)
	}
	if strings.Join(got, "\n") != "configMapGenerator[0]: v1 ConfigMap c: created\npatches[0]: v1 ConfigMap c: deleted" {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}

// A Mark tells a changed resource from one left as it was in the same way
// whether the step took a copy (compared with it) or nothing is watched
// (a fingerprint): a style, a comment, a value, a tag, a new key, a key
// order each count as a change; an edit undone does not.
func TestMarkChanged(t *testing.T) {
	edits := map[string]func(*yaml.RNode){
		"nothing": func(*yaml.RNode) {},
		"undone": func(r *yaml.RNode) {
			_ = r.PipeE(yaml.SetField("x", yaml.NewStringRNode("1")))
			_ = r.PipeE(yaml.Clear("x"))
		},
		"value": func(r *yaml.RNode) { r.Field("spec").Value.Field("replicas").Value.YNode().Value = "2" },
		"style": func(r *yaml.RNode) {
			r.Field("spec").Value.Field("replicas").Value.YNode().Style = yaml.DoubleQuotedStyle
		},
		"tag":     func(r *yaml.RNode) { r.Field("spec").Value.Field("replicas").Value.YNode().Tag = "!!str" },
		"comment": func(r *yaml.RNode) { r.Field("metadata").Value.YNode().LineComment = "# c" },
		"key":     func(r *yaml.RNode) { _ = r.PipeE(yaml.SetField("x", yaml.NewStringRNode("1"))) },
		"order": func(r *yaml.RNode) {
			c := r.YNode().Content
			c[0], c[1], c[2], c[3] = c[2], c[3], c[0], c[1]
		},
	}
	for name, edit := range edits {
		for _, checks := range []Checks{{Validate: "off"}, {Validate: "warn"}} {
			res := yaml.MustParse(deploy)
			w := &Watch{Req: &fnrun.Request{}, Checks: checks}
			s := w.Before("patches[0]", res)
			if (s != nil) != checks.watching() {
				t.Fatalf("%s: step %v under %+v", name, s, checks)
			}
			mark := s.Mark(res)
			edit(res)
			if got, want := mark.Changed(res), name != "nothing" && name != "undone"; got != want {
				t.Errorf("%s, validate: %s: Changed %v, want %v", name, checks.Validate, got, want)
			}
		}
	}
}

// Under validate: alone, a string the entry edited as a document is not
// read as one (validate checks nothing inside documents: only explain:
// needs the two texts compared, and reading them was three fifths of a
// structured-replacement run), and validate says the same either way:
// here nothing, though the string is where the schema wants an integer.
func TestValidateReadsNoDocument(t *testing.T) {
	var keys []string
	for i := range 200 {
		keys = append(keys, fmt.Sprintf(`"k%d": %d`, i, i))
	}
	doc := "{" + strings.Join(keys, ", ") + "}"
	res := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replicas: '" + doc + "'\n"
	edit := func(res *yaml.RNode, s *Step) {
		n := res.Field("spec").Value.Field("replicas").Value.YNode()
		n.Value = strings.Replace(n.Value, `"k5": 5`, `"k5": 50`, 1)
		s.Document(n, nil)
	}
	for _, checks := range []Checks{{}, {Explain: true}} {
		infos, warnings, errs := watched(t, checks, res, edit)
		if len(warnings)+len(errs) != 0 || checks.Explain && len(infos) != 1 {
			t.Errorf("%+v: infos %q, warnings %q, errors %q", checks, infos, warnings, errs)
		}
	}
	allocs := func(checks Checks) float64 {
		return testing.AllocsPerRun(5, func() {
			r := yaml.MustParse(res)
			w := &Watch{Req: &fnrun.Request{}, Checks: checks}
			s := w.Before("patches[0]", r)
			edit(r, s)
			s.Done()
		})
	}
	if validateOnly, explain := allocs(Checks{}), allocs(Checks{Explain: true}); validateOnly > explain/2 {
		t.Errorf("validate alone allocates %.0f times, explain %.0f: the document is read", validateOnly, explain)
	}
}
