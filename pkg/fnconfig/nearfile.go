package fnconfig

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
)

// nearFile says which file a path that names none most likely meant
// (schemas/pipeline.yaml for schemas/pipelines.yaml): the first part of
// clean (below dir) that is not there, replaced by the nearest name in
// its directory. Only directories below dir are listed, as only files
// there may be read. "" when nothing is near.
func nearFile(dir, clean string) string {
	root, err := realPath(dir)
	if err != nil {
		return ""
	}
	parts := strings.Split(clean, string(filepath.Separator))
	at := root
	for i, part := range parts {
		next := filepath.Join(at, part)
		if _, err := os.Lstat(next); err == nil {
			if at, err = filepath.EvalSymlinks(next); err != nil || !within(root, at) {
				return ""
			}
			continue
		}
		near := suggest.Nearest(part, namesIn(at))
		if near == "" {
			return ""
		}
		fixed := append(append(append([]string{}, parts[:i]...), near), parts[i+1:]...)
		return " (did you mean " + filepath.ToSlash(filepath.Join(fixed...)) + "?)"
	}
	return ""
}

// namesIn lists the names in directory dir, sorted; none when it cannot
// be read.
func namesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}
