package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// goPackage is what the Go sources of one API package tell us.
type goPackage struct {
	prefix  string // schema name prefix, io.k8s.api.apps.v1
	group   string // API group; "" for the core group
	version string // API version; "" when the package declares none
	kinds   []string
	structs map[string]*goStruct // by Go type name
}

type goStruct struct {
	fields  map[string]goField // by JSON name
	inlines []string           // schema names of embedded `json:",inline"` structs
}

// goField holds a field's strategic-merge struct tags and +default= marker.
type goField struct {
	patchStrategy string // merge, retainKeys, merge,retainKeys, replace
	patchMergeKey string // may name several fields, comma-separated
	hasDefault    bool   // a +default= marker: the API defines a default
	defaultMarker string // the marker's value, as written
}

// readPackages parses the Go packages of a module whose schema prefix is
// among prefixes, keyed by prefix.
func readPackages(moduleDir, modulePath string, prefixes map[string]bool) (map[string]*goPackage, error) {
	pkgs := map[string]*goPackage{}
	err := filepath.WalkDir(moduleDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != moduleDir && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(moduleDir, path)
		if err != nil {
			return err
		}
		prefix := schemaPrefix(importPath(modulePath, rel))
		if !prefixes[prefix] {
			return nil
		}
		p, err := readPackage(path, prefix)
		if err != nil {
			return err
		}
		pkgs[prefix] = p
		return nil
	})
	return pkgs, err
}

// skipDir tells the directories of a module that hold no API package.
func skipDir(name string) bool {
	return name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// importPath is the import path of the package in directory rel of a module.
func importPath(modulePath, rel string) string {
	if rel == "." {
		return modulePath
	}
	return modulePath + "/" + filepath.ToSlash(rel)
}

// readPackage reads an API package's Go files: its structs, the kinds it
// registers and its group and version.
func readPackage(dir, prefix string) (*goPackage, error) {
	entries, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	r := &pkgReader{p: &goPackage{prefix: prefix, structs: map[string]*goStruct{}}, consts: map[string]string{}}
	fset := token.NewFileSet()
	for _, file := range entries {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		r.imports = importsOf(f)
		ast.Inspect(f, r.visit)
	}
	r.groupVersion()
	return r.p, nil
}

// pkgReader collects what readPackage finds across a package's files.
type pkgReader struct {
	p              *goPackage
	consts         map[string]string // string constants, by name
	imports        map[string]string // the current file's: local name → import path
	group, version ast.Expr          // SchemeGroupVersion's fields
}

// importsOf maps a file's local import names to their paths.
func importsOf(f *ast.File) map[string]string {
	imports := map[string]string{}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		local := path[strings.LastIndexByte(path, '/')+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
		imports[local] = path
	}
	return imports
}

func (r *pkgReader) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.ValueSpec:
		r.valueSpec(n)
	case *ast.CallExpr:
		r.addKnownTypes(n)
	case *ast.TypeSpec:
		r.typeSpec(n)
	}
	return true
}

// valueSpec records string constants and SchemeGroupVersion's fields.
func (r *pkgReader) valueSpec(n *ast.ValueSpec) {
	for i, id := range n.Names {
		if i >= len(n.Values) {
			break
		}
		if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			r.consts[id.Name], _ = strconv.Unquote(lit.Value)
		}
		if cl, ok := n.Values[i].(*ast.CompositeLit); ok && id.Name == "SchemeGroupVersion" {
			r.schemeGroupVersion(cl)
		}
	}
}

// schemeGroupVersion records the Group and Version of
// SchemeGroupVersion's literal.
func (r *pkgReader) schemeGroupVersion(cl *ast.CompositeLit) {
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch fmt.Sprint(kv.Key) {
		case "Group":
			r.group = kv.Value
		case "Version":
			r.version = kv.Value
		}
	}
}

// addKnownTypes records the kinds scheme.AddKnownTypes(gv, &Kind{}...) registers.
func (r *pkgReader) addKnownTypes(n *ast.CallExpr) {
	sel, ok := n.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "AddKnownTypes" || len(n.Args) < 2 {
		return
	}
	for _, a := range n.Args[1:] {
		if k := registered(a); k != "" {
			r.p.kinds = append(r.p.kinds, k)
		}
	}
}

// registered is the kind of an &Kind{} argument, or "".
func registered(a ast.Expr) string {
	u, ok := a.(*ast.UnaryExpr)
	if !ok {
		return ""
	}
	cl, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	if id, ok := cl.Type.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// typeSpec records a struct, or a type defined as another one.
func (r *pkgReader) typeSpec(n *ast.TypeSpec) {
	switch t := n.Type.(type) {
	case *ast.StructType:
		r.p.structs[n.Name.Name] = readStruct(t, r.p.prefix, r.imports)
	case *ast.Ident, *ast.SelectorExpr:
		// type MatchCondition v1.MatchCondition: the fields,
		// tags included, are those of the other type.
		if other := typeName(t, r.p.prefix, r.imports); other != "" {
			r.p.structs[n.Name.Name] = &goStruct{inlines: []string{other}}
		}
	}
}

// groupVersion resolves SchemeGroupVersion{Group: GroupName, Version: "v1"}
// through local constants; anything else (runtime.APIVersionInternal) is
// no version.
func (r *pkgReader) groupVersion() {
	if r.group == nil || r.version == nil {
		return
	}
	g, gok := r.constant(r.group)
	v, vok := r.constant(r.version)
	if gok && vok {
		r.p.group, r.p.version = g, v
	}
}

// constant is the value of a string literal or a local string constant.
func (r *pkgReader) constant(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := r.consts[e.Name]
		return s, ok
	}
	return "", false
}

// readStruct reads the JSON names, patch tags and +default= markers of a
// struct's fields, and the structs it embeds inline.
func readStruct(st *ast.StructType, prefix string, imports map[string]string) *goStruct {
	s := &goStruct{fields: map[string]goField{}}
	for _, fl := range st.Fields.List {
		tag, ok := structTag(fl)
		if !ok {
			continue
		}
		name, opts, _ := strings.Cut(tag.Get("json"), ",")
		switch {
		case name == "" && strings.Contains(","+opts+",", ",inline,"):
			if n := typeName(fl.Type, prefix, imports); n != "" {
				s.inlines = append(s.inlines, n)
			}
		case name != "" && name != "-":
			s.fields[name] = readField(tag, fl.Doc)
		}
	}
	return s
}

// structTag is a field's tag, when it has one.
func structTag(fl *ast.Field) (reflect.StructTag, bool) {
	if fl.Tag == nil {
		return "", false
	}
	raw, err := strconv.Unquote(fl.Tag.Value)
	return reflect.StructTag(raw), err == nil
}

// readField reads a field's patch tags and +default= marker.
func readField(tag reflect.StructTag, doc *ast.CommentGroup) goField {
	f := goField{patchStrategy: tag.Get("patchStrategy"), patchMergeKey: tag.Get("patchMergeKey")}
	if doc == nil {
		return f
	}
	for _, c := range doc.List {
		line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
		if v, ok := strings.CutPrefix(line, "+default="); ok {
			f.hasDefault, f.defaultMarker = true, v
		}
	}
	return f
}

// typeName returns the schema name of an embedded struct type.
func typeName(e ast.Expr, prefix string, imports map[string]string) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X, prefix, imports)
	case *ast.Ident:
		return prefix + "." + e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok && imports[x.Name] != "" {
			return schemaPrefix(imports[x.Name]) + "." + e.Sel.Name
		}
	}
	return ""
}
