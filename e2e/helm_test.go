package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The Helm tests render docs/integrations/helm/chart through each function
// with Helm 3 (--post-renderer BINARY) and Helm 4 (the function's plugin),
// and compare with the function run standalone on `helm template`'s plain
// output: the same bytes from Helm 3, the same documents from Helm 4 (which
// re-splits the stream, adding blank lines between documents).

const helmChart = "docs/integrations/helm/chart"

var helmFunctions = []string{"multi-patch", "podspec-patch", "structured-replacement", "merge-values-generator"}

// helmBin is the pinned helm of one major version that `make tools` builds
// into bin/tools: $HELM3 or $HELM4, as make passes them, or bin/tools/helmN.
func helmBin(t *testing.T, major int) string {
	t.Helper()
	p := os.Getenv(fmt.Sprintf("HELM%d", major))
	if p == "" {
		p = filepath.Join(env.root, "bin", "tools", fmt.Sprintf("helm%d", major))
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("helm v%d is not at %s: run `make tools` (builds the pinned helm into bin/tools)", major, p)
	}
	return p
}

// helmHome gives helm directories of its own (plugins, config, cache), so
// that tests neither see nor change the user's.
func helmHome(t *testing.T) []string {
	t.Helper()
	d := t.TempDir()
	// Not HELM_PLUGINS: Helm 4 installs into HELM_DATA_HOME/plugins whatever
	// it says, and would then look for plugins elsewhere.
	return []string{"HELM_CONFIG_HOME=" + filepath.Join(d, "config"), "HELM_DATA_HOME=" + filepath.Join(d, "data"),
		"HELM_CACHE_HOME=" + filepath.Join(d, "cache")}
}

func helmConfig(function string) string {
	return filepath.Join("docs", "integrations", "helm", function+".yaml")
}

// helmPlain renders the chart without a post-renderer.
func helmPlain(t *testing.T, helm string, home []string) string {
	t.Helper()
	r := run(t, env.root, home, nil, helm, "template", "shop", helmChart)
	if r.code != 0 {
		t.Fatalf("helm template:\n%s", r)
	}
	return r.stdout
}

// standalone runs a function on a stream, as `FUNCTION CONFIG < stream` in
// the repository root, and requires that it changed something.
func standalone(t *testing.T, bin, config, stream string) string {
	t.Helper()
	r := run(t, env.root, nil, []byte(stream), bin, config)
	if r.code != 0 {
		t.Fatalf("the function standalone:\n%s", r)
	}
	if sameDocs(stream, r.stdout) == "" {
		t.Fatalf("%s changed nothing in the chart: the comparison would prove nothing", config)
	}
	return r.stdout
}

// TestHelm3PostRenderer: `helm template --post-renderer BINARY
// --post-renderer-args CONFIG` gives exactly the function's standalone
// output on helm's plain output, from the repository root (relative paths,
// as documented) and from elsewhere: a config's own relative paths
// (multi-patch path:, merge-values-generator files:) resolve against its
// directory.
func TestHelm3PostRenderer(t *testing.T) {
	helm := helmBin(t, 3)
	for _, fn := range helmFunctions {
		t.Run(fn, func(t *testing.T) {
			bin := requireFunction(t, fn)
			home := helmHome(t)
			want := standalone(t, bin, helmConfig(fn), helmPlain(t, helm, home))
			r := run(t, env.root, home, nil, helm, "template", "shop", helmChart,
				"--post-renderer", bin, "--post-renderer-args", helmConfig(fn))
			if r.code != 0 || r.stdout != want {
				t.Fatalf("helm 3 with the post-renderer differs from the function standalone:\n%s\n--- want\n%s", r, want)
			}
			elsewhere := t.TempDir()
			r = run(t, elsewhere, home, nil, helm, "template", "shop", filepath.Join(env.root, helmChart),
				"--post-renderer", bin, "--post-renderer-args", filepath.Join(env.root, helmConfig(fn)))
			if r.code != 0 || r.stdout != want {
				t.Fatalf("run from another directory, helm 3 with the post-renderer differs:\n%s\n--- want\n%s", r, want)
			}
		})
	}
}

// helmPlugin assembles a function's Helm 4 plugin with build/helm-plugin.sh
// (what `make helm-plugins` and the release run) from this run's binary:
// its directory, or with platform its archive, signed with key (a
// throwaway key, signingKey) as a release signs it, its .prov beside it.
func helmPlugin(t *testing.T, dir, version, fn, platform string, key ...signer) string {
	t.Helper()
	args := []string{dir, version, fn, requireFunction(t, fn)}
	if platform != "" {
		args = append(args, platform)
	}
	var sign []string
	for _, k := range key {
		sign = k.env
	}
	r := run(t, env.root, sign, nil, filepath.Join(env.root, "build", "helm-plugin.sh"), args...)
	if r.code != 0 {
		t.Fatalf("build/helm-plugin.sh:\n%s", r)
	}
	if platform == "" {
		return filepath.Join(dir, fn)
	}
	return filepath.Join(dir, pluginArchive(fn, version, platform))
}

