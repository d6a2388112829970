package jsonpatch

import (
	"errors"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// run applies the operations to the JSON document in, as the library does,
// with two differences. Their copies may add no more bytes than b has
// left: forty copies that each double what they copy would otherwise
// reach terabytes before the first error. And a copy or move from "" (the
// whole document) takes the document as the operations before it left
// it: the library takes the document as it was before the patch, so the
// operations are applied in runs, each ending before such an operation.
func (o *Ops) run(in []byte, b *budget.Budget) ([]byte, error) {
	out := in
	for _, part := range o.parts() {
		opts := jsonpatch.NewApplyOptions()
		opts.AccumulatedCopySizeLimit = max(b.BytesLeft()-int64(len(out)-len(in)), 1)
		next, err := part.ApplyWithOptions(out, opts)
		if err != nil {
			return nil, copyLimit(err, b)
		}
		out = next
	}
	return out, nil
}

// parts splits the operations before each copy or move from "".
func (o *Ops) parts() []jsonpatch.Patch {
	var parts []jsonpatch.Patch
	start := 0
	for i, op := range o.patch {
		if from, err := op.From(); err == nil && from == "" && i > start && (op.Kind() == "copy" || op.Kind() == "move") {
			parts = append(parts, o.patch[start:i])
			start = i
		}
	}
	return append(parts, o.patch[start:])
}

// copyLimit is the budget's error for the library's error saying the
// copies went over the bytes left; any other error as it is.
func copyLimit(err error, b *budget.Budget) error {
	var over *jsonpatch.AccumulatedCopySizeError
	if !errors.As(err, &over) {
		return err
	}
	return b.Bytes(int(b.BytesLeft()) + 1)
}

// charge charges b for what out, a patched document, holds beyond in, the
// document before: its bytes, and its nodes (counted in the text, before
// any is built).
func charge(b *budget.Budget, in, out []byte) error {
	if err := b.Bytes(len(out) - len(in)); err != nil {
		return err
	}
	return b.Nodes(int(jsonNodes(out) - jsonNodes(in)))
}

// jsonNodes counts the nodes a compact JSON text reads as: one for the
// root, and one for each key, each value after a comma and each first
// element or member (an empty [] or {} counts one more than it holds).
func jsonNodes(b []byte) int64 {
	n, inString, escaped := int64(1), false, false
	for _, c := range b {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == ',' || c == ':' || c == '[' || c == '{':
			n++
		}
	}
	return n
}
