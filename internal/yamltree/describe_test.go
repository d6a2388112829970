package yamltree

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestDescribe(t *testing.T) {
	doc := yaml.MustParse(`
map: {a: 1}
list: [1]
null: ~
empty: ""
str: s3cr3t
int: 5
float: 1.5
bool: true
time: 2001-12-14
bin: !!binary aGk=
custom: !thing x
alias: &a 7
ref: *a
long: !!int 12345678901234567890123456789012345678901234567890
`).YNode()
	cases := []struct{ key, want, secret string }{
		{"map", "a map", "a map"},
		{"list", "a list", "a list"},
		{"null", "null", "null"},
		{"empty", "the empty string", "a string"},
		{"str", "a string", "a string"},
		{"int", "the number 5", "a number"},
		{"float", "the number 1.5", "a number"},
		{"bool", "the boolean true", "a boolean"},
		{"time", "the timestamp 2001-12-14", "a timestamp"},
		{"bin", "a binary value", "a binary value"},
		{"custom", "a value tagged !thing", "a value tagged !thing"},
		{"ref", "the number 7", "a number"},
		{"long", "the number 1234567890123456789012345678901234567890…", "a number"},
	}
	for _, c := range cases {
		n := Lookup(doc, c.key)
		if got := Describe(n); got != c.want {
			t.Errorf("Describe(%s) = %q, want %q", c.key, got, c.want)
		}
		if got := DescribeSecret(n, true); got != c.secret {
			t.Errorf("DescribeSecret(%s) = %q, want %q", c.key, got, c.secret)
		}
		if strings.Contains(Describe(n), "s3cr3t") {
			t.Errorf("Describe shows a string's text: %q", Describe(n))
		}
	}
	if got := Describe(nil); got != "nothing" {
		t.Errorf("Describe(nil) = %q", got)
	}
}

func TestLookup(t *testing.T) {
	doc := yaml.MustParse("k: &v first\nk: second\nm: &m {x: 1}\nr: *m\n").YNode()
	if v := Lookup(doc, "k"); v == nil || v.Value != "first" {
		t.Errorf("first of repeated keys: %v", v)
	}
	if v := Lookup(Lookup(doc, "r"), "x"); v == nil || v.Value != "1" {
		t.Errorf("through an aliased map: %v", v)
	}
	if Lookup(doc, "none") != nil || Lookup(Lookup(doc, "k"), "x") != nil || Lookup(nil, "x") != nil {
		t.Error("no such key, or no map: nil")
	}
	if !IsNull(yaml.MustParse("a: ~\n").YNode().Content[1]) || IsNull(Lookup(doc, "k")) || IsNull(nil) {
		t.Error("IsNull")
	}
}
