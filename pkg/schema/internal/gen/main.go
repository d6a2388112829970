package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// source is one Kubernetes module whose embedded schema and API types we read.
type source struct {
	module string // module path, e.g. k8s.io/client-go
	schema string // file holding the schemaYAML literal, relative to the module
	types  string // module holding the Go API types
}

// sources are read in this order; a type name defined by several (the
// apimachinery meta types every client repeats) is taken from the first.
var sources = []source{
	{module: "k8s.io/client-go", schema: "applyconfigurations/internal/internal.go", types: "k8s.io/api"},
	{module: "k8s.io/apiextensions-apiserver", schema: "pkg/client/applyconfiguration/internal/internal.go", types: "k8s.io/apiextensions-apiserver"},
	{module: "k8s.io/kube-aggregator", schema: "pkg/client/applyconfiguration/internal/internal.go", types: "k8s.io/kube-aggregator"},
}

func main() {
	version := flag.String("version", "", "version of the k8s.io modules, e.g. v0.37.2 (Kubernetes 1.37.2)")
	out := flag.String("o", "zz_builtin.go", "output file")
	applyOut := flag.String("apply", "", "output file of package apply's tables (none when empty)")
	rules := flag.Bool("rules", false, "write the validation rules (rules.go) instead of the merge tables")
	flag.Parse()
	var err error
	if *rules {
		err = runRules(*version, *out)
	} else {
		err = run(*version, *out, *applyOut)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(version, out, applyOut string) error {
	if !strings.HasPrefix(version, "v0.") {
		return errors.New("-version must be a k8s.io module version such as v0.37.2")
	}
	dirs, err := download(modules(version))
	if err != nil {
		return err
	}
	g, err := readSources(version, dirs)
	if err != nil {
		return err
	}
	src, err := g.emit(version, sourceList(version))
	if err != nil {
		return err
	}
	if err := writeGo(out, src); err != nil || applyOut == "" {
		return err
	}
	if src, err = g.emitApply(version, sourceList(version)); err != nil {
		return err
	}
	return writeGo(applyOut, src)
}

// writeGo writes generated Go source, formatted.
func writeGo(path string, src []byte) error {
	formatted, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s: %w", path, err)
	}
	return os.WriteFile(path, formatted, 0o644)
}

// modules are the modules the sources need, at version.
func modules(version string) []string {
	var mods []string
	for _, s := range sources {
		mods = append(mods, s.module+"@"+version, s.types+"@"+version)
	}
	return mods
}

// readSources reads every source, from the modules' directories, into one
// resolved graph.
func readSources(version string, dirs map[string]string) (*graph, error) {
	g := newGraph()
	for _, s := range sources {
		if err := g.read(s, version, dirs); err != nil {
			return nil, err
		}
	}
	return g, g.resolve()
}

// read adds a source: its module's schema and its types module's Go
// packages.
func (g *graph) read(s source, version string, dirs map[string]string) error {
	defs, err := readSchema(filepath.Join(dirs[s.module], s.schema))
	if err != nil {
		return fmt.Errorf("%s@%s: %w", s.module, version, err)
	}
	pkgs, err := readPackages(dirs[s.types], s.types, prefixesOf(defs))
	if err != nil {
		return fmt.Errorf("%s@%s: %w", s.types, version, err)
	}
	if err := g.add(defs, pkgs); err != nil {
		return fmt.Errorf("%s@%s: %w", s.module, version, err)
	}
	return nil
}

func sourceList(version string) []string {
	var l []string
	seen := map[string]bool{}
	for _, s := range sources {
		for _, m := range []string{s.module, s.types} {
			if !seen[m] {
				seen[m] = true
				l = append(l, m+"@"+version)
			}
		}
	}
	return l
}

// download fetches modules through the module proxy (GOPROXY) into the module
// cache and returns their directories by module path. It runs in an empty
// directory so that the go.mod of the project is never touched.
func download(mods []string) (map[string]string, error) {
	tmp, err := os.MkdirTemp("", "schema-gen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.Command("go", append([]string{"mod", "download", "-json"}, mods...)...)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GO111MODULE=on", "GOFLAGS=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	// go mod download -json reports per-module errors in its output and exits 1.
	dirs := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(stdout))
	for dec.More() {
		var m struct{ Path, Version, Dir, Error string }
		if derr := dec.Decode(&m); derr != nil {
			return nil, fmt.Errorf("go mod download: %v (%s)", derr, stderr.String())
		}
		if m.Error != "" {
			return nil, fmt.Errorf("go mod download %s@%s: %s", m.Path, m.Version, m.Error)
		}
		dirs[m.Path] = m.Dir
	}
	if err != nil {
		return nil, fmt.Errorf("go mod download: %v: %s", err, stderr.String())
	}
	return dirs, nil
}