// pluginArchive is the name of a plugin's release archive:
// FUNCTION-X.Y.Z-OS-ARCH.tgz (build/helm-plugin.sh says why).
func pluginArchive(fn, version, platform string) string {
	os, arch, _ := strings.Cut(platform, "/")
	return fmt.Sprintf("%s-%s-%s-%s.tgz", fn, strings.TrimPrefix(version, "v"), os, arch)
}

// signer is a throwaway PGP key: the environment with which
// build/helm-plugin.sh and build/release.sh sign with it, and the public
// keyring that verifies what it signed.
type signer struct {
	env     []string
	pubring string
}

// signingKey generates a throwaway key (no passphrase) in a GnuPG home of
// the test's own, exported as the binary keyrings Helm reads; the home's
// agent is stopped when the test ends.
func signingKey(t *testing.T) signer {
	t.Helper()
	gpg := tool(t, "gpg", "apt-get install gpg (make tools does, as root)")
	dir := t.TempDir()
	home := []string{"GNUPGHOME=" + filepath.Join(dir, "gnupg")}
	must(t, os.Mkdir(filepath.Join(dir, "gnupg"), 0o700))
	t.Cleanup(func() { run(t, dir, home, nil, "gpgconf", "--kill", "gpg-agent") })
	const spec = "%no-protection\nKey-Type: RSA\nKey-Length: 2048\nName-Real: patchwork e2e\nName-Email: e2e@patchwork.invalid\nExpire-Date: 0\n%commit\n"
	if r := run(t, dir, home, []byte(spec), gpg, "--batch", "--gen-key"); r.code != 0 {
		t.Fatalf("gpg --gen-key:\n%s", r)
	}
	s := signer{pubring: filepath.Join(dir, "pubring.gpg")}
	secring := filepath.Join(dir, "secring.gpg")
	for file, export := range map[string]string{secring: "--export-secret-keys", s.pubring: "--export"} {
		r := run(t, dir, home, nil, gpg, "--batch", export)
		if r.code != 0 {
			t.Fatalf("gpg %s:\n%s", export, r)
		}
		must(t, os.WriteFile(file, []byte(r.stdout), 0o600))
	}
	s.env = []string{"HELM_SIGNING_KEY=patchwork e2e", "HELM_SIGNING_KEYRING=" + secring, "HELM_SIGNING_PUBRING=" + s.pubring}
	return s
}

// helm4Render renders the chart through an installed plugin and compares
// the documents with the function's standalone output.
func helm4Render(t *testing.T, helm string, home []string, fn string) {
	t.Helper()
	want := standalone(t, env.built[fn], helmConfig(fn), helmPlain(t, helm, home))
	r := run(t, env.root, home, nil, helm, "template", "shop", helmChart,
		"--post-renderer", fn, "--post-renderer-args", helmConfig(fn))
	if r.code != 0 {
		t.Fatalf("helm 4 with the %s plugin:\n%s", fn, r)
	}
	if d := sameDocs(want, r.stdout); d != "" {
		t.Fatalf("helm 4 with the %s plugin differs from the function standalone: %s", fn, d)
	}
}

// TestHelm4Plugin installs each function's plugin from a directory and
// renders the chart through it with `--post-renderer <function>`.
func TestHelm4Plugin(t *testing.T) {
	helm := helmBin(t, 4)
	for _, fn := range helmFunctions {
		t.Run(fn, func(t *testing.T) {
			requireFunction(t, fn)
			home := helmHome(t)
			dir := helmPlugin(t, t.TempDir(), "v0.0.0-e2e", fn, "")
			if r := run(t, env.root, home, nil, helm, "plugin", "install", dir); r.code != 0 {
				t.Fatalf("installing the plugin from its directory:\n%s", r)
			}
			helm4Render(t, helm, home, fn)
		})
	}
}

