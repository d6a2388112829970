package budget

import (
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestLimitsFollowTheInput(t *testing.T) {
	small := New(Input{Nodes: 10, Bytes: 100}, 1)
	if small.nodes.limit != MinNodes || small.bytes.limit != MinBytes {
		t.Errorf("a small input: limits %d nodes, %d bytes; want the floors", small.nodes.limit, small.bytes.limit)
	}
	big := New(Input{Nodes: 1 << 20, Bytes: 1 << 30}, 2)
	if big.nodes.limit != 2*Factor<<20 || big.bytes.limit != 2*Factor<<30 {
		t.Errorf("a large input, scale 2: limits %d nodes, %d bytes", big.nodes.limit, big.bytes.limit)
	}
}

func TestChargesOverTheLimitFail(t *testing.T) {
	b := Limits(3, 10)
	if err := b.Nodes(3); err != nil || b.Spent() {
		t.Fatalf("up to the limit: %v", err)
	}
	err := b.Nodes(1)
	if !errors.Is(err, ErrSpent) || !b.Spent() || !strings.Contains(err.Error(), "more than 3 nodes") {
		t.Fatalf("over the limit: %v", err)
	}
	// every charge after fails with the first error, bytes too
	if again := b.Bytes(1); again != err {
		t.Errorf("after the limit: %v", again)
	}
	// nothing charged, nothing refused (a patch that shrinks a document)
	if err := Limits(1, 1).Bytes(-5); err != nil {
		t.Errorf("a negative charge: %v", err)
	}
}

func TestTreeChargesNodesAndText(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: &x [hello, world]\nb: *x\n"), &doc); err != nil {
		t.Fatal(err)
	}
	in := Measure(&doc)
	// document, map, a, list, hello, world, b, alias (its value is the anchor's name)
	if in.Nodes != 8 || in.Bytes != int64(len("a"+"hello"+"world"+"b"+"x")) {
		t.Errorf("Measure: %+v", in)
	}
	if err := Limits(8, 100).Tree(&doc); err != nil {
		t.Errorf("a tree within the limits: %v", err)
	}
	if err := Limits(7, 100).Tree(&doc); err == nil {
		t.Errorf("a tree over the node limit: no error")
	}
}

func TestOrGivesABudgetOfItsOwn(t *testing.T) {
	given := Limits(1, 1)
	if Or(given) != given {
		t.Error("Or replaced the budget given")
	}
	own := Or(nil)
	if own == nil || own.nodes.limit != MinNodes {
		t.Errorf("Or(nil): %+v", own)
	}
	var none *Budget
	if none.Spent() {
		t.Error("a nil budget is spent")
	}
}

func TestScale(t *testing.T) {
	for v, want := range map[string]int{"": 1, "1": 1, " 4 ": 4, "1024": 1024} {
		t.Setenv(Env, v)
		if got, err := Scale(); err != nil || got != want {
			t.Errorf("%s=%q: %d, %v", Env, v, got, err)
		}
	}
	for _, v := range []string{"0", "-1", "2.5", "4x", "1025"} {
		t.Setenv(Env, v)
		if _, err := Scale(); err == nil || !strings.Contains(err.Error(), Env) {
			t.Errorf("%s=%q: %v", Env, v, err)
		}
	}
}

func TestErrorSaysTheLimit(t *testing.T) {
	b := New(Input{Nodes: 100, Bytes: 4 << 20}, 2)
	err := b.Bytes(200 << 20)
	want := "the run would produce more than 128Mi bytes, the work limit for its input of 4Mi bytes (16 times the input, at least 32Mi, times 2 by PATCHWORK_WORK_LIMIT)"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "PATCHWORK_WORK_LIMIT=8 raises the limit") {
		t.Errorf("got %v\nwant %s…", err, want)
	}
}

func TestProgramSize(t *testing.T) {
	for expr, ok := range map[string]bool{
		"app-.*":                              true,
		"(web|api)-[0-9]+":                    true,
		"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?":  true,
		"[a-z0-9]([-a-z0-9]{0,251}[a-z0-9])?": true,
		"[a-x]{1000}":                         false,
		strings.Repeat("[a-x]{20}", 60):       false,
		"(":                                   true, // not a regular expression: regexp says so
	} {
		err := CheckProgram(expr)
		var pe *ProgramError
		if (err == nil) != ok || err != nil && !errors.As(err, &pe) {
			t.Errorf("%.40s: %v", expr, err)
		}
	}
	if _, err := Regexp("("); err == nil {
		t.Error(`Regexp("("): no error`)
	}
}
