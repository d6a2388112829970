package scalar

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestResolve11MatchesPyYAML checks the transcription of PyYAML's
// resolvers against PyYAML's own answers (testdata/yaml11-table.txt,
// written by yaml11-table.py).
func TestResolve11MatchesPyYAML(t *testing.T) {
	f, err := os.Open("testdata/yaml11-table.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		tag, quoted, ok := strings.Cut(line, "\t")
		var s string
		if !ok || json.Unmarshal([]byte(quoted), &s) != nil {
			t.Fatalf("bad line %q", line)
		}
		n++
		if got := Resolve11(s); got != "!!"+tag {
			t.Errorf("Resolve11(%q) = %s, PyYAML says !!%s", s, got, tag)
		}
	}
	if n < 5000 {
		t.Errorf("only %d entries", n)
	}
}

func TestNeedsQuotes(t *testing.T) {
	quoted := []string{
		// issue 19: yaml.v3, yaml.v2 and sigs.k8s.io/yaml drop "_" first
		"1e_3", "0_x1F", "-_1", "+_.5", "0_o17", "0x_1F", "1_000", "1_", "1__",
		// numbers, YAML 1.2 and 1.1
		"12", "0755", "0o17", "0b101", "0x1F", "1.5", ".5", "1e3", "-1", "+1", ".inf", "-.Inf", ".nan",
		"12:30", "12:30:45", "1:20", "190:20:30.15",
		// booleans and nulls of every reader
		"true", "True", "FALSE", "yes", "Yes", "NO", "on", "Off", "y", "N", "~", "null", "Null", "",
		// timestamps, merge and value keys
		"2001-12-14", "2001-12-14T21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "<<", "=",
	}
	for _, s := range quoted {
		if !NeedsQuotes(s) {
			t.Errorf("NeedsQuotes(%q) = false, want true", s)
		}
	}
	plain := []string{"hello", "500m", "1.2.3", "v1", "apps/v1", "1Gi", "0xG1", "yesterday", "on-call", "nullable",
		"1:60", "2001-1-1x", ".", "-", "+", "._", "1 000", "a:b", "True1", "NaN", "inf", "_1"}
	for _, s := range plain {
		if NeedsQuotes(s) {
			t.Errorf("NeedsQuotes(%q) = true, want false (r12 %s, r11 %s)", s, Resolve12(s), Resolve11(s))
		}
	}
}

func TestQuoteIfNeeded(t *testing.T) {
	for _, c := range []struct {
		node  yaml.Node
		style yaml.Style
	}{
		{yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "1e_3"}, yaml.DoubleQuotedStyle},
		{yaml.Node{Kind: yaml.ScalarNode, Value: "on"}, yaml.DoubleQuotedStyle},
		{yaml.Node{Kind: yaml.ScalarNode, Value: "12"}, 0},                                                      // a number
		{yaml.Node{Kind: yaml.ScalarNode, Value: "yes", Style: yaml.SingleQuotedStyle}, yaml.SingleQuotedStyle}, // quoted already
		{yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "plain"}, 0},
	} {
		n := c.node
		QuoteIfNeeded(&n)
		if n.Style != c.style {
			t.Errorf("%q (tag %q): style %v, want %v", c.node.Value, c.node.Tag, n.Style, c.style)
		}
	}
}

// TestKeyForms: keys that readers take for one key share a form; others
// do not.
func TestKeyForms(t *testing.T) {
	same := [][2]string{
		{"true", "True"}, {"80", "0x50"}, {"~", "null"}, {"1", "1.0"}, {`"80"`, "80"}, {"a", `'a'`},
		{"yes", "true"}, {"on", "Y"}, {"1e3", "1000"}, {"1_0", "10"}, {"0o17", "15"}, {"017", "15"},
		{"12:30", "750"}, {"null", "NULL"}, {"0x_1F", "31"}, {"1.5", "1.50"},
	}
	different := [][2]string{
		{"a", "b"}, {"1", "2"}, {`"yes"`, "true"}, {"true", "false"}, {"on", "off"}, {"1.5", "1.6"}, {"nul", "null"},
	}
	check := func(pair [2]string, want bool) {
		doc, err := yaml.Parse("{" + pair[0] + ": 1, " + pair[1] + ": 2}")
		if err != nil {
			t.Fatalf("%v: %v", pair, err)
		}
		c := doc.YNode().Content
		if got := shareForm(KeyForms(c[0]), KeyForms(c[2])); got != want {
			t.Errorf("%s and %s: one key = %v, want %v (%q, %q)", pair[0], pair[1], got, want, KeyForms(c[0]), KeyForms(c[2]))
		}
	}
	for _, p := range same {
		check(p, true)
	}
	for _, p := range different {
		check(p, false)
	}
}

