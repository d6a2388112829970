package fnrun

import (
	"bytes"
	"io"
	"os"
)

// readAll reads in to its end, into one buffer of the right size where the
// size is known (a file, a reader of bytes in memory): io.ReadAll grows its
// buffer step by step, allocating about twice the input and clearing it.
// Pipes, such as kpt's, have no size and are read by io.ReadAll.
func readAll(in io.Reader) ([]byte, error) {
	size := knownSize(in)
	if size <= 0 || size > maxSized {
		return io.ReadAll(in)
	}
	var b bytes.Buffer
	// room for the end-of-file read, which bytes.Buffer makes with at
	// least MinRead bytes free
	b.Grow(size + bytes.MinRead)
	_, err := b.ReadFrom(in)
	return b.Bytes(), err
}

// maxSized is the largest size readAll allocates at once on a reader's
// word: a Len() that says more than it holds must not make it allocate, or
// fail, where io.ReadAll reads what there is.
const maxSized = 1 << 30

// knownSize is what is left to read from in, where it can tell (0 where
// it cannot).
func knownSize(in io.Reader) int {
	switch r := in.(type) {
	case interface{ Len() int }:
		return r.Len()
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0
		}
		offset, err := r.Seek(0, io.SeekCurrent)
		if err != nil || offset > fi.Size() {
			return 0
		}
		return int(fi.Size() - offset)
	}
	return 0
}
