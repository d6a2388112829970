package locate

import (
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Kind is what a path does at a place it leads to.
type Kind uint8

const (
	// AtNode is an existing node the path ends at.
	AtNode Kind = iota
	// InString is a string holding a document the path continues in.
	InString
	// AddTo is a map or list that a key or an element is added to.
	AddTo
	// OverNull is a null replaced by the maps and lists the path needs.
	OverNull
)

// Place is one spot a path leads to.
type Place struct {
	Kind Kind
	N    *span.Node
	// Addr is the node's address: child positions from the root.
	Addr []int
	// At is the next path segment: the one inside the string, or the
	// missing one.
	At int
	// Parent is the map or list that holds N, if any, and Key the key of
	// N's entry in a map.
	Parent, Key *span.Node
}

// JoinPath returns a followed by b, in a new slice.
func JoinPath(a, b fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// AppendAddr returns the address of child i of the node at addr, in a new
// slice.
func AppendAddr(addr []int, i int) []int {
	out := make([]int, len(addr)+1)
	copy(out, addr)
	out[len(addr)] = i
	return out
}

// AddrKey spells an address as a map key: "/0/3" ("" for the root).
func AddrKey(addr []int) string {
	var b strings.Builder
	for _, a := range addr {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(a))
	}
	return b.String()
}