func shareForm(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Spellings every reader takes for something other than a string, and
// strings every reader takes as written (from the former yamlstyle tests).
var (
	nonStrings = []string{
		"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"true", "True", "TRUE", "false", "False", "FALSE",
		"on", "On", "ON", "off", "Off", "OFF",
		"~", "null", "Null", "NULL",
		"0", "12", "-3", "+7", "0755", "0o17", "0x1F", "0b1010", "1_000",
		"1:20", "12:30:45", "-1:20", "190:20:30.15",
		"1.5", ".5", "1.", "1.5e3", "1e3", "6.8523015e+5", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN",
		"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
		"<<", "=",
	}
	strs = []string{
		"hello", "www.example.com", "500m", "1.2.3", "v1.20", "nginx:1.25", "a:b", "12:30pm", "1:2:3:x",
		"0x", "yes-please", "Yess", "onion", "2001-12",
	}
)

// TestNeedsQuotesCoversKyaml: kyaml's own YAML 1.1 check (yaml.v2), which
// kustomize uses, finds no non-string the rule lets through.
func TestNeedsQuotesCoversKyaml(t *testing.T) {
	for _, s := range append(append([]string{}, nonStrings...), strs...) {
		if yaml.IsValueNonString(s) && !NeedsQuotes(s) {
			t.Errorf("%q: kyaml reads a non-string, NeedsQuotes = false", s)
		}
	}
	for _, s := range nonStrings {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
		if QuoteIfNeeded(n); n.Style != yaml.DoubleQuotedStyle {
			t.Errorf("%q was not quoted", s)
		}
	}
	for _, s := range strs {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
		if QuoteIfNeeded(n); n.Style != 0 {
			t.Errorf("%q was quoted", s)
		}
	}
}

// TestResolve12FastPath: for every first byte Resolve12 answers itself, it
// answers what yaml.v3 answers, on values that begin like every kind of
// scalar yaml.v3 knows.
func TestResolve12FastPath(t *testing.T) {
	tails := []string{"", "0", "1.5", "e3", "x", "rue", "ull", "inf", ".nan", "<", ":00", "_1", "0x1F", "-01-01"}
	for b := 0; b < 256; b++ {
		for _, tail := range append(tails, "rueX", "alse0", "ull-a", "oooooo", "es", "ff", "n", "RUE", "ALSE", "ULL", "alse", "rue ") {
			s := string([]byte{byte(b)}) + tail
			n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
			if got, want := Resolve12(s), n.ShortTag(); got != want {
				t.Errorf("Resolve12(%q) = %s, yaml.v3 says %s", s, got, want)
			}
		}
	}
}

// TestResolverRemembers: the Resolver gives Resolve12's answers, from its
// memory the second time.
func TestResolverRemembers(t *testing.T) {
	var r Resolver
	for round := 0; round < 2; round++ {
		for _, s := range []string{"8080", "256Mi", "1e3", "0x1F", "-1", ".5", "+.inf", "true", "name", "2001-01-01", "~", ""} {
			if got, want := r.Resolve12(s), Resolve12(s); got != want {
				t.Errorf("round %d: Resolver.Resolve12(%q) = %s, want %s", round, s, got, want)
			}
		}
	}
	if len(r.tags) == 0 {
		t.Error("nothing remembered")
	}
}

func TestCanBePlain(t *testing.T) {
	for _, c := range []struct {
		s             string
		block, inFlow bool
	}{
		{"a", true, true},
		{"", true, false},    // read back as "", which is null: NeedsQuotes
		{"a😀", false, false}, // above U+FFFF: yaml.v3 escapes it
		{"a\ufffd", true, true},
		{"\u00a0x\u00a0", true, true}, // only spaces count as spaces
		{" a", false, false},
		{"a ", false, false},
		{"a\tb", false, false},
		{"a\u2028b", false, false},
		{"a'b", true, true},
		{"a#b", true, true},
		{"a #b", false, false},
		{"a:b", true, false},
		{"a: b", false, false},
		{"a:", false, false},
		{":a", true, false},
		{"? a", false, false},
		{"-a", true, true},
		{"- a", false, false},
		{"---a", false, false},
		{"a,b", true, false},
		{"'a", false, false},
		{"true", true, true}, // a boolean, but the text reads back: NeedsQuotes
	} {
		if got := CanBePlain(c.s, false); got != c.block {
			t.Errorf("CanBePlain(%q, false) = %v", c.s, got)
		}
		if got := CanBePlain(c.s, true); got != c.inFlow {
			t.Errorf("CanBePlain(%q, true) = %v", c.s, got)
		}
	}
}

func TestPrintable(t *testing.T) {
	for r, want := range map[rune]bool{'a': true, '\t': false, '\n': false, 0x7f: false, 0x85: false, 0xa0: true,
		0x2028: false, 0xfeff: false, 0xfffd: true, 0xfffe: false, 0x1f600: false} {
		if Printable(r) != want {
			t.Errorf("Printable(%U) = %v", r, !want)
		}
	}
}