// TestHelm4PluginArchive signs the release archive with a throwaway key
// (helm plugin package --sign, as the release does), verifies it (helm
// plugin verify), installs it with verification on from a file and from a
// URL (a local server standing in for the GitHub release), and refuses a
// tampered one.
func TestHelm4PluginArchive(t *testing.T) {
	helm := helmBin(t, 4)
	const fn = "multi-patch"
	requireFunction(t, fn)
	key := signingKey(t)
	archive := helmPlugin(t, t.TempDir(), "v0.3.0-rc.1", fn, runtime.GOOS+"/"+runtime.GOARCH, key)
	if r := run(t, env.root, nil, nil, helm, "plugin", "verify", archive, "--keyring", key.pubring); r.code != 0 ||
		!strings.Contains(r.stdout, "Signed by: patchwork e2e") {
		t.Fatalf("helm plugin verify:\n%s", r)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Dir(archive))))
	defer srv.Close()
	for source, from := range map[string]string{"file": archive, "URL": srv.URL + "/" + filepath.Base(archive)} {
		t.Run(source, func(t *testing.T) {
			home := helmHome(t)
			r := run(t, env.root, home, nil, helm, "plugin", "install", from, "--keyring", key.pubring)
			if r.code != 0 || !strings.Contains(r.stdout, "Plugin Hash Verified") {
				t.Fatalf("installing the signed plugin archive from a %s:\n%s", source, r)
			}
			r = run(t, env.root, home, nil, helm, "plugin", "list")
			if !strings.Contains(r.stdout, "0.3.0-rc.1-"+runtime.GOOS+"-"+runtime.GOARCH) || !strings.Contains(r.stdout, "postrenderer/v1") ||
				!strings.Contains(r.stdout, "signed") {
				t.Errorf("helm plugin list does not show the plugin's version, type and provenance:\n%s", r)
			}
			helm4Render(t, helm, home, fn)
		})
	}
	t.Run("tampered", func(t *testing.T) {
		raw, err := os.ReadFile(archive)
		must(t, err)
		raw[len(raw)/2] ^= 0xff
		must(t, os.WriteFile(archive, raw, 0o644))
		if r := run(t, env.root, nil, nil, helm, "plugin", "verify", archive, "--keyring", key.pubring); r.code == 0 {
			t.Errorf("helm plugin verify passed a tampered archive:\n%s", r)
		}
		if r := run(t, env.root, helmHome(t), nil, helm, "plugin", "install", archive, "--keyring", key.pubring); r.code == 0 {
			t.Errorf("helm plugin install took a tampered archive:\n%s", r)
		}
	})
}

