package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// enumField is a struct field holding an enum type's values: the field
// itself, or the elements of the list it is.
type enumField struct {
	values []string
	list   bool
}

// goEnums is what the Go sources of the API types say about enums: the
// types carrying a +enum marker, the string constants of each type, and
// the type of each struct field (by schema name and JSON name), with the
// structs each struct embeds inline.
type goEnums struct {
	enums   map[string]bool
	consts  map[string][]string
	fields  map[string]map[string]fieldType
	inlines map[string][]string
}

// fieldType is a field's type by schema name; list: a list of it.
type fieldType struct {
	name string
	list bool
}

// readEnums reads the Go packages of the modules (dirs: their directories)
// and returns the enum fields of each struct, by schema name and JSON name.
func readEnums(dirs map[string]string, modules []string) (map[string]map[string]enumField, error) {
	g := &goEnums{enums: map[string]bool{}, consts: map[string][]string{}, fields: map[string]map[string]fieldType{}, inlines: map[string][]string{}}
	for _, m := range modules {
		if err := g.readModule(dirs[m], m); err != nil {
			return nil, err
		}
	}
	out := map[string]map[string]enumField{}
	for owner := range g.fields {
		for name, ef := range g.enumFields(owner, 0) {
			if out[owner] == nil {
				out[owner] = map[string]enumField{}
			}
			out[owner][name] = ef
		}
	}
	return out, nil
}

// enumFields are the enum fields of a struct, those of the structs it
// embeds inline included.
func (g *goEnums) enumFields(owner string, depth int) map[string]enumField {
	out := map[string]enumField{}
	if depth > 8 {
		return out
	}
	for _, in := range g.inlines[owner] {
		for k, v := range g.enumFields(in, depth+1) {
			out[k] = v
		}
	}
	for name, ft := range g.fields[owner] {
		if g.enums[ft.name] && len(g.consts[ft.name]) > 0 {
			values := slices.Compact(slices.Sorted(slices.Values(g.consts[ft.name])))
			out[name] = enumField{values: values, list: ft.list}
		}
	}
	return out
}

// readModule parses the Go files of a module's packages; generated code
// (protobuf, deep copies) says nothing of enums and is skipped.
func (g *goEnums) readModule(dir, module string) error {
	fset := token.NewFileSet()
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && skipDir(d.Name()):
			return filepath.SkipDir
		case d.IsDir() || !goSource(d.Name()):
			return nil
		}
		rel, err := filepath.Rel(dir, filepath.Dir(path))
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		g.readFile(f, schemaPrefix(importPath(module, rel)))
		return nil
	})
}

func goSource(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") &&
		!strings.HasPrefix(name, "generated.") && !strings.HasPrefix(name, "zz_generated")
}

// readFile records a file's enum types, typed string constants and
// struct fields.
func (g *goEnums) readFile(f *ast.File, prefix string) {
	imports := importsOf(f)
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gd.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				g.typeSpec(s, gd, prefix, imports)
			case *ast.ValueSpec:
				g.constSpec(s, gd.Tok, prefix)
			}
		}
	}
}

// typeSpec records an enum type, or a struct's fields.
func (g *goEnums) typeSpec(s *ast.TypeSpec, gd *ast.GenDecl, prefix string, imports map[string]string) {
	name := prefix + "." + s.Name.Name
	if hasMarker(s.Doc, "+enum") || hasMarker(gd.Doc, "+enum") {
		g.enums[name] = true
	}
	st, ok := s.Type.(*ast.StructType)
	if !ok {
		return
	}
	fields := map[string]fieldType{}
	for _, fl := range st.Fields.List {
		tag, ok := structTag(fl)
		if !ok {
			continue
		}
		jsonName, opts, _ := strings.Cut(tag.Get("json"), ",")
		t, list := fl.Type, false
		if arr, ok := t.(*ast.ArrayType); ok {
			t, list = arr.Elt, true
		}
		typ := typeName(t, prefix, imports)
		switch {
		case jsonName == "" && strings.Contains(","+opts+",", ",inline,"):
			g.inlines[name] = append(g.inlines[name], typ)
		case jsonName != "" && jsonName != "-" && typ != "":
			fields[jsonName] = fieldType{name: typ, list: list}
		}
	}
	g.fields[name] = fields
}

// constSpec records the string constants of a named type.
func (g *goEnums) constSpec(s *ast.ValueSpec, tok token.Token, prefix string) {
	id, ok := s.Type.(*ast.Ident)
	if tok != token.CONST || !ok {
		return
	}
	for _, v := range s.Values {
		if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if text, err := strconv.Unquote(lit.Value); err == nil {
				g.consts[prefix+"."+id.Name] = append(g.consts[prefix+"."+id.Name], text)
			}
		}
	}
}

// hasMarker reports whether a comment carries a marker line (+enum).
func hasMarker(doc *ast.CommentGroup, marker string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if strings.TrimSpace(strings.TrimPrefix(c.Text, "//")) == marker {
			return true
		}
	}
	return false
}
