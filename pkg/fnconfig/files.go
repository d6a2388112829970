package fnconfig

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxFileSizeEnv names the environment variable that sets the largest file
// a config may read (bytes, or with a suffix: 512Ki, 4Mi, 1Gi). It is an
// environment variable, not a config field, on purpose: the config comes
// with the package, often from an upstream author, while the environment
// belongs to the person or CI job running the function.
const MaxFileSizeEnv = "PATCHWORK_MAX_FILE_SIZE"

// DefaultMaxFileSize is the size limit without PATCHWORK_MAX_FILE_SIZE:
// 1 MiB, what the Kubernetes API accepts for a whole ConfigMap or Secret.
const DefaultMaxFileSize = 1 << 20

// Files reads the files a config names, below the config's directory: the
// root a config may read below. It is a value: a run makes one from where
// its config came from (fnrun's Request.Files), and a transform hands it to
// whatever reads files for it (mergemeta.Load).
type Files struct {
	// Dir is the directory relative paths resolve against ("" means the
	// working directory).
	Dir string
	// Why says why Dir is the root, for messages about a file not found
	// ("" gives the working directory's reasons).
	Why string
}

// ReadFile reads a file named in the config (`path:`, `files:`, `envs:`),
// relative to f.Dir (the working directory when empty), the root a
// config may read below. Configs come with packages from authors the person
// running the function may not control, so the rules are strict:
//
//   - the path is relative and stays below the root once every symbolic
//     link, in the root and in the path, is resolved;
//   - it names a regular file: not a directory, device, named pipe or
//     socket (a link to /dev/zero would be read forever);
//   - the file is at most the size limit (MaxFileSizeEnv).
func (f Files) ReadFile(rel string) ([]byte, error) {
	_, target, limit, err := f.locate(rel)
	if err != nil {
		return nil, err
	}
	return readRegular(target, rel, limit)
}

// InlineOrFile returns an entry's content given either inline (the config's
// `patch` field) or as a file (`path`, with `file` accepted as the KEP's
// name for it).
func (f Files) InlineOrFile(inline, path, file string) (string, error) {
	path, err := entryPath(path, file)
	if err != nil {
		return "", err
	}
	switch {
	case inline != "" && path != "":
		return "", fmt.Errorf("both patch and path are set; give one")
	case inline != "":
		return inline, nil
	case path != "":
		b, err := f.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("path: %w", err)
		}
		return string(b), nil
	}
	return "", nil
}

// entryPath is the file an entry names by `path` or by `file`, the KEP's
// name for it; giving both is an error unless they agree.
func entryPath(path, file string) (string, error) {
	if file == "" {
		return path, nil
	}
	if path != "" && path != file {
		return "", fmt.Errorf("path and file name the same thing; give one")
	}
	return file, nil
}

// locate checks a path named in the config as ReadFile's rules say and
// returns the root, the path's target (both absolute, free of links) and
// the size limit.
func (f Files) locate(rel string) (root, target string, limit int64, err error) {
	clean, err := relativePath(rel)
	if err != nil {
		return "", "", 0, err
	}
	if limit, err = maxFileSize(); err != nil {
		return "", "", 0, fmt.Errorf("file %q: %w", rel, err)
	}
	dir := cmp.Or(f.Dir, ".")
	if root, err = realPath(dir); err != nil {
		return "", "", 0, fmt.Errorf("file %q: the config's directory: %w", rel, unwrapPathError(err))
	}
	if target, err = filepath.EvalSymlinks(filepath.Join(root, clean)); err != nil {
		return "", "", 0, f.notResolved(rel, dir, clean, err)
	}
	if !within(root, target) {
		return "", "", 0, fmt.Errorf("file %q leads outside the config's directory (through a symbolic link)", rel)
	}
	return root, target, limit, nil
}

// relativePath is rel cleaned, when it is a relative path that stays
// below the config's directory (before links are resolved).
func relativePath(rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("empty file path")
	}
	if filepath.IsAbs(rel) {
		return "", fmt.Errorf("file %q: absolute paths are not allowed; give a path relative to the config's directory", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if escapes(clean) {
		return "", fmt.Errorf("file %q is outside the config's directory", rel)
	}
	return clean, nil
}

// realPath is dir, absolute and free of links. Both sides of within must
// be: a relative root against a link's absolute target cannot be compared
// at all (filepath.Rel fails), which once let every link through.
func realPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// notResolved says why the path rel (clean, below dir) could not be
// resolved: where it was looked for, when it is not there.
func (f Files) notResolved(rel, dir, clean string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("file %q: %w%s %s", rel, unwrapPathError(err), nearFile(dir, clean), f.lookedFor(dir, clean))
	}
	return fileError(rel, err)
}

