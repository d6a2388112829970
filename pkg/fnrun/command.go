package fnrun

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/redact"
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
	os.Exit(Command(f, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Command runs the binary's command line and returns its exit code:
// 0 success, 1 the function failed, 2 a usage or input problem.
//
// Everything written to stderr, results and errors alike, goes through the
// run's redaction (redact.Set.Writer): the values of the Secrets read so
// far, and those the transform registered, appear in no line of it.
func Command(f Function, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	secrets := &redact.Set{}
	stderr = secrets.Writer(stderr)
	if len(args) > 0 && (strings.HasPrefix(args[0], "-") && args[0] != "-" || args[0] == "help") {
		return f.flag(args, stdout, stderr)
	}
	if len(args) == 0 {
		outcome, err := runList(f, stdin, stdout, "", rlio.FromEnv(), secrets)
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
	return f.standalone(args[0], args[1:], stdin, stdout, stderr, secrets)
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

func (f Function) standalone(configPath string, files []string, stdin io.Reader, stdout, stderr io.Writer, secrets *redact.Set) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", f.Name, err)
		return 2
	}
	config, err := readConfig(configPath)
	if err != nil {
		return fail(err)
	}
	req := &Request{Config: config, ConfigDir: filepath.Dir(configPath),
		ConfigDirWhy: "the directory of the config file " + configPath, secrets: secrets}
	in, err := req.readFiles(files, stdin)
	if err != nil {
		return fail(err)
	}
	forget := fnconfig.ReadFrom(config, configPath)
	out, outcome, err := RunStream(f, req, in)
	forget()
	printResults(stderr, outcome.Results)
	if err != nil {
		return fail(err)
	}
	if outcome.Failed {
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		return fail(err)
	}
	return 0
}

// readConfig reads the one config document of a standalone run.
func readConfig(path string) (*yaml.RNode, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	configs, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), OmitReaderAnnotations: true}).Read()
	if err != nil {
		return nil, fileError(path, raw, err)
	}
	if len(configs) != 1 {
		return nil, fmt.Errorf("%s: want exactly one config document, found %d", path, len(configs))
	}
	return configs[0], nil
}

// readFiles reads the resources of a standalone run ("-" is stdin) as
// one stream, registering the Secrets of each file as it is read, for the
// error of a later one.
func (r *Request) readFiles(files []string, stdin io.Reader) (*rlio.Stream, error) {
	if len(files) == 0 {
		files = []string{"-"}
	}
	all := &rlio.Stream{}
	for _, name := range files {
		read := os.ReadFile
		if name == "-" {
			name, read = "stdin", func(string) ([]byte, error) { return readAll(stdin) }
		}
		b, err := read(name)
		if err != nil {
			return nil, err
		}
		s, err := rlio.ReadStream(b)
		if err != nil {
			return nil, fileError(name, b, err)
		}
		for _, d := range s.Docs {
			r.knowSecrets([]*yaml.RNode{d.Node})
		}
		all.Append(s)
	}
	return all, nil
}

// fileError names the file and, for a YAML syntax error, the line where it
// breaks, shown, and what is wrong in words.
func fileError(name string, raw []byte, err error) error {
	if s, ok := yamlerr.Locate(raw, err); ok {
		return fmt.Errorf("%s, %v", name, s)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// printResults writes the results one a line, in one write (each write
// to stderr is one batch of redaction).
func printResults(w io.Writer, rs framework.Results) {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%s: %s\n", r.Severity, r.Message)
	}
	if b.Len() > 0 {
		io.WriteString(w, b.String())
	}
}
