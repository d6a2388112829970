package yamlstyle

import (
	"os/exec"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// yaml11Forms are spellings a YAML 1.1 (or 1.2) reader takes for something
// other than a string.
var yaml11Forms = []string{
	// booleans, every case YAML 1.1 lists
	"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE",
	"on", "On", "ON", "off", "Off", "OFF",
	// nulls
	"~", "null", "Null", "NULL",
	// integers: decimal, octal, hexadecimal, binary, underscores, signs
	"0", "12", "-3", "+7", "0755", "0o17", "0x1F", "0b1010", "1_000",
	// sexagesimal integers and floats (PyYAML: 12:30:45 is 45045)
	"1:20", "12:30:45", "-1:20", "190:20:30.15",
	// floats
	"1.5", ".5", "1.", "1.5e3", "1e3", "6.8523015e+5", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN",
	// timestamps (PyYAML reads dates)
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
	// merge and value keys
	"<<", "=",
}

var plainStrings = []string{
	"hello", "www.example.com", "500m", "1.2.3", "v1.20", "nginx:1.25", "a:b", "12:30pm", "1:2:3:x",
	"0x", "yes-please", "Yess", "onion", "2001-12", "",
}

func TestNonString(t *testing.T) {
	for _, s := range yaml11Forms {
		if !NonString(s) {
			t.Errorf("%q: NonString = false; a YAML 1.1 reader does not read it as a string", s)
		}
	}
	for _, s := range plainStrings {
		if NonString(s) {
			t.Errorf("%q: NonString = true; it is a string for every reader", s)
		}
	}
}

// The rule covers what yaml.v2 (kyaml's YAML 1.1 check, which kustomize
// uses) takes for a non-string.
func TestNonStringCoversYAMLv2(t *testing.T) {
	for _, s := range append(append([]string{}, yaml11Forms...), plainStrings...) {
		if yaml.IsValueNonString(s) && !NonString(s) {
			t.Errorf("%q: yaml.v2 reads a non-string, NonString = false", s)
		}
	}
}

// With PyYAML at hand, the rule is checked against it: every form above
// that PyYAML loads as a non-string is quoted, and the plain strings stay
// strings. Skipped when python3 or PyYAML is missing.
func TestNonStringAgreesWithPyYAML(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	if err := exec.Command(py, "-c", "import yaml").Run(); err != nil {
		t.Skip("PyYAML not installed")
	}
	all := append(append([]string{}, yaml11Forms...), plainStrings...)
	script := `import sys, yaml
for line in sys.stdin.read().split("\n"):
    try:
        v = yaml.safe_load("k: " + line)["k"] if line else ""
        print("str" if isinstance(v, str) else type(v).__name__)
    except yaml.YAMLError:
        print("error")  # not readable as a plain string either
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(all, "\n"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	types := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(types) != len(all) {
		t.Fatalf("PyYAML gave %d answers for %d values:\n%s", len(types), len(all), out)
	}
	for i, s := range all {
		if types[i] != "str" && !NonString(s) {
			t.Errorf("%q: PyYAML reads a %s, NonString = false", s, types[i])
		}
		if types[i] == "str" && NonString(s) && contains(plainStrings, s) {
			t.Errorf("%q: PyYAML reads a string, NonString = true", s)
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func TestQuoteIfAmbiguous(t *testing.T) {
	for _, value := range yaml11Forms {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
		QuoteIfAmbiguous(n)
		if n.Style != yaml.DoubleQuotedStyle {
			t.Errorf("%q was not quoted", value)
		}
	}
	for _, value := range plainStrings {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
		QuoteIfAmbiguous(n)
		if n.Style != 0 {
			t.Errorf("%q was quoted", value)
		}
	}
	// not a string, or already quoted: left alone
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
	QuoteIfAmbiguous(n)
	if n.Style != 0 {
		t.Error("a boolean was quoted")
	}
	n = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "1:20", Style: yaml.SingleQuotedStyle}
	QuoteIfAmbiguous(n)
	if n.Style != yaml.SingleQuotedStyle {
		t.Error("a single-quoted string changed style")
	}
}
