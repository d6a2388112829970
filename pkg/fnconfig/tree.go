package fnconfig

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// File is one file ReadTree read: its path as the config would name it
// (slash-separated, relative to the config's directory) and its bytes.
type File struct {
	Path string
	Data []byte
}

// MaxTreeFiles bounds the files one ReadTree reads: a directory of schemas
// holds tens of files, and a path naming the wrong directory (the package
// root, a vendored tree) should stop early rather than read everything.
const MaxTreeFiles = 1000

// ReadTree reads what a config's path names: the file, or, for a
// directory, every file below it that want accepts (by name), in lexical
// order of their paths. ReadFile's rules hold for the directory and for
// each file: inside the config's directory once links are resolved,
// regular files, the size limit. Entries whose names start with a dot are
// skipped, and so are links to directories (a link may not lead the walk
// in circles); a link to a file is read if it stays inside.
func (f Files) ReadTree(rel string, want func(name string) bool) ([]File, error) {
	_, target, _, err := f.locate(rel)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(target)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", rel, unwrapPathError(err))
	}
	if !st.IsDir() {
		b, err := f.ReadFile(rel)
		if err != nil {
			return nil, err
		}
		return []File{{Path: rel, Data: b}}, nil
	}
	names, err := treeNames(rel, target, want)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, len(names))
	for _, n := range names {
		b, err := f.ReadFile(n)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: n, Data: b})
	}
	return files, nil
}

// treeNames lists the files ReadTree reads below the directory rel (target
// once resolved), as the config would name them.
func treeNames(rel, target string, want func(name string) bool) ([]string, error) {
	var names []string
	err := filepath.WalkDir(target, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("directory %q: %w", rel, unwrapPathError(err))
		}
		if p == target {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !want(d.Name()) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return nil
			}
		}
		sub, err := filepath.Rel(target, p)
		if err != nil {
			return err
		}
		names = append(names, path.Join(filepath.ToSlash(rel), filepath.ToSlash(sub)))
		if len(names) > MaxTreeFiles {
			return fmt.Errorf("directory %q holds more than %d files to read; name a smaller directory or the files themselves", rel, MaxTreeFiles)
		}
		return nil
	})
	return names, err
}
