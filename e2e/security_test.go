package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConfinement runs the functions that read files named in their config
// (merge-values-generator `files:`, multi-patch `path:`) through every client
// — kpt fn render, kpt fn eval --exec --fn-config, kustomize build with an exec
// generator or transformer, and standalone with a relative config path — with
// a config its author turned against the machine running it:
//
//   - link-out: a symbolic link beside the config to a file outside it;
//   - forged-root, forged-root-etc: the config claims
//     internal.config.kubernetes.io/package-path and path annotations that make
//     a host directory (/etc, or one holding a secret) its own;
//   - dev-zero: a link to /dev/zero (once read without end);
//   - fifo: a named pipe beside the config (once blocked forever).
//
// Each run must fail, within a time limit, with the reason in what the
// client shows, and the host file's content must appear nowhere: not in the
// output, the messages, kpt's results or the package on disk. A file inside
// the config's directory is read under every client (the control).
func TestConfinement(t *testing.T) {
	host := t.TempDir()
	marker := fmt.Sprintf("HOST-SECRET-%d", os.Getpid())
	if err := os.WriteFile(filepath.Join(host, "secret.yaml"), []byte("data:\n  leaked: "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type attack struct {
		name, file string // file: what the config names
		claim      [2]string
		want       string // in what the client shows
		never      string // in nothing the run leaves
	}
	attacks := []attack{
		{name: "inside", file: "inside.txt"},
		{name: "link-out", file: "link.txt", want: `leads outside the config's directory`, never: marker},
		{name: "forged-root", file: "secret.yaml", claim: [2]string{"/", strings.TrimPrefix(host, "/") + "/x.yaml"}, want: "no such file or directory", never: marker},
		{name: "forged-root-etc", file: "passwd", claim: [2]string{"/", "etc/x.yaml"}, want: "no such file or directory", never: "root:x:0:0"},
		{name: "dev-zero", file: "zero", want: `leads outside the config's directory`},
		{name: "fifo", file: "fifo", want: `is a named pipe (FIFO)`},
	}
	type function struct {
		name, kustomize string
		config          func(file string) string
	}
	functions := []function{
		{"merge-values-generator", "generators", func(file string) string {
			return "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: confine\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n" +
				"configMapGenerator:\n- name: from-file\n  files: [" + file + "]\n"
		}},
		{"multi-patch", "transformers", func(file string) string {
			return "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata:\n  name: confine\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n" +
				"patches:\n- target: {kind: ConfigMap, name: cm}\n  path: " + file + "\n"
		}},
	}
	const resource = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: \"1\"\n"
	// fill writes the config and the files it may name into dir.
	fill := func(t *testing.T, dir, config string, claim [2]string) {
		t.Helper()
		if claim[0] != "" {
			config = strings.Replace(config, "  annotations:\n", "  annotations:\n    internal.config.kubernetes.io/package-path: "+claim[0]+"\n    internal.config.kubernetes.io/path: "+claim[1]+"\n", 1)
		}
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("data:\n  inside: inside-ok\n"), 0o644))
		must(t, os.Symlink(filepath.Join(host, "secret.yaml"), filepath.Join(dir, "link.txt")))
		must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
		must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	}
	for _, fn := range functions {
		t.Run(fn.name, func(t *testing.T) {
			bin := requireFunction(t, fn.name)
			for _, a := range attacks {
				config := fn.config(a.file)
				judge := func(t *testing.T, r result, left string) {
					t.Helper()
					all := r.stdout + r.stderr + left
					if a.want == "" {
						if r.code != 0 || !strings.Contains(all, "inside-ok") {
							t.Errorf("reading a file inside the config's directory failed\n%s\n%s", r, left)
						}
						return
					}
					if r.code == 0 {
						t.Errorf("the run succeeded, want a refusal\n%s\n%s", r, left)
					}
					if !strings.Contains(all, a.want) {
						t.Errorf("want %q in what the client shows\n%s\n%s", a.want, r, left)
					}
					if a.never != "" && strings.Contains(all, a.never) {
						t.Errorf("the host file's content %q leaked\n%s\n%s", a.never, r, left)
					}
				}
				t.Run(a.name, func(t *testing.T) {
					t.Run("kpt-render", func(t *testing.T) {
						tmp := t.TempDir()
						pkg := filepath.Join(tmp, "pkg")
						fill(t, filepath.Join(pkg, "fns"), config, a.claim)
						must(t, os.WriteFile(filepath.Join(pkg, "cm.yaml"), []byte(resource), 0o644))
						must(t, os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte(
							"apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: "+bin+"\n    configPath: fns/config.yaml\n"), 0o644))
						results := filepath.Join(tmp, "results")
						r := runLimited(t, tmp, kpt(t), "fn", "render", "--allow-exec", "--results-dir", results, "pkg")
						judge(t, r, readTree(t, results)+readTree(t, pkg))
					})
					t.Run("kpt-eval", func(t *testing.T) {
						tmp := t.TempDir()
						cfg := filepath.Join(tmp, "cfg")
						fill(t, cfg, config, a.claim)
						pkg := filepath.Join(tmp, "pkg")
						must(t, os.MkdirAll(pkg, 0o755))
						must(t, os.WriteFile(filepath.Join(pkg, "cm.yaml"), []byte(resource), 0o644))
						results := filepath.Join(tmp, "results")
						// kpt runs in the config's directory: the root under kpt fn eval
						r := runLimited(t, cfg, kpt(t), "fn", "eval", "--exec", bin, "--fn-config", "config.yaml", "--results-dir", results, pkg)
						judge(t, r, readTree(t, results)+readTree(t, pkg))
					})
					t.Run("kustomize", func(t *testing.T) {
						dir := t.TempDir()
						fill(t, dir, config, a.claim)
						rel, err := filepath.Rel(dir, bin)
						must(t, err)
						markExec(t, filepath.Join(dir, "config.yaml"), rel)
						must(t, os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte(resource), 0o644))
						must(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(
							"resources:\n- cm.yaml\n"+fn.kustomize+":\n- config.yaml\n"), 0o644))
						r := runLimited(t, dir, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", ".")
						judge(t, r, "")
					})
					t.Run("standalone", func(t *testing.T) {
						tmp := t.TempDir()
						fill(t, filepath.Join(tmp, "cfg"), config, a.claim)
						must(t, os.WriteFile(filepath.Join(tmp, "cm.yaml"), []byte(resource), 0o644))
						// a relative config path, as the issue reproduced it
						r := runLimited(t, tmp, bin, "cfg/config.yaml", "cm.yaml")
						judge(t, r, "")
					})
				})
			}
		})
	}
}

