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
		return nil, fileError(rel, err)
	}
	names := []string{rel}
	if st.IsDir() {
		if names, err = treeNames(rel, target, want); err != nil {
			return nil, err
		}
	}
	return f.readFiles(names)
}

// readFiles reads the files the config names by paths, in their order.
func (f Files) readFiles(paths []string) ([]File, error) {
	files := make([]File, 0, len(paths))
	for _, p := range paths {
		b, err := f.ReadFile(p)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Path: p, Data: b})
	}
	return files, nil
}

// treeNames lists the files ReadTree reads below the directory rel (target
// once resolved), as the config would name them.
func treeNames(rel, target string, want func(name string) bool) ([]string, error) {
	w := treeWalk{rel: rel, target: target, want: want}
	err := filepath.WalkDir(target, w.visit)
	return w.names, err
}

// treeWalk is treeNames' walk of the directory rel, at target.
type treeWalk struct {
	rel, target string
	want        func(name string) bool
	names       []string
}

// visit lists the file at p, when ReadTree reads it; it skips the
// directories whose names start with a dot.
func (w *treeWalk) visit(p string, d fs.DirEntry, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("directory %q: %w", w.rel, unwrapPathError(err))
	case p == w.target:
		return nil
	case strings.HasPrefix(d.Name(), "."):
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	case d.IsDir() || !w.want(d.Name()) || linkToDir(p, d):
		return nil
	}
	return w.add(p)
}

// linkToDir reports whether the entry d at p is a symbolic link to a
// directory, which the walk does not follow: it may lead in circles.
func linkToDir(p string, d fs.DirEntry) bool {
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// add lists the file at p as the config would name it, up to
// MaxTreeFiles.
func (w *treeWalk) add(p string) error {
	sub, err := filepath.Rel(w.target, p)
	if err != nil {
		return err
	}
	w.names = append(w.names, path.Join(filepath.ToSlash(w.rel), filepath.ToSlash(sub)))
	if len(w.names) > MaxTreeFiles {
		return fmt.Errorf("directory %q holds more than %d files to read; name a smaller directory or the files themselves", w.rel, MaxTreeFiles)
	}
	return nil
}
