package fnrun

import (
	"bytes"
	"testing"
)

func TestVersionFlag(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v9.8.7", "abc1234"
	var out, errs bytes.Buffer
	if code := Command(Identity, []string{"--version"}, nil, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if got, want := out.String(), "identity v9.8.7 (commit abc1234)\n"; got != want {
		t.Fatalf("--version printed %q, want %q", got, want)
	}
}

func TestVersionUnset(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "", ""
	ver, rev := Version()
	if ver == "" || rev == "" {
		t.Fatalf("Version() = %q, %q: want a fallback for both", ver, rev)
	}
}