// TestFileSizeLimit checks the size limit through a real client, and that
// the person running the function, not the config, raises it.
func TestFileSizeLimit(t *testing.T) {
	bin := requireFunction(t, "merge-values-generator")
	dir := t.TempDir()
	big := bytes.Repeat([]byte("0123456789abcde\n"), (1<<20)/16+1) // just over 1 MiB
	must(t, os.WriteFile(filepath.Join(dir, "big.txt"), big, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: big\nconfigMapGenerator:\n- name: big\n  files: [big.txt]\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"), 0o644))
	r := runLimited(t, dir, bin, "config.yaml", "cm.yaml")
	if r.code != 1 || !strings.Contains(r.stderr, `file "big.txt" is larger than the 1Mi limit`) || !strings.Contains(r.stderr, "PATCHWORK_MAX_FILE_SIZE") {
		t.Errorf("over the limit: want exit 1 naming the limit and how to raise it\n%s", r)
	}
	r = runLimited(t, dir, "env", "PATCHWORK_MAX_FILE_SIZE=2Mi", bin, "config.yaml", "cm.yaml")
	if r.code != 0 || !strings.Contains(r.stdout, "0123456789abcde") {
		t.Errorf("with PATCHWORK_MAX_FILE_SIZE=2Mi: want success\n%.2000s", r)
	}
}

// runLimited runs a command in dir and kills it, with every process it
// started, after a minute: a function reading a FIFO or /dev/zero would
// otherwise hang the test or fill the machine's memory.
func runLimited(t *testing.T, dir, name string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{cmd: name + " " + strings.Join(args, " "), stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s: still running after a minute (killed)\n%s", r.cmd, r)
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", r.cmd, err)
	}
	return r
}

// readTree returns the content of every regular file below dir (none when
// it does not exist).
func readTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			raw, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "--- %s\n%s", path, raw)
		}
		return nil
	})
	must(t, err)
	return b.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
