package e2e

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The pages whose commands the tests run. In them every fenced block of
// commands (```sh) is named on its opening line, after the language (which
// is all GitHub reads of that line):
//
//	```sh doc=NAME
//
// and a test reads the block by that name (docBlock) and runs it, or uses
// it as the file it shows (a plugin.yaml, a workflow). On docs/integrations.md
// every block is named so, output included. TestDocBlocksCovered proves that
// every named block is read by a test and every block a test reads exists,
// so a command added to a page without a test fails here.
var docPages = map[string]bool{"README.md": false, "docs/integrations.md": true} // page → all blocks named

var (
	golden = regexp.MustCompile("^<!-- golden: [^ ]+ [^ ]+ -->$")
	fence  = regexp.MustCompile("^```([A-Za-z0-9]*)(?: doc=([A-Za-z0-9-]+))?$")
)

// A docFence is one fenced block of a page.
type docFence struct {
	line       int    // of the opening fence, 1-based
	lang, text string // text ends with a newline
	name       string // from doc=NAME on the opening line, or ""
	golden     bool   // preceded by a golden marker (internal/readme checks it)
}

// docFences reads every fenced block of a page.
func docFences(t *testing.T, page string) []docFence {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(env.root, page))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var blocks []docFence
	for i := 0; i < len(lines); i++ {
		m := fence.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		b := docFence{line: i + 1, lang: m[1], name: m[2], golden: i > 0 && golden.MatchString(lines[i-1])}
		var body strings.Builder
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body.WriteString(lines[i] + "\n")
		}
		if i == len(lines) {
			t.Fatalf("%s:%d: unterminated block", page, b.line)
		}
		b.text = body.String()
		blocks = append(blocks, b)
	}
	return blocks
}

// docBlock returns the text of the block named name on page.
func docBlock(t *testing.T, page, name string) string {
	t.Helper()
	for _, b := range docFences(t, page) {
		if b.name == name {
			return b.text
		}
	}
	t.Fatalf("%s has no block ```LANG doc=%s", page, name)
	return ""
}

// TestDocBlocksCovered: every command block of the pages is named, every
// name is read by some test of this package (a docBlock call with literal
// arguments), and every block a test reads exists.
func TestDocBlocksCovered(t *testing.T) {
	read := docBlockCalls(t)
	named := map[string]bool{}
	for page, all := range docPages {
		for _, b := range docFences(t, page) {
			switch {
			case b.name != "":
				key := page + "#" + b.name
				if named[key] {
					t.Errorf("%s:%d: a second block named %s", page, b.line, b.name)
				}
				named[key] = true
				if !read[key] {
					t.Errorf("%s:%d: block %s is read by no test (docBlock(t, %q, %q))", page, b.line, b.name, page, b.name)
				}
			case b.golden:
			case b.lang == "sh" || all:
				t.Errorf("%s:%d: a ```%s block with no doc=NAME: which test runs it?", page, b.line, b.lang)
			}
		}
	}
	for key := range read {
		if !named[key] {
			t.Errorf("a test reads %s, which no page has", key)
		}
	}
}

// docBlockCalls finds the docBlock(t, PAGE, NAME) calls in this package's
// source: page#name → true.
func docBlockCalls(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(env.root, "e2e", "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 3 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "docBlock" {
				return true
			}
			page, err1 := literal(call.Args[1])
			name, err2 := literal(call.Args[2])
			if err1 != nil || err2 != nil {
				t.Errorf("%s: docBlock takes literal page and name, so that coverage can be checked", fset.Position(call.Pos()))
				return true
			}
			calls[page+"#"+name] = true
			return true
		})
	}
	return calls
}

func literal(e ast.Expr) (string, error) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", fmt.Errorf("not a string literal")
	}
	return strconv.Unquote(lit.Value)
}

// A docShell is a new user's shell in a scratch copy of the repository:
// their own HOME, and a PATH without the tools `make` puts there for the
// tests (bin/tools), so a page that forgets to say how a tool gets on PATH
// fails here as it would for them. bin/ holds this run's binaries, as after
// `make build`; bin/tools is the repository's pinned tools (read only).
type docShell struct {
	dir  string   // the scratch repository
	home string   // HOME
	path []string // extra PATH entries, first
	env  []string // extra variables
}

