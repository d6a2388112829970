package fnrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/internal/yamlerr"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Main is the whole of a function binary. With no arguments it reads a
// ResourceList on stdin (kpt, kustomize); with a config file it runs
// standalone on resource files (or stdin) and prints the resources.
func Main(f Function) {
	TuneGC()
	os.Exit(Command(f, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Command runs the binary's command line and returns its exit code:
// 0 success, 1 the function failed, 2 a usage or input problem.
func Command(f Function, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (strings.HasPrefix(args[0], "-") && args[0] != "-" || args[0] == "help") {
		return f.flag(args, stdout, stderr)
	}
	if len(args) == 0 {
		outcome, err := RunResourceList(f, stdin, stdout, "")
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", f.Name, err)
			return 2
		}
		if !outcome.ShownByClient {
			// kustomize: stderr is all its user sees, and a line per
			// entry on every build would bury the warnings; the summaries
			// are for kpt, which shows results, and standalone runs.
			printResults(stderr, outcome.Results[:len(outcome.Results)-outcome.Summaries])
		}
		if outcome.Failed {
			return 1
		}
		return 0
	}
	return f.standalone(args[0], args[1:], stdin, stdout, stderr)
}

// flag runs a command line that starts with a flag: --help (or help),
// --version, --check-pipeline, or one it does not know.
func (f Function) flag(args []string, stdout, stderr io.Writer) int {
	switch args[0] {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, f.usage())
		if f.Doc != "" {
			fmt.Fprintf(stdout, "\n%s", f.Doc)
		}
		return 0
	case "--version":
		ver, rev := Version()
		fmt.Fprintf(stdout, "%s %s (commit %s)\n", f.Name, ver, rev)
		return 0
	case CheckPipelineFlag:
		return f.checkPipeline(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "%s: unknown flag %s\n\n%s", f.Name, args[0], f.usage())
	return 2
}

func (f Function) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\nUsage:\n", f.Name, f.Short)
	lines := [][2]string{
		{f.Name, "read a ResourceList on stdin, write it to stdout"},
		{"", "(kpt fn eval/render, kustomize transformers/generators)"},
		{f.Name + " CONFIG [FILE...]", "standalone: apply CONFIG to the resources in FILEs"},
		{"", "(stdin when none or \"-\") and print them"},
		{f.Name + " --help", "this text, then the function's reference"},
		{f.Name + " --version", "the release and commit this binary was built from"},
		{f.Name + " " + CheckPipelineFlag + " DIR", "refuse (exit 1) a kpt package whose Kptfiles run"},
		{"", "anything but patchwork's functions by name"},
	}
	width := 0
	for _, l := range lines {
		width = max(width, len(l[0]))
	}
	for _, l := range lines {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, l[0], l[1])
	}
	fmt.Fprintf(&b, `
Accepted config types (apiVersion/kind): %s
Relative file paths in a config resolve against the config file's directory
(standalone, kpt fn render) or the working directory (kpt fn eval, kustomize),
and must stay inside it, symbolic links included. Only regular files are
read, up to 1Mi each (%s=8Mi raises the limit).
Exit codes: 0 success, 1 the function reported errors (items unchanged), 2 bad input.
`, strings.Join(f.Kinds, ", "), fnconfig.MaxFileSizeEnv)
	return b.String()
}

func (f Function) standalone(configPath string, files []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name, err)
		return 2
	}
	raw, err := os.ReadFile(configPath)
	if err != nil {
		return fail(err)
	}
	configs, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), OmitReaderAnnotations: true}).Read()
	if err != nil {
		return fail(fileError(configPath, raw, err))
	}
	if len(configs) != 1 {
		return fail(fmt.Errorf("%s: want exactly one config document, found %d", configPath, len(configs)))
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var items []*yaml.RNode
	for _, name := range files {
		var b []byte
		if name == "-" {
			b, err = io.ReadAll(stdin)
		} else {
			b, err = os.ReadFile(name)
		}
		if err != nil {
			return fail(err)
		}
		got, err := rlio.ReadStream(bytes.NewReader(b))
		if err != nil {
			if name == "-" {
				name = "stdin"
			}
			return fail(fileError(name, b, err))
		}
		items = append(items, got...)
	}
	// the items of List resources are resources of their own, as kustomize
	// makes them, and go back into their Lists
	items, lists := rlio.ExpandLists(items)
	req := &Request{Items: items, Config: configs[0], ConfigDir: filepath.Dir(configPath),
		ConfigDirWhy: "the directory of the config file " + configPath}
	forget := fnconfig.ReadFrom(configs[0], configPath)
	outcome := f.Process(req)
	forget()
	printResults(stderr, outcome.Results)
	if outcome.Failed {
		return 1
	}
	out := req.Items
	if lists != nil {
		out = lists.Collapse(out)
	}
	if err := rlio.WriteStream(stdout, out); err != nil {
		return fail(req.secrets.Error(err))
	}
	return 0
}

// fileError names the file and, for a YAML syntax error, the line where it
// breaks, shown, and what is wrong in words.
func fileError(name string, raw []byte, err error) error {
	if s, ok := yamlerr.Locate(raw, err); ok {
		return fmt.Errorf("%s, %v", name, s)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func printResults(w io.Writer, rs framework.Results) {
	for _, r := range rs {
		fmt.Fprintf(w, "%s: %s\n", r.Severity, r.Message)
	}
}
