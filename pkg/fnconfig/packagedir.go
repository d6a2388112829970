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
	n := configTop(config.YNode())
	if n.Kind != yaml.MappingNode {
		return ""
	}
	pkg, file := renderClaim(n)
	full, ok := packageFile(pkg, file)
	if !ok || configDoc(pkg, full, n) == nil {
		return ""
	}
	return filepath.Dir(full)
}

// renderClaim is the package directory and the config's file in it that
// kpt fn render's annotations name (the file as config.kubernetes.io/path
// when internal.config.kubernetes.io/path is absent).
func renderClaim(n *yaml.Node) (pkg, file string) {
	pkg = nestedString(n, "metadata", "annotations", "internal.config.kubernetes.io/package-path")
	file = nestedString(n, "metadata", "annotations", "internal.config.kubernetes.io/path")
	if file == "" {
		file = nestedString(n, "metadata", "annotations", "config.kubernetes.io/path")
	}
	return pkg, file
}

// packageFile is the path of file in the package directory pkg, when pkg
// is absolute and file a relative path that stays inside it.
func packageFile(pkg, file string) (string, bool) {
	if !filepath.IsAbs(pkg) {
		return "", false
	}
	return below(pkg, file)
}

// below is dir joined with rel, when rel is a relative path (not empty)
// that stays below dir before links are resolved (configDoc checks them).
func below(dir, rel string) (string, bool) {
	if rel == "" || filepath.IsAbs(rel) {
		return "", false
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if escapes(clean) {
		return "", false
	}
	return filepath.Join(dir, clean), true
}

// configDoc is the document with config's apiVersion, kind and
// metadata.name in the file at path, a regular file (within the size
// limit) below dir once links are resolved; nil when there is none.
func configDoc(dir, path string, config *yaml.Node) *yaml.Node {
	want := identity(config)
	if want == ([3]string{}) {
		return nil
	}
	raw, ok := readQuietly(dir, path)
	if !ok {
		return nil
	}
	return docWithIdentity(raw, want)
}

// readQuietly reads path under ReadFile's rules (below dir once links are
// resolved, a regular file within the size limit); ok is false when it
// cannot. The files read so place lines in messages or confirm what a
// client claims: one that cannot be read is left out, without a message.
func readQuietly(dir, path string) (raw []byte, ok bool) {
	limit, err := maxFileSize()
	if err != nil {
		return nil, false
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, false
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil || !within(root, target) {
		return nil, false
	}
	raw, err = readRegular(target, path, limit)
	return raw, err == nil
}

// docWithIdentity is the first document of a stream whose top map has the
// identity want (identity's), or nil.
func docWithIdentity(raw []byte, want [3]string) *yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return nil // io.EOF, or YAML kpt could not have read either
		}
		if n := configTop(&doc); n.Kind == yaml.MappingNode && identity(n) == want {
			return n
		}
	}
}

// configTop is a config's top node: the content of a document node.
func configTop(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return n.Content[0]
	}
	return n
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
		n = yamltree.Lookup(n, k)
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}
