package fnconfig

import (
	"bytes"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// PackageDir decides the root a config read from a ResourceList may read
// files below (Files.Dir; "" is the working directory).
//
// Which client sent the ResourceList cannot be told from what reaches the
// function: kpt fn render and kpt fn eval run it alike (same working
// directory, same environment), and under kpt fn eval --fn-config and
// kustomize the config's annotations are whatever its author wrote —
// including internal.config.kubernetes.io/package-path and .../path, and
// even on the package's resources. kpt fn render is the one client that sets
// those two annotations itself, to the package directory and the config
// file's path in it.
//
// So the annotations are a claim, and the file system must confirm it: the
// named file is a regular file (within the size limit) inside the named
// package, and holds a document with the config's apiVersion, kind and name.
// Then the root is that file's directory. A claim like package-path: / with
// path: etc/x.yaml fails the check (no /etc/x.yaml holds the config), and the
// root stays the working directory: kpt's (eval) or the kustomization
// directory (kustomize). An author who could put such a file in a directory
// could write there anyway.
func PackageDir(config *yaml.RNode) string {
	if config == nil {
		return ""
	}
	n := config.YNode()
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return ""
	}
	pkg := nestedString(n, "metadata", "annotations", "internal.config.kubernetes.io/package-path")
	file := nestedString(n, "metadata", "annotations", "internal.config.kubernetes.io/path")
	if file == "" {
		file = nestedString(n, "metadata", "annotations", "config.kubernetes.io/path")
	}
	if pkg == "" || file == "" || !filepath.IsAbs(pkg) || filepath.IsAbs(file) {
		return ""
	}
	clean := filepath.Clean(filepath.FromSlash(file))
	if escapes(clean) {
		return ""
	}
	full := filepath.Join(pkg, clean)
	if !holdsConfig(pkg, full, n) {
		return ""
	}
	return filepath.Dir(full)
}

// holdsConfig reports whether path, below pkg once links are resolved, is a
// regular file holding a document with config's apiVersion, kind and
// metadata.name.
func holdsConfig(pkg, path string, config *yaml.Node) bool {
	return configDoc(pkg, path, config) != nil
}

// configDoc is the document of holdsConfig, or nil.
func configDoc(pkg, path string, config *yaml.Node) *yaml.Node {
	limit, err := maxFileSize()
	if err != nil {
		return nil
	}
	root, err := filepath.EvalSymlinks(pkg)
	if err != nil {
		return nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil || !within(root, target) {
		return nil
	}
	raw, err := readRegular(target, path, limit)
	if err != nil {
		return nil
	}
	want := identity(config)
	if want == ([3]string{}) {
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return nil // io.EOF, or YAML kpt could not have read either
		}
		n := &doc
		if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
			n = n.Content[0]
		}
		if n.Kind == yaml.MappingNode && identity(n) == want {
			return n
		}
	}
}

// identity is apiVersion, kind and metadata.name, read without kyaml's
// getters (which panic on malformed metadata).
func identity(n *yaml.Node) [3]string {
	return [3]string{nestedString(n, "apiVersion"), nestedString(n, "kind"), nestedString(n, "metadata", "name")}
}

// nestedString is the scalar at a path of map keys, or "".
func nestedString(n *yaml.Node, keys ...string) string {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return ""
		}
		n = mapField(n, k)
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// mapField is the value of a map's key, or nil (yamltree.Lookup, under
// the name this package's files use).
func mapField(n *yaml.Node, name string) *yaml.Node { return yamltree.Lookup(n, name) }
