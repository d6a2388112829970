package fnrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
)

// runStream runs a transform on a stream as the standalone command does.
func runStream(t *testing.T, run Transform, in string) (string, Outcome) {
	t.Helper()
	s, err := rlio.ReadStream([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, o, err := RunStream(testFunction(run), &Request{Config: yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n")}, s)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), o
}

// setReplicas sets spec.replicas of every Deployment to 3.
func setReplicas(req *Request) error {
	for _, it := range req.Items {
		if it.GetKind() == "Deployment" {
			if err := it.PipeE(yaml.Lookup("spec"), yaml.SetField("replicas", yaml.NewScalarRNode("3"))); err != nil {
				return err
			}
		}
	}
	return nil
}

// A changed resource is written as the edit: its comments, flow lists,
// spacing and whitespace-only lines stay; the resource nothing changed is
// its bytes.
func TestStreamChangedIsTheEdit(t *testing.T) {
	in := "---\n# Source: a.yaml\nkind: Deployment\nmetadata: { name: web }   # spaced\nspec:\n  replicas: 1\n  \n" +
		"  template:\n    spec:\n      containers:\n        - name: a\n          args: [ \"x\" ]\n          resources:\n            {}\n" +
		"---\n# Source: b.yaml\nkind: Service\nspec:\n  selector: {app: web}\n"
	got, o := runStream(t, setReplicas, in)
	if o.Failed {
		t.Fatal(o.Results)
	}
	if want := strings.Replace(in, "replicas: 1", "replicas: 3", 1); got != want || len(o.Results) > 0 {
		t.Log(o.Results)
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if again, _ := runStream(t, setReplicas, got); again != got {
		t.Fatalf("a second run changed\n%s\ninto\n%s", got, again)
	}
}

// A change the edit cannot write (here, a << key the transform expanded)
// writes the resource whole, and says so.
func TestStreamWrittenWhole(t *testing.T) {
	in := "kind: Deployment\nx: &d {replicas: 1}\nspec:\n  <<: *d\n  paused: true\n"
	expand := func(req *Request) error {
		spec := req.Items[0].Field("spec").Value.YNode()
		spec.Content = []*yaml.Node{yaml.NewStringRNode("replicas").YNode(), yaml.NewScalarRNode("2").YNode(),
			yaml.NewStringRNode("paused").YNode(), yaml.NewScalarRNode("true").YNode()}
		return nil
	}
	got, o := runStream(t, expand, in)
	if strings.Contains(got, "<<") || !strings.Contains(got, "replicas: 2") {
		t.Fatalf("not written whole:\n%s", got)
	}
	if len(o.Results) != 1 || !strings.Contains(o.Results[0].Message, WrittenWhole) {
		t.Fatalf("want one info saying it was written whole, got %v", o.Results)
	}
}

// A document that is not a map is refused by the runner (exit 1), not a
// crash before it.
func TestStreamNotAMap(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Command(testFunction(func(*Request) error { return nil }), []string{writeConfig(t), "-"},
		strings.NewReader("- op: add\n  path: /a\n  value: 1\n"), &stdout, &stderr)
	if code != 1 || stdout.Len() > 0 || !strings.Contains(stderr.String(), "not a map") {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
}

// writeConfig writes a config of testFunction's kind, and gives its path.
func writeConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A stream YAML and kyaml's reader split differently is written whole,
// and the run says so.
func TestStreamUnplacedSaysSo(t *testing.T) {
	in := "kind: A\nmetadata: {name: a}\n---\n---   # b\nkind: B\nmetadata:   {name: b}\n"
	got, o := runStream(t, func(*Request) error { return nil }, in)
	if got == in || len(o.Results) != 1 || !strings.Contains(o.Results[0].Message, "every resource is written whole") {
		t.Fatalf("got\n%s\nresults %v", got, o.Results)
	}
}
