package kptpipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Problem is one thing of a package Untrusted refuses.
type Problem struct {
	// File is the Kptfile (or the link), relative to the package
	// directory, with slashes: "Kptfile", "nested/Kptfile".
	File string
	// Entry is the pipeline entry ("pipeline.mutators[1]"), or "" for the
	// file as a whole.
	Entry string
	Msg   string
}

func (p Problem) String() string {
	if p.Entry == "" {
		return p.File + ": " + p.Msg
	}
	return p.File + ": " + p.Entry + ": " + p.Msg
}

// maxKptfileSize bounds the Kptfiles Untrusted reads: real ones are a few
// hundred bytes.
const maxKptfileSize = 1 << 20

// fields are the fields of a pipeline entry that run nothing of their
// own: the function (exec), its config and which resources it sees. An
// image, and any field this check does not know (a later kpt's), is
// refused.
var fields = []string{"exec", "configPath", "configMap", "name", "selectors", "exclude"}

// Untrusted walks the package directory dir as kpt fn render would render it
// (every Kptfile below it, nested packages included) and returns what it
// refuses: a pipeline entry whose exec is not one of trusted by name, an
// image, a field it does not know, a Kptfile it cannot read as kpt would,
// and a symbolic link to a directory (a package it cannot vouch for). No
// problem: the pipelines run only trusted functions. The error is one
// reading dir itself.
func Untrusted(dir string, trusted []string) ([]Problem, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	var out []Problem
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel := relative(dir, path)
		switch {
		case err != nil:
			out = append(out, Problem{File: rel, Msg: "cannot be read: " + plainError(err)})
		case d.Type()&fs.ModeSymlink != 0:
			out = append(out, checkLink(path, rel, d.Name(), trusted)...)
		case d.Name() == "Kptfile":
			out = append(out, checkFile(path, rel, trusted)...)
		}
		return nil
	})
	return out, err
}

func relative(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// checkLink checks a symbolic link: to a directory it is refused (kpt may
// render a package there); a Kptfile it names is checked.
func checkLink(path, rel, name string, trusted []string) []Problem {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return []Problem{{File: rel, Msg: "a symbolic link to a directory, which may hold a package this check does not see"}}
	case name == "Kptfile":
		return checkFile(path, rel, trusted)
	}
	return nil
}

// checkFile reads one Kptfile, a regular file of at most maxKptfileSize,
// and checks the pipeline of each of its documents.
func checkFile(path, rel string, trusted []string) []Problem {
	info, err := os.Stat(path)
	switch {
	case err != nil:
		return []Problem{{File: rel, Msg: "cannot be read: " + plainError(err)}}
	case !info.Mode().IsRegular():
		return []Problem{{File: rel, Msg: "is not a regular file"}}
	case info.Size() > maxKptfileSize:
		return []Problem{{File: rel, Msg: fmt.Sprintf("is larger than %d bytes", maxKptfileSize)}}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return []Problem{{File: rel, Msg: "cannot be read: " + plainError(err)}}
	}
	return checkText(raw, rel, trusted)
}

// kptfile is what of a Kptfile says what runs, as kpt's own types name
// the fields (kptfile/v1: pipeline.mutators, pipeline.validators).
type kptfile struct {
	Pipeline struct {
		Mutators   []map[string]any `yaml:"mutators"`
		Validators []map[string]any `yaml:"validators"`
	} `yaml:"pipeline"`
}

// checkText checks every document of a Kptfile's text.
func checkText(raw []byte, rel string, trusted []string) []Problem {
	var out []Problem
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for {
		var k kptfile
		err := dec.Decode(&k)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			return append(out, Problem{File: rel, Msg: "cannot be read as kpt reads a Kptfile: " + plainError(err)})
		}
		out = append(out, checkEntries(rel, "pipeline.mutators", k.Pipeline.Mutators, trusted)...)
		out = append(out, checkEntries(rel, "pipeline.validators", k.Pipeline.Validators, trusted)...)
	}
}

// checkEntries checks the entries of one pipeline list.
func checkEntries(rel, list string, entries []map[string]any, trusted []string) []Problem {
	var out []Problem
	for i, e := range entries {
		where := fmt.Sprintf("%s[%d]", list, i)
		for _, msg := range checkEntry(e, trusted) {
			out = append(out, Problem{File: rel, Entry: where, Msg: msg})
		}
	}
	return out
}

// checkEntry says what of one pipeline entry is refused.
func checkEntry(e map[string]any, trusted []string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(e)) {
		switch {
		case k == "image":
			out = append(out, fmt.Sprintf("image %s: a container image, and only %s run here", shown(e[k]), names(trusted)))
		case !slices.Contains(fields, k):
			out = append(out, fmt.Sprintf("field %q: not a field this check knows to run nothing (%s)", k, strings.Join(fields, ", ")))
		}
	}
	exec, isString := e["exec"].(string)
	switch _, has := e["exec"]; {
	case !has && e["image"] == nil:
		out = append(out, "no exec: only "+names(trusted)+" run here, as exec: <name>")
	case has && (!isString || !slices.Contains(trusted, exec)):
		out = append(out, fmt.Sprintf("exec %s is not one of %s, named alone (no path, no arguments): no other program runs here, the package's own least of all", shown(e["exec"]), names(trusted)))
	}
	return out
}

// shown is a value of a Kptfile in a message, quoted.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
}

// names says which functions are trusted, for messages.
func names(trusted []string) string {
	return "the functions trusted here (" + strings.Join(trusted, ", ") + ")"
}

// plainError is an error without the Go package prefixes a reader of the
// message has no use for.
func plainError(err error) string {
	return strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
}
