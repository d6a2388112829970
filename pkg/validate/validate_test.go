package validate

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pipelines.example.io}
spec:
  group: example.io
  names: {kind: Pipeline, plural: pipelines}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 1, maximum: 10}
              mode: {type: string, enum: [fast, safe]}
              name: {type: string, pattern: '^[a-z]+$', maxLength: 8}
              ratio: {type: number, exclusiveMinimum: true, minimum: 0}
              port: {x-kubernetes-int-or-string: true}
              tags: {type: array, items: {type: string}, maxItems: 2}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              labels: {type: object, additionalProperties: {type: string}}
              steps:
                type: array
                minItems: 1
                items:
                  type: object
                  required: [name, image]
                  properties:
                    name: {type: string}
                    image: {type: string}
                    timeout: {type: string, format: date-time}
`

func rule(t *testing.T) *schema.Rule {
	t.Helper()
	s, _, err := schema.Builtin().WithCRDs([]*yaml.RNode{yaml.MustParse(crd)})
	if err != nil {
		t.Fatal(err)
	}
	return s.Rule("example.io/v1", "Pipeline")
}

const pipeline = `apiVersion: example.io/v1
kind: Pipeline
metadata: {name: p}
spec:
  replicas: 2
  mode: fast
  name: build
  steps:
  - {name: a, image: x}
`

// check compares two versions of a resource and returns its findings,
// one a line.
func check(t *testing.T, r *schema.Rule, before, after string, o Options) string {
	t.Helper()
	a, b := yaml.MustParse(before), yaml.MustParse(after)
	changes, err := treediff.Diff(a.YNode(), b.YNode(), treediff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range Changes(r, b.YNode(), changes, o) {
		out = append(out, f.Check.String()+": "+f.Where+": "+f.String())
	}
	return strings.Join(out, "\n")
}

// Every check, on a custom resource: each finding names the place, what
// the schema wants and what it got; what was there before and did not
// change is not reported.
func TestChecks(t *testing.T) {
	r := rule(t)
	for _, c := range []struct{ name, edit, want string }{
		{"valid", "replicas: 3\n  mode: safe", ""},
		{"type", "replicas: '3'", `type: spec.replicas: the schema wants an integer, got the string "3"`},
		{"float for integer", "replicas: 2.5", `type: spec.replicas: the schema wants an integer, got the number 2.5`},
		{"minimum", "replicas: 0", `bounds: spec.replicas: the schema wants a number of at least 1, got the number 0`},
		{"maximum", "replicas: 11", `bounds: spec.replicas: the schema wants a number of at most 10, got the number 11`},
		{"exclusive minimum", "ratio: 0", `bounds: spec.ratio: the schema wants a number greater than 0, got the number 0`},
		{"enum", "mode: Fast", `enum: spec.mode: the schema wants one of fast, safe, got the string "Fast"`},
		{"pattern", "name: Build", `pattern: spec.name: the schema wants a string matching ^[a-z]+$, got the string "Build"`},
		{"max length", "name: abcdefghi", `bounds: spec.name: the schema wants a string of at most 8 characters, got the string "abcdefghi" (9 characters)`},
		{"int or string", "port: http", ""},
		{"int or string, not a list", "port: [80]", `type: spec.port: the schema wants an integer or a string, got a list`},
		{"unknown", "replica: 3", `unknown field: spec.replica: the schema wants a field it knows (did you mean replicas?), got the field "replica", which it does not keep`},
		{"open object", "extra: {anything: [1]}", ""},
		{"map values", "labels: {a: 1}", `type: spec.labels.a: the schema wants a string, got the number 1`},
		{"required of an element added", "steps: [{name: a, image: x}, {name: b}]", `required: spec.steps[name=b]: the schema wants the required field image, got a map without it`},
		{"format", "steps: [{name: a, image: x, timeout: soon}]", `format: spec.steps[name=a].timeout: the schema wants a time in RFC 3339 (2006-01-02T15:04:05Z), got the string "soon"`},
		{"max items", "tags: [a, b, c]", `bounds: spec.tags: the schema wants a list of at most 2 elements, got a list of 3 elements`},
		{"min items", "steps: []", `bounds: spec.steps: the schema wants a list of at least 1 element, got a list of 0 elements`},
		{"null is left out", "mode: null", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			after := strings.Replace(pipeline, "  replicas: 2\n", "  replicas: 2\n  "+c.edit+"\n", 1)
			if strings.HasPrefix(c.edit, "replicas:") || strings.HasPrefix(c.edit, "mode:") || strings.HasPrefix(c.edit, "name:") || strings.HasPrefix(c.edit, "steps:") {
				after = replaceField(pipeline, c.edit)
			}
			if got := check(t, r, pipeline, after, Options{}); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// replaceField replaces the spec field the edit starts with by the edit.
func replaceField(doc, edit string) string {
	key := edit[:strings.Index(edit, ":")+1]
	var out []string
	skip := false
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "  "+key):
			out = append(out, "  "+edit)
			skip = true
		case skip && strings.HasPrefix(line, "  -"):
		default:
			skip = false
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// A problem the resource had before is not reported; a field removed that
// the schema requires is.
func TestOnlyChanges(t *testing.T) {
	r := rule(t)
	bad := strings.Replace(pipeline, "mode: fast", "mode: Fast\n  bogus: 1", 1)
	if got := check(t, r, bad, strings.Replace(bad, "replicas: 2", "replicas: 3", 1), Options{}); got != "" {
		t.Errorf("old problems reported:\n%s", got)
	}
	if got := check(t, r, bad, strings.Replace(bad, "bogus: 1", "bogus: {a: 1}", 1), Options{}); got != "" {
		t.Errorf("a change inside an unknown field reported:\n%s", got)
	}
	removed := strings.Replace(pipeline, "{name: a, image: x}", "{name: a}", 1)
	if got, want := check(t, r, pipeline, removed, Options{}), "required: spec.steps[name=a].image: the schema wants the required field image, got it removed"; got != want {
		t.Errorf("got %s", got)
	}
}

// Built-in kinds: types, formats, enums from the Go types, required
// fields, unknown fields; a Secret's values are never shown.
func TestBuiltin(t *testing.T) {
	const deploy = `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: x, imagePullPolicy: Always}
