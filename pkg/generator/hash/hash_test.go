package hash

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// splitName splits "name-xxxxxxxxxx" into name and suffix.
func splitName(t *testing.T, full string) (string, string) {
	t.Helper()
	i := strings.LastIndexByte(full, '-')
	if i < 0 || !IsSuffix(full[i+1:]) {
		t.Fatalf("%q does not end in a hash suffix", full)
	}
	return full[:i], full[i+1:]
}

// The output of a real kustomize v5.8.2 build of testdata/kustomize (see
// its kustomization.yaml): every generated resource's suffix must be what
// Suffix computes from the content kustomize wrote. The cases cover
// non-ASCII text, characters Go's JSON encoder escapes (<, >, &, U+2028),
// binaryData, multi-line values, Secret types, long base64 values broken
// into lines, empty ConfigMaps and Secrets, labels and annotations.
func TestSuffixMatchesKustomizeBuild(t *testing.T) {
	nodes := fnruntest.ReadResources(t, "testdata/kustomize-v5.8.2-output.yaml")
	if len(nodes) < 10 {
		t.Fatalf("only %d resources in the fixture", len(nodes))
	}
	for _, n := range nodes {
		_, want := splitName(t, n.GetName())
		got, err := Suffix(n)
		if err != nil {
			t.Fatalf("%s: %v", n.GetName(), err)
		}
		if got != want {
			t.Errorf("%s %s: suffix %s, kustomize gave %s", n.GetKind(), n.GetName(), got, want)
		}
	}
}

// testdata/exec-generator is an exec generator whose output carries
// kustomize's needs-hash hint, so kustomize hashed content no generator of
// its own makes: numbers and booleans in data, an empty binaryData,
// stringData, a Secret without type, a ConfigMap without data. The suffixes
// are taken from kustomize's output and compared with Suffix of the
// generator's resources as written (before kustomize re-serialised them).
func TestSuffixMatchesKustomizeForUnusualContent(t *testing.T) {
	byName := map[string]string{}
	for _, n := range fnruntest.ReadResources(t, "testdata/exec-generator-v5.8.2-output.yaml") {
		name, suffix := splitName(t, n.GetName())
		byName[n.GetKind()+"/"+name] = suffix
	}
	for _, n := range fnruntest.ReadResources(t, "testdata/exec-generator/resources.yaml") {
		want, ok := byName[n.GetKind()+"/"+n.GetName()]
		if !ok {
			t.Fatalf("%s %s missing from kustomize's output", n.GetKind(), n.GetName())
		}
		got, err := Suffix(n)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s %s: suffix %s, kustomize gave %s", n.GetKind(), n.GetName(), got, want)
		}
	}
}

func TestSuffixIgnoresNameAndMetadata(t *testing.T) {
	a := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  k: v\n")
	b := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n  labels: {x: y}\n  annotations: {p: q}\nimmutable: true\ndata:\n  k: v\n")
	c := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  k: w\n")
	sa, _ := Suffix(a)
	sb, _ := Suffix(b)
	sc, _ := Suffix(c)
	if sa != sb {
		t.Errorf("name/labels/annotations/immutable changed the suffix: %s vs %s", sa, sb)
	}
	if sa == sc {
		t.Errorf("different data, same suffix %s", sa)
	}
}

func TestSuffixRejectsOtherKinds(t *testing.T) {
	if _, err := Suffix(yaml.MustParse("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n")); err == nil {
		t.Error("hashing a Service succeeded")
	}
}

func TestIsSuffix(t *testing.T) {
	for s, want := range map[string]bool{
		"7gdc49gk6d": true, "mf8d45g9f4": true,
		"7gdc49gk6": false, "7gdc49gk6d1": false, "7gdc49gk0d": false, "7gdc49gkad": false, "7gdc49gK6d": false,
	} {
		if got := IsSuffix(s); got != want {
			t.Errorf("IsSuffix(%q) = %v", s, got)
		}
	}
	// Every Encode output is a suffix.
	for _, in := range []string{"", "a", "{}", "kustomize"} {
		if s := Encode([]byte(in)); !IsSuffix(s) {
			t.Errorf("Encode(%q) = %q is not a suffix", in, s)
		}
	}
}

func TestTrimSuffix(t *testing.T) {
	for name, want := range map[string]string{
		"app-7gdc49gk6d": "app", "a-b-7gdc49gk6d": "a-b",
		"-7gdc49gk6d": "", "app7gdc49gk6d": "", "app-7gdc49gk0d": "", "app": "", "app-": "",
	} {
		base, ok := TrimSuffix(name)
		if base != want || ok != (want != "") {
			t.Errorf("TrimSuffix(%q) = %q, %v; want %q", name, base, ok, want)
		}
	}
}

// Hashed tells a name whose suffix is its content's hash from one that only
// looks hashed, or whose content changed since.
func TestHashed(t *testing.T) {
	cm := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n  k: v\n")
	s, err := Suffix(cm)
	if err != nil {
		t.Fatal(err)
	}
	if Hashed(cm) {
		t.Error("Hashed of a name without a suffix")
	}
	if err := cm.SetName("app-" + s); err != nil {
		t.Fatal(err)
	}
	if !Hashed(cm) {
		t.Errorf("Hashed(%s) = false", cm.GetName())
	}
	if err := cm.PipeE(yaml.SetField("data", yaml.NewMapRNode(&map[string]string{"k": "w"}))); err != nil {
		t.Fatal(err)
	}
	if Hashed(cm) {
		t.Error("Hashed after the content changed")
	}
}