func newDocShell(t *testing.T) *docShell {
	t.Helper()
	base := t.TempDir()
	sh := &docShell{dir: filepath.Join(base, "repo"), home: filepath.Join(base, "home")}
	copyRepo(t, sh.dir)
	if err := os.MkdirAll(sh.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(sh.dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, bin := range env.built {
		copyFile(t, bin, filepath.Join(sh.dir, "bin", name), 0o755)
	}
	if err := os.Symlink(filepath.Join(env.root, "bin", "tools"), filepath.Join(sh.dir, "bin", "tools")); err != nil {
		t.Fatal(err)
	}
	return sh
}

// withTool puts a tool on the shell's PATH under the name the page uses
// (helm for bin/tools/helm4, say), as a user's own installation would be.
func (sh *docShell) withTool(t *testing.T, name, path string) {
	t.Helper()
	dir := filepath.Join(filepath.Dir(sh.home), "path-"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	sh.path = append(sh.path, dir)
}

// environ is the shell's environment. Go's caches stay where they are
// (a new HOME would otherwise mean downloading every module again).
func (sh *docShell) environ(t *testing.T) []string {
	t.Helper()
	var path []string
	path = append(path, sh.path...)
	tools := filepath.Join(env.root, "bin", "tools")
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if filepath.Clean(p) != tools {
			path = append(path, p)
		}
	}
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "PATH", "KUSTOMIZE", "HELM3", "HELM4", "HELM_PLUGINS", "HELM_CONFIG_HOME", "HELM_DATA_HOME", "HELM_CACHE_HOME",
			"CONTAINERS_CONF", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
			// make test's own: a nested make would print "Entering directory".
			"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKE_TERMOUT", "MAKE_TERMERR":
			continue
		}
		out = append(out, kv)
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out = append(out, k+"="+goEnv(t, k))
	}
	out = append(out, "HOME="+sh.home, "PATH="+strings.Join(path, string(os.PathListSeparator)), "GOTOOLCHAIN=local")
	return append(out, sh.env...)
}

// run runs a page's block with bash -euo pipefail in the scratch repository
// (or dir below it, when given).
func (sh *docShell) run(t *testing.T, script string, dir ...string) result {
	t.Helper()
	cwd := sh.dir
	if len(dir) > 0 {
		cwd = filepath.Join(sh.dir, dir[0])
	}
	r := runExact(t, cwd, sh.environ(t), "bash", "-euo", "pipefail", "-c", script)
	r.cmd = "bash -c <<'EOF'\n" + script + "EOF"
	return r
}

// runExact runs a command in dir with exactly the environment given (run
// adds to the test's own).
func runExact(t *testing.T, dir string, environ []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = environ
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{cmd: name + " " + strings.Join(args, " "), stdout: stdout.String(), stderr: stderr.String()}
	if exit, ok := err.(*exec.ExitError); ok {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", r.cmd, err)
	}
	return r
}

// mustRun runs a block that must succeed.
func (sh *docShell) mustRun(t *testing.T, script string, dir ...string) result {
	t.Helper()
	r := sh.run(t, script, dir...)
	if r.code != 0 {
		t.Fatalf("a documented command failed:\n%s", r)
	}
	return r
}

var goEnvCache = map[string]string{}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	if v, ok := goEnvCache[key]; ok {
		return v
	}
	out, err := exec.Command(goTool(), "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	goEnvCache[key] = strings.TrimSpace(string(out))
	return goEnvCache[key]
}

// copyRepo copies the repository's files (tracked and new, as git lists
// them: no bin/, dist/ or other ignored output) to dst, keeping modes.
func copyRepo(t *testing.T, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", env.root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("listing the repository's files (a git checkout is needed): %v", err)
	}
	for _, rel := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		src := filepath.Join(env.root, rel)
		info, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if info.Mode()&os.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link, target); err != nil {
				t.Fatal(err)
			}
			continue
		}
		copyFile(t, src, target, info.Mode().Perm())
	}
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, raw, mode); err != nil {
		t.Fatal(err)
	}
}

// docDocs splits a YAML stream into its documents, each trimmed, for
// comparisons that ignore only the blank lines and leading "---" a tool adds
// between documents (comments, order and quoting still count).
func docDocs(stream string) []string {
	var docs []string
	for _, d := range regexp.MustCompile(`(?m)^---[ \t]*$`).Split(stream, -1) {
		if d = strings.TrimSpace(d); d != "" {
			docs = append(docs, d)
		}
	}
	return docs
}

// sameDocs reports the first difference between two YAML streams, document
// by document, or "".
func sameDocs(want, got string) string {
	w, g := docDocs(want), docDocs(got)
	for i := range max(len(w), len(g)) {
		if i >= len(w) || i >= len(g) || w[i] != g[i] {
			var a, b string
			if i < len(w) {
				a = w[i]
			}
			if i < len(g) {
				b = g[i]
			}
			return fmt.Sprintf("document %d differs:\n--- want\n%s\n--- got\n%s", i, a, b)
		}
	}
	return ""
}
