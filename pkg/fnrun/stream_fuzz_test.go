package fnrun

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
)

// FuzzStreamRun runs standalone streams through RunStream: a transform
// that changes nothing writes a placed stream back as it was read, byte
// for byte; one that sets every Deployment's replicas writes a stream a
// second run leaves as it is (the edit is idempotent).
func FuzzStreamRun(f *testing.F) {
	for _, s := range []string{
		"---\n# Source: a.yaml\nkind: Deployment\nmetadata: { name: web }   # spaced\nspec:\n  replicas: 1\n  \n" +
			"  template:\n    spec:\n      containers:\n        - name: a\n          args: [ \"x\" ]\n          resources:\n            {}\n",
		"kind: Deployment\nspec: {replicas: 1, paused: true}\n---\n# between\n\n---\nkind: Service\n",
		"apiVersion: v1\nkind: List\nitems:\n- kind: Deployment\n  spec:\n    replicas: 2 # two\n",
		"kind: Deployment\nspec:\n  \"replicas\": '1'\n  template: {}\n...\n",
		"kind: Deployment\r\nspec:\r\n  x: 1\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 4096 {
			return
		}
		if out, ok := runFuzzStream(t, func(*Request) error { return nil }, raw); ok && !out.whole && out.text != string(raw) {
			t.Fatalf("nothing changed, yet written as\n%q\nread\n%q", out.text, raw)
		}
		once, ok := runFuzzStream(t, setReplicas, raw)
		if !ok || once.whole {
			return
		}
		if twice, ok := runFuzzStream(t, setReplicas, []byte(once.text)); ok && twice.text != once.text {
			t.Fatalf("a second run changed\n%q\ninto\n%q\n(read %q)", once.text, twice.text, raw)
		}
	})
}

// fuzzOut is what a run over a fuzzed stream wrote, and whether the
// stream's resources were written whole (not placed).
type fuzzOut struct {
	text  string
	whole bool
}

// runFuzzStream runs a transform on raw as the standalone command does;
// false when the stream does not read or the run fails (the runner refuses
// what the fuzzer makes of resources).
func runFuzzStream(t *testing.T, run Transform, raw []byte) (*fuzzOut, bool) {
	t.Helper()
	s, err := rlio.ReadStream(raw)
	if err != nil {
		return nil, false
	}
	req := &Request{Config: yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n")}
	out, o, err := RunStream(testFunction(run), req, s)
	if err != nil {
		t.Fatalf("%v\n%q", err, raw)
	}
	if o.Failed {
		return nil, false
	}
	return &fuzzOut{text: string(out), whole: s.Whole()}, true
}