`
	r := schema.Builtin().Rule("apps/v1", "Deployment")
	for _, c := range []struct{ name, from, to, want string }{
		{"int32", "replicas: 1", "replicas: 3000000000", "format: spec.replicas: the schema wants an integer from -2147483648 to 2147483647 (int32), got the number 3000000000"},
		{"enum", "imagePullPolicy: Always", "imagePullPolicy: always", `enum: spec.template.spec.containers[name=app].imagePullPolicy: the schema wants one of Always, IfNotPresent, Never, got the string "always"`},
		{"quantity", "imagePullPolicy: Always", "resources: {limits: {memory: 500MB}}", `format: spec.template.spec.containers[name=app].resources.limits.memory: the schema wants a quantity (a number, or a string such as 500m or 1Gi), got the string "500MB"`},
		{"quantity ok", "imagePullPolicy: Always", "resources: {limits: {memory: 500M, cpu: 0.5}}", ""},
		{"required", "{name: app, image: x, imagePullPolicy: Always}", "{name: app, image: x, env: [{value: x}]}", "required: spec.template.spec.containers[name=app].env[0]: the schema wants the required field name, got a map without it"},
		{"unknown", "replicas: 1", "replica: 1", `unknown field: spec.replica: the schema wants a field it knows (did you mean replicas?), got the field "replica", which it does not keep`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := check(t, r, deploy, strings.Replace(deploy, c.from, c.to, 1), Options{}); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
	const secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: aGk=}\n"
	got := check(t, schema.Builtin().Rule("v1", "Secret"), secret, strings.Replace(secret, "aGk=", "hunter2!", 1), Options{Secret: true})
	if want := "format: data.a: the schema wants base64 data, got a string"; got != want || strings.Contains(got, "hunter2") {
		t.Errorf("got %s", got)
	}
	if got := check(t, r, deploy, strings.Replace(deploy, "replicas: 1", "replica: 1", 1), Options{SkipUnknown: true}); got != "" {
		t.Errorf("SkipUnknown: %s", got)
	}
}