// TestHelmDocs runs docs/integrations.md's Helm commands as a user would,
// with `helm` on PATH being Helm 3 or Helm 4 as each section says.
func TestHelmDocs(t *testing.T) {
	requireFunction(t, "multi-patch")
	plainOf := func(t *testing.T, sh *docShell) string {
		return sh.mustRun(t, "helm template shop "+helmChart+"\n").stdout
	}

	t.Run("helm3", func(t *testing.T) {
		sh := newDocShell(t)
		sh.withTool(t, "helm", helmBin(t, 3))
		got := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm3-post-renderer")).stdout
		want := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm-standalone")).stdout
		if got != want || sameDocs(plainOf(t, sh), got) == "" {
			t.Errorf("the Helm 3 post-renderer and the function standalone disagree (or changed nothing):\n--- post-renderer\n%s--- standalone\n%s", got, want)
		}
		diff := sh.run(t, docBlock(t, "docs/integrations.md", "helm-diff"))
		if wantDiff := docBlock(t, "docs/integrations.md", "helm-diff-output"); diff.code != 1 || diff.stdout != wantDiff {
			t.Errorf("the rendered chart's diff is not the page's (the patch alone):\n%s\n--- want\n%s", diff, wantDiff)
		}
		r := sh.run(t, docBlock(t, "docs/integrations.md", "helm3-error"))
		wantErr := strings.ReplaceAll(docBlock(t, "docs/integrations.md", "helm3-error-output"), "/home/me/patchwork", sh.dir)
		if r.code != 1 || r.stdout != "" || r.stderr != wantErr {
			t.Errorf("a failing post-renderer: want exit 1, no output and the page's error\n%s\n--- want stderr\n%s", r, wantErr)
		}
	})

	t.Run("helm4", func(t *testing.T) {
		sh := newDocShell(t)
		sh.withTool(t, "helm", helmBin(t, 4))
		got := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm4-plugin-dir")).stdout
		want := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm-standalone")).stdout
		// The block's output starts with helm plugin install's lines.
		_, rendered, _ := strings.Cut(got, "Installed plugin: multi-patch\n")
		if d := sameDocs(want, rendered); d != "" {
			t.Errorf("the Helm 4 plugin and the function standalone disagree: %s\n--- output\n%s", d, got)
		}
		r := sh.run(t, docBlock(t, "docs/integrations.md", "helm4-error"))
		wantErr := docBlock(t, "docs/integrations.md", "helm4-error-output")
		if r.code != 1 || r.stdout != "" || r.stderr != wantErr {
			t.Errorf("a failing plugin: want exit 1, no output and the page's error (the function's message first)\n%s\n--- want stderr\n%s", r, wantErr)
		}
		yaml := docBlock(t, "docs/integrations.md", "helm4-plugin-yaml")
		made := sh.mustRun(t, "make helm-plugins VERSION=v0.1.0 >/dev/null\ncat bin/helm-plugins/multi-patch/plugin.yaml\n").stdout
		if made != yaml {
			t.Errorf("the page's plugin.yaml is not what make helm-plugins writes:\n--- page\n%s--- made\n%s", yaml, made)
		}
	})

	t.Run("helm3-hooks", func(t *testing.T) {
		// Helm 3 hands the post-renderer no hooks: the page's config fails
		// there (onNoMatch: error); Helm 4 and the function standalone on
		// helm template's output patch the hook.
		sh := newDocShell(t)
		sh.withTool(t, "helm", helmBin(t, 3))
		r := sh.run(t, docBlock(t, "docs/integrations.md", "helm3-hook"))
		wantErr := strings.ReplaceAll(docBlock(t, "docs/integrations.md", "helm3-hook-output"), "/home/me/patchwork", sh.dir)
		if r.code != 1 || r.stdout != "" || r.stderr != wantErr {
			t.Errorf("Helm 3 and a patch for a hook: want exit 1 and the page's error\n%s\n--- want stderr\n%s", r, wantErr)
		}
		out := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm-hook-standalone")).stdout
		if !strings.Contains(out, "backoffLimit: 1") || !strings.Contains(out, "helm.sh/hook: pre-install") {
			t.Errorf("the function standalone on helm template's output did not patch the hook:\n%s", out)
		}
		h4 := newDocShell(t)
		h4.withTool(t, "helm", helmBin(t, 4))
		out = h4.mustRun(t, "make helm-plugins >/dev/null\nhelm plugin install bin/helm-plugins/multi-patch >/dev/null\n"+
			"helm template shop docs/integrations/helm/hook-chart --post-renderer multi-patch --post-renderer-args docs/integrations/helm/multi-patch-hooks.yaml\n").stdout
		if !strings.Contains(out, "backoffLimit: 1") {
			t.Errorf("Helm 4 did not post-render the hook:\n%s", out)
		}
	})

	t.Run("side-by-side", func(t *testing.T) {
		// Both Helms in one shell, HELM_PLUGINS exported as a Helm 3 user
		// has it: the page's way keeps each working.
		sh := newDocShell(t)
		sh.withTool(t, "helm", helmBin(t, 4))
		sh.withTool(t, "helm3", helmBin(t, 3))
		sh.env = append(sh.env, "HELM_PLUGINS="+filepath.Join(sh.home, "helm-plugins"))
		sh.mustRun(t, "make helm-plugins >/dev/null\n")
		r := sh.mustRun(t, docBlock(t, "docs/integrations.md", "helm-side-by-side"))
		if strings.Contains(r.stderr, "failed to load plugins") || strings.Count(r.stdout, "team: storefront") != 2 {
			t.Errorf("want both renders patched and no plugin errors:\n%s", r)
		}
	})

	t.Run("helm4-archive", func(t *testing.T) {
		if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
			t.Skipf("the page installs the linux/amd64 archive; this machine is %s/%s", runtime.GOOS, runtime.GOARCH)
		}
		// A local server stands in for the GitHub release: the archive
		// build/release.sh would publish, and SHA256SUMS.
		release := t.TempDir()
		key := signingKey(t)
		archive := helmPlugin(t, release, "v0.1.0", "multi-patch", "linux/amd64", key)
		keyring, err := os.ReadFile(key.pubring)
		must(t, err)
		must(t, os.WriteFile(filepath.Join(release, "patchwork-keyring.gpg"), keyring, 0o644))
		r := run(t, release, nil, nil, "sha256sum", filepath.Base(archive), filepath.Base(archive)+".prov", "patchwork-keyring.gpg")
		if err := os.WriteFile(filepath.Join(release, "SHA256SUMS"), []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(release)))
		defer srv.Close()
		tool(t, "curl", "apt-get install curl (make tools does, as root)")
		sh := newDocShell(t)
		sh.withTool(t, "helm", helmBin(t, 4))
		block := docBlock(t, "docs/integrations.md", "helm4-plugin-archive")
		const github = "https://github.com/patchwork-krm/patchwork/releases/download/v0.1.0"
		if !strings.Contains(block, github) {
			t.Fatalf("the block no longer downloads from %s:\n%s", github, block)
		}
		out := sh.mustRun(t, strings.ReplaceAll(block, github, srv.URL), "..").stdout
		for _, want := range []string{"multi-patch-0.1.0-linux-amd64.tgz: OK", "multi-patch-0.1.0-linux-amd64.tgz.prov: OK",
			"patchwork-keyring.gpg: OK", "Plugin Hash Verified", "Installed plugin: multi-patch", "multi-patch\t0.1.0-linux-amd64"} {
			if !strings.Contains(out, want) {
				t.Errorf("the output lacks %q:\n%s", want, out)
			}
		}
	})
}
