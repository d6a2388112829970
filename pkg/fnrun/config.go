package fnrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/yamljson"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Decode decodes a config into a struct with json tags. Unknown fields are
// errors: a misspelt field silently ignored is the kind of surprise our
// users lose hours to.
func Decode(config *yaml.RNode, into any) error {
	b, err := yamljson.Encode(config.YNode())
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("config %s %q: %s", config.GetKind(), config.GetName(), strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// ReadFile reads a file named in the config, relative to the config's
// directory. The path must stay inside that directory: configs are shared
// and run in pipelines, and must not reach files elsewhere on the machine.
func (r *Request) ReadFile(rel string) ([]byte, error) {
	if rel == "" {
		return nil, fmt.Errorf("empty file path")
	}
	if filepath.IsAbs(rel) {
		return nil, fmt.Errorf("file %q: absolute paths are not allowed; give a path relative to the config's directory", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("file %q is outside the config's directory", rel)
	}
	dir := r.ConfigDir
	if dir == "" {
		dir = "."
	}
	full := filepath.Join(dir, clean)
	// A symlink could still lead out of the directory.
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", rel, err)
	}
	realFull, err := filepath.EvalSymlinks(full)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", rel, unwrapPathError(err))
	}
	if inside, _ := filepath.Rel(realDir, realFull); inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("file %q leads outside the config's directory (through a symbolic link)", rel)
	}
	b, err := os.ReadFile(realFull)
	if err != nil {
		return nil, fmt.Errorf("file %q: %w", rel, unwrapPathError(err))
	}
	return b, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// InlineOrFile returns an entry's content given either inline (the config's
// `patch` field) or as a file (`path`, with `file` accepted as the KEP's
// name for it).
func (r *Request) InlineOrFile(inline, path, file string) (string, error) {
	if file != "" {
		if path != "" && path != file {
			return "", fmt.Errorf("path and file name the same thing; give one")
		}
		path = file
	}
	switch {
	case inline != "" && path != "":
		return "", fmt.Errorf("both patch and path are set; give one")
	case inline != "":
		return inline, nil
	case path != "":
		b, err := r.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("path: %w", err)
		}
		return string(b), nil
	}
	return "", nil
}
