package readme

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// ruleRow is one row of docs/architecture.md's table of rules that live in
// exactly one place: the rule, its file, and what the file declares for it.
type ruleRow struct {
	line  int
	rule  string
	file  string
	names []string
}

// minRules is how many rules the table named when this test was written: a
// table that loses rows fails here rather than passing with fewer checks.
const minRules = 25

var (
	rulesHeader = regexp.MustCompile(`^\| rule \| file \| identifiers \|$`)
	ruleLine    = regexp.MustCompile("^\\| (.+) \\| `([^`]+)` \\| ((?:`[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)?`(?:, )?)+) \\|$")
	backquoted  = regexp.MustCompile("`([^`]+)`")
)

// sameNameElsewhere lists the functions of another file that share an
// exported name with one the rules table names, and are another thing: each
// says why, so that a new function of the same name fails the test until
// someone has looked.
var sameNameElsewhere = map[string]string{
	"Parse in pkg/embedpatch/embedpatch.go":         "parses a patch of a given type, not a field path",
	"Parse in pkg/patch/parse.go":                   "compiles a patch's text into documents, not a field path",
	"Parse in pkg/fieldpath/fieldpath.go":           "parses a field path, not a patch",
	"Split in pkg/entry/results.go":                 "splits joined errors into results, not a YAML stream",
	"Parse in pkg/embedded/internal/span/format.go": "reads a document held in a string into byte spans, not a field path or a patch",
	"Load in pkg/kv/kv.go":                          "loads a generator's literals, env files and files, not merge metadata",
	"Describe in pkg/fnrun/results.go":              "names a resource (apps/v1 Deployment prod/api), not what a value is",
	"Describe in pkg/selector/index.go":             "reads a resource's identifying metadata, not words for a value",
	"Regexp in internal/suggest/pattern.go":         "words why RE2 does not read a pattern, not a compile within the size limit",
	"Regexp in internal/budget/regexp.go":           "compiles a pattern within the size limit, not words about one RE2 does not read",
}

// TestArchitectureRules keeps docs/architecture.md's rules table true: the
// file of every rule exists and declares every identifier its row names (a
// function, type, variable or constant; Type.Method or Type.Field), and no
// other non-test Go file of the module declares a function with the name of
// an exported function the table names (Name, or Type.Method): a second
// declaration is where a second copy of a rule starts. Types, variables
// and fields are not held to that: Set, Type, Tree are nouns many packages
// use for their own data, and a rule is behaviour, copied as a function.
func TestArchitectureRules(t *testing.T) {
	rows := ruleRows(t)
	if len(rows) < minRules {
		t.Errorf("docs/architecture.md's rules table has %d rows, want at least %d", len(rows), minRules)
	}
	funcs := moduleFuncs(t)
	for _, r := range rows {
		declared := fileDecls(t, filepath.Join(root, r.file))
		for _, name := range r.names {
			isFunc, ok := declared[name]
			if !ok {
				t.Errorf("docs/architecture.md:%d: %s does not declare %s (rule: %s)", r.line, r.file, name, r.rule)
				continue
			}
			if !isFunc || !exported(name) {
				continue
			}
			for _, other := range funcs[name] {
				if other != r.file && sameNameElsewhere[name+" in "+other] == "" {
					t.Errorf("docs/architecture.md:%d: %s is declared in %s as well as in %s (rule: %s): a second copy of the rule? "+
						"(if it is another thing, say why in sameNameElsewhere)", r.line, name, other, r.file, r.rule)
				}
			}
		}
	}
}

// ruleRows reads the table that follows the header "| rule | file |
// identifiers |"; every row must have one file and at least one identifier.
func ruleRows(t *testing.T) []ruleRow {
	t.Helper()
	text, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	start := -1
	for i, l := range lines {
		if rulesHeader.MatchString(l) {
			start = i + 2 // past the |---| line
			break
		}
	}
	if start < 0 {
		t.Fatal("docs/architecture.md has no rules table (| rule | file | identifiers |)")
	}
	var rows []ruleRow
	for i := start; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		m := ruleLine.FindStringSubmatch(lines[i])
		if m == nil {
			t.Errorf("docs/architecture.md:%d: not a row of the rules table (| rule | `file` | `Name`, `Type.Name` |): %s", i+1, lines[i])
			continue
		}
		r := ruleRow{line: i + 1, rule: m[1], file: m[2]}
		for _, n := range backquoted.FindAllStringSubmatch(m[3], -1) {
			r.names = append(r.names, n[1])
		}
		rows = append(rows, r)
	}
	return rows
}

// fileDecls maps what a Go file declares at top level to whether it is a
// function: functions, types, variables and constants by name, methods as
// Type.Method, and the fields and interface methods of its types as
// Type.Field.
func fileDecls(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Errorf("%v", err)
		return nil
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			out[funcName(d)] = true
		case *ast.GenDecl:
			for _, s := range d.Specs {
				for _, n := range specNames(s) {
					out[n] = false
				}
			}
		}
	}
	return out
}

// funcName is a function's name, or Type.Method for a method.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	typ := d.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr: // a generic receiver, T[N]
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + d.Name.Name
		}
		return d.Name.Name
	}
}

// specNames are the names a type, var or const spec declares, with a
// type's fields and interface methods as Type.Name.
func specNames(s ast.Spec) []string {
	switch s := s.(type) {
	case *ast.ValueSpec:
		var out []string
		for _, n := range s.Names {
			out = append(out, n.Name)
		}
		return out
	case *ast.TypeSpec:
		out := []string{s.Name.Name}
		var fields *ast.FieldList
		switch x := s.Type.(type) {
		case *ast.StructType:
			fields = x.Fields
		case *ast.InterfaceType:
			fields = x.Methods
		}
		if fields != nil {
			for _, f := range fields.List {
				for _, n := range f.Names {
					out = append(out, s.Name.Name+"."+n.Name)
				}
			}
		}
		return out
	}
	return nil
}

// moduleFuncs maps each exported function and method (Name, or
// Type.Method) of the module's non-test Go files outside testdata to the
// files declaring it.
func moduleFuncs(t *testing.T) map[string][]string {
	t.Helper()
	decls := map[string][]string{}
	for _, top := range []string{"pkg", "internal", "functions"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			rel = filepath.ToSlash(rel)
			for name, isFunc := range fileDecls(t, path) {
				if isFunc && exported(name) {
					decls[name] = append(decls[name], rel)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, files := range decls {
		sort.Strings(files)
	}
	return decls
}

// exported reports whether every part of Name or Type.Name is exported.
func exported(name string) bool {
	for _, part := range strings.Split(name, ".") {
		if !ast.IsExported(part) {
			return false
		}
	}
	return true
}