// lookedFor says where a file that is not there was looked for, and why
// there: the root depends on the client, and a user who ran kpt fn eval
// from another directory, or an image without --mount, needs to know.
func (f Files) lookedFor(dir, clean string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	at := filepath.Join(abs, clean)
	why := f.Why
	switch {
	case why != "":
	case abs == string(filepath.Separator):
		top, _, _ := strings.Cut(filepath.ToSlash(clean), "/")
		why = fmt.Sprintf("the working directory, /: in a container (kpt fn eval --image) the function sees no host files; "+
			"mount them, e.g. kpt fn eval --mount type=bind,src=$PWD/%s,dst=/%s, or run the binary with --exec", top, top)
	default:
		why = "the working directory: kpt's under kpt fn eval, the kustomization directory under kustomize"
	}
	return fmt.Sprintf("(looked for %s; relative paths resolve against %s)", at, why)
}

// escapes reports whether a clean relative path leaves its directory.
func escapes(clean string) bool {
	return clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator))
}

// within reports whether path is root or below it; both are absolute and
// free of symbolic links.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && !filepath.IsAbs(rel) && !escapes(rel)
}

// readRegular reads a regular file of at most limit bytes. path has no
// symbolic links left; name is what the config called it, for messages.
func readRegular(path, name string, limit int64) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, fileError(name, err)
	}
	if err := regular(st, name, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(name, err)
	}
	defer f.Close()
	if err := stillRegular(f, st, name, limit); err != nil {
		return nil, err
	}
	return readLimited(f, name, limit)
}

// stillRegular checks the file opened against st, what was checked before
// the open: the file may have been swapped between the two.
func stillRegular(f *os.File, st fs.FileInfo, name string, limit int64) error {
	opened, err := f.Stat()
	if err != nil {
		return fileError(name, err)
	}
	if !os.SameFile(st, opened) {
		return fmt.Errorf("file %q changed while it was being read", name)
	}
	return regular(opened, name, limit)
}

// readLimited reads f to its end, refusing more than limit bytes: the file
// may have grown after the checks.
func readLimited(f io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fileError(name, err)
	}
	if int64(len(b)) > limit {
		return nil, tooLarge(name, limit)
	}
	return b, nil
}

// irregular names the kinds of file that are not regular files, in the
// order regular tells them apart.
var irregular = []struct {
	mode fs.FileMode
	what string
}{
	{fs.ModeDir, "a directory"},
	{fs.ModeNamedPipe, "a named pipe (FIFO)"},
	{fs.ModeSocket, "a socket"},
	{fs.ModeDevice, "a device"},
}

// regular refuses anything but a regular file within the size limit.
func regular(st fs.FileInfo, name string, limit int64) error {
	m := st.Mode()
	if m.IsRegular() {
		if st.Size() > limit {
			return tooLarge(name, limit)
		}
		return nil
	}
	for _, k := range irregular {
		if m&k.mode != 0 {
			return fmt.Errorf("file %q is %s, not a regular file; only regular files are read", name, k.what)
		}
	}
	return fmt.Errorf("file %q is not a regular file; only regular files are read", name)
}

func tooLarge(name string, limit int64) error {
	return fmt.Errorf("file %q is larger than the %s limit for files a config reads (%s=%s or more raises it)",
		name, formatSize(limit), MaxFileSizeEnv, formatSize(4*limit))
}

// maxFileSize is the limit from the environment, or the default.
func maxFileSize() (int64, error) {
	v := strings.TrimSpace(os.Getenv(MaxFileSizeEnv))
	if v == "" {
		return DefaultMaxFileSize, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %w", MaxFileSizeEnv, v, err)
	}
	return n, nil
}

var sizeUnits = []struct {
	suffix string
	scale  int64
}{
	{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10},
	{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"k", 1 << 10},
	{"B", 1},
}

// parseSize reads 1048576, 512Ki, 4Mi, 4MiB or 1G (units of 1024).
func parseSize(s string) (int64, error) {
	num, scale := s, int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, scale = strings.TrimSpace(rest), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/scale {
		return 0, errors.New("want a positive size in bytes, such as 1048576, 512Ki, 4Mi or 1Gi")
	}
	return n * scale, nil
}

func formatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "Gi"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "Mi"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "Ki"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + "Mi"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + "Ki"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// fileError is err, from reading the file the config calls name, with the
// file's name and without Go's repetition of its path.
func fileError(name string, err error) error {
	return fmt.Errorf("file %q: %w", name, unwrapPathError(err))
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
