package fnrun

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readAll reads every kind of input whole: in memory, a file (from where
// it stands), a pipe.
func TestReadAll(t *testing.T) {
	want := strings.Repeat("items:\n- a: b\n", 5000)
	file := filepath.Join(t.TempDir(), "list.yaml")
	if err := os.WriteFile(file, []byte("skipped\n"+want), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("skipped\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	go func() { pw.Write([]byte(want)); pw.Close() }()
	for name, in := range map[string]io.Reader{
		"bytes": bytes.NewReader([]byte(want)), "string": strings.NewReader(want), "file": f, "pipe": pr,
	} {
		got, err := readAll(in)
		if err != nil || string(got) != want {
			t.Errorf("%s: read %d bytes (%v), want %d", name, len(got), err, len(want))
		}
	}
}

// Reading a list of known size allocates it once, not the twice or more
// io.ReadAll's growing takes.
func TestReadAllAllocatesOnce(t *testing.T) {
	in := bytes.Repeat([]byte("- a: b\n"), 1<<17)
	allocated := testing.AllocsPerRun(5, func() {
		if _, err := readAll(bytes.NewReader(in)); err != nil {
			t.Fatal(err)
		}
	})
	if allocated > 2 {
		t.Errorf("%v allocations reading %d bytes, want at most 2", allocated, len(in))
	}
}

// claims is a reader whose Len says more than it holds.
type claims struct {
	io.Reader
	n int
}

func (c claims) Len() int { return c.n }

// A reader that claims more than it holds is read as io.ReadAll reads it,
// without allocating what it claims.
func TestReadAllOverclaimed(t *testing.T) {
	for _, n := range []int{math.MaxInt, 1 << 50, 1<<30 + 1} {
		got, err := readAll(claims{strings.NewReader("items: []\n"), n})
		if err != nil || string(got) != "items: []\n" {
			t.Errorf("Len %d: read %q (%v)", n, got, err)
		}
	}
}
