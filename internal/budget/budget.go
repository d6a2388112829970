package budget

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The limits of a run's budget: what it may produce is Factor times its
// input, and at least MinNodes nodes and MinBytes bytes (a YAML node is
// some 200 bytes of memory, so the floors keep a run well below a
// gigabyte). Env multiplies all three.
const (
	Factor   = 16
	MinNodes = 1 << 20
	MinBytes = 32 << 20
	// Env names the variable whose value, a whole number from 1 to 1024,
	// multiplies the limits.
	Env = "PATCHWORK_WORK_LIMIT"
)

// ErrSpent is what every charge over a budget's limit is (errors.Is).
var ErrSpent = errors.New("the run's work budget is spent")

// Input is the size of what a run reads: its nodes, and the bytes of its
// text (keys and scalar values).
type Input struct {
	Nodes, Bytes int64
}

// Measure is the size of the documents roots (aliases are counted once,
// where their anchors are).
func Measure(roots ...*yaml.Node) Input {
	var in Input
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		in.Nodes++
		in.Bytes += int64(len(n.Value))
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, r := range roots {
		if r != nil {
			walk(r)
		}
	}
	return in
}

// Budget is what one run may still produce. Its methods are for one
// goroutine.
type Budget struct {
	nodes, bytes meter
	scale        int64
	// own is set for a budget Or made: one operation's, not a run's.
	own bool
	// err is the first charge over a limit: every later charge fails with it.
	err error
}

// meter counts one unit against its limit.
type meter struct {
	used, limit, input int64
	unit               string
}

// New is the budget of a run whose input is in, at the limits scaled by
// scale (1: as documented; below 1 counts as 1).
func New(in Input, scale int) *Budget {
	s := int64(max(scale, 1))
	return &Budget{
		scale: s,
		nodes: meter{limit: s * max(MinNodes, Factor*in.Nodes), input: in.Nodes, unit: "nodes"},
		bytes: meter{limit: s * max(MinBytes, Factor*in.Bytes), input: in.Bytes, unit: "bytes"},
	}
}

// Limits is a budget of the given limits, whatever the input: for tests
// that must reach them quickly.
func Limits(nodes, bytes int64) *Budget {
	return &Budget{
		scale: 1,
		nodes: meter{limit: nodes, unit: "nodes"},
		bytes: meter{limit: bytes, unit: "bytes"},
	}
}

// Scale reads Env: 1 when it is not set.
func Scale() (int, error) {
	v := strings.TrimSpace(os.Getenv(Env))
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1024 {
		return 0, fmt.Errorf("%s=%q: give a whole number from 1 to 1024, the factor the work limits are multiplied by", Env, v)
	}
	return n, nil
}

// Or is b, or when b is nil a budget of its own at the floors (scaled by
// Env, when it is valid): an engine called without a run's budget, as when
// a config is checked, is bounded all the same.
func Or(b *Budget) *Budget {
	if b != nil {
		return b
	}
	scale, err := Scale()
	if err != nil {
		scale = 1
	}
	own := New(Input{}, scale)
	own.own = true
	return own
}

// Nodes charges n nodes produced.
func (b *Budget) Nodes(n int) error { return b.charge(&b.nodes, int64(n)) }

// Bytes charges n bytes produced.
func (b *Budget) Bytes(n int) error { return b.charge(&b.bytes, int64(n)) }

// Tree charges the nodes of the tree n and the bytes of its text (an
// alias as one node: what it stands for is charged where it is).
func (b *Budget) Tree(n *yaml.Node) error {
	in := Measure(n)
	if err := b.charge(&b.nodes, in.Nodes); err != nil {
		return err
	}
	return b.charge(&b.bytes, in.Bytes)
}

// BytesLeft is how many bytes the run may still produce.
func (b *Budget) BytesLeft() int64 { return max(b.bytes.limit-b.bytes.used, 0) }

// Spent reports whether a charge went over a limit: the run fails, and
// what is left of it can stop.
func (b *Budget) Spent() bool { return b != nil && b.err != nil }

func (b *Budget) charge(m *meter, n int64) error {
	if b.err != nil {
		return b.err
	}
	if n <= 0 {
		return nil
	}
	m.used += n
	if m.used > m.limit {
		b.err = &Error{unit: m.unit, limit: m.limit, input: m.input, scale: b.scale, own: b.own}
		return b.err
	}
	return nil
}
