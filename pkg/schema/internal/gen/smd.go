package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The structured-merge schema (sigs.k8s.io/structured-merge-diff) as the
// clients embed it; only the parts merging needs are decoded.

type smdSchema struct {
	Types []smdDef `yaml:"types"`
}

// smdDef is a named type definition.
type smdDef struct {
	Name   string `yaml:"name"`
	smdRef `yaml:",inline"`
}

// smdRef is a type: a reference to a named one, or an inline definition.
// A definition may be several things at once (untyped values).
type smdRef struct {
	NamedType string   `yaml:"namedType"`
	Scalar    string   `yaml:"scalar"`
	List      *smdList `yaml:"list"`
	Map       *smdMap  `yaml:"map"`
	// Relationship, beside a namedType, overrides the named type's own
	// (a field that is atomic where its type is not).
	Relationship string `yaml:"elementRelationship"`
}

type smdList struct {
	ElementType  smdRef   `yaml:"elementType"`
	Relationship string   `yaml:"elementRelationship"` // atomic (default) or associative
	Keys         []string `yaml:"keys"`
}

type smdMap struct {
	Fields       []smdField `yaml:"fields"`
	ElementType  *smdRef    `yaml:"elementType"`
	Relationship string     `yaml:"elementRelationship"`
}

type smdField struct {
	Name    string `yaml:"name"`
	Type    smdRef `yaml:"type"`
	Default any    `yaml:"default"`
}

// readSchema extracts the schemaYAML string literal from a generated
// internal.go and decodes it.
func readSchema(path string) ([]smdDef, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	lit := schemaLiteral(f)
	if lit == nil || lit.Kind != token.STRING {
		return nil, fmt.Errorf("%s: no schemaYAML string literal", path)
	}
	text, err := strconv.Unquote(lit.Value)
	if err != nil {
		return nil, fmt.Errorf("%s: schemaYAML: %w", path, err)
	}
	var s smdSchema
	if err := yaml.Unmarshal([]byte(text), &s); err != nil {
		return nil, fmt.Errorf("%s: schemaYAML: %w", path, err)
	}
	if len(s.Types) == 0 {
		return nil, errors.New(path + ": schemaYAML defines no types")
	}
	return s.Types, nil
}

// schemaLiteral finds the value of `var schemaYAML = typed.YAMLObject(...)`
// (or of a plain string).
func schemaLiteral(f *ast.File) *ast.BasicLit {
	var lit *ast.BasicLit
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "schemaYAML" || len(vs.Values) != 1 {
			return lit == nil
		}
		v := vs.Values[0]
		if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 { // typed.YAMLObject(`...`)
			v = call.Args[0]
		}
		lit, _ = v.(*ast.BasicLit)
		return false
	})
	return lit
}

// prefixesOf returns the package prefixes of the schema's type names
// ("io.k8s.api.apps.v1" for "io.k8s.api.apps.v1.Deployment").
func prefixesOf(defs []smdDef) map[string]bool {
	p := map[string]bool{}
	for _, d := range defs {
		if i := strings.LastIndexByte(d.Name, '.'); i > 0 {
			p[d.Name[:i]] = true
		}
	}
	return p
}

// schemaPrefix is the schema's name for a Go package: the import path with
// its host reversed and slashes as dots (k8s.io/api/apps/v1 →
// io.k8s.api.apps.v1), as kube-openapi names definitions.
func schemaPrefix(importPath string) string {
	host, rest, _ := strings.Cut(importPath, "/")
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	p := strings.Join(labels, ".")
	if rest != "" {
		p += "." + strings.ReplaceAll(rest, "/", ".")
	}
	return p
}
