package yamljson

import (
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

func TestEncode(t *testing.T) {
	for in, want := range map[string]string{
		"b: 1\na: x\n":             `{"b":1,"a":"x"}`,
		"q: '80'\nn: 80\nf: 1.5\n": `{"q":"80","n":80,"f":1.5}`,
		"o: 0o17\nh: 0x1F\n":       `{"o":15,"h":31}`,
		"t: True\nn: ~\ne:\n":      `{"t":true,"n":null,"e":null}`,
		"d: 2024-01-01\n":          `{"d":"2024-01-01"}`,
		"i: .inf\n":                `{"i":".inf"}`,
		"l: [a, {k: v}]\n":         `{"l":["a",{"k":"v"}]}`,
		"a: &x {k: 1}\nb: *x\n":    `{"a":{"k":1},"b":{"k":1}}`,
		"s: \"<tag> & \\u00e9\"\n": `{"s":"\u003ctag\u003e \u0026 é"}`,
	} {
		got, err := Encode(yaml.MustParse(in).YNode(), nil)
		if err != nil || string(got) != want {
			t.Errorf("Encode(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
}

func TestAliasExpansionIsBounded(t *testing.T) {
	// each level doubles the expansion: 2^20 copies of the leaf
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x]\n")
	for i := 1; i <= 20; i++ {
		b.WriteString("l" + string(rune('a'+i)) + ": &l" + string(rune('a'+i)) + " [")
		prev := "l0"
		if i > 1 {
			prev = "l" + string(rune('a'+i-1))
		}
		b.WriteString("*" + prev + ", *" + prev + "]\n")
	}
	n, err := yaml.Parse(b.String())
	if err != nil {
		t.Skip("the YAML parser refuses the document itself:", err)
	}
	if _, err := Encode(n.YNode(), nil); err == nil || !strings.Contains(err.Error(), "YAML aliases expand to too many nodes") {
		t.Fatalf("err = %v", err)
	}
}

// Ten thousand aliases of one large value are as many copies of it (issue
// 28): what aliases expand to is charged to the budget given.
func TestAliasesOfALargeValue(t *testing.T) {
	text := "a: &a " + strings.Repeat("x", 1000) + "\nl: [" + strings.Repeat("*a, ", 999) + "*a]\n"
	n := yaml.MustParse(text).YNode()
	if _, err := Encode(n, budget.Limits(1<<20, 1<<20)); err != nil {
		t.Errorf("a megabyte: %v", err)
	}
	_, err := Encode(n, budget.Limits(1<<20, 1<<19))
	if !errors.Is(err, budget.ErrSpent) || !strings.Contains(err.Error(), "line 2: YAML aliases expand to too many nodes: the run would produce more than 512Ki bytes") {
		t.Errorf("over the budget: %v", err)
	}
}
