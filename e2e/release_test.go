package e2e

import (
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRelease makes a release as `make release` and the release workflow
// do, offline: build/release.sh into a scratch directory and image
// repository, then build/publish.sh to a local registry (crane's), signing
// with a key generated here instead of Sigstore's keyless identity. It checks
// what a user downloads: a stripped static binary per platform that knows
// its version, a CycloneDX SBOM of each, the Helm plugin archives (signed
// with a throwaway PGP key: helm plugin verify, and install verifying them), checksums
// that verify, one multi-arch image list per tag with the OCI labels, runnable
// with --network none as kpt runs it; then docs/integrations.md's verify
// commands on the published release, and the digest pinning of the docs.
// A pre-release must move no vX.Y or vX tag. Afterwards it removes exactly
// the image lists and images it made (never `podman image prune`, which
// would also take the images behind the lists of an earlier `make release`).
func TestRelease(t *testing.T) {
	requireFunction(t, "multi-patch")
	podman := podman(t)
	tools := map[string]string{}
	for _, name := range []string{"cosign", "crane", "cyclonedx-gomod"} {
		tools[name] = filepath.Join(env.root, "bin", "tools", name)
		if _, err := os.Stat(tools[name]); err != nil {
			t.Fatalf("%s is missing: run `make tools` (builds the release tools into bin/tools)", tools[name])
		}
	}
	conf := []string{containersConf()}
	repo := fmt.Sprintf("localhost/patchwork-release-e2e-%d", os.Getpid())
	ids := filepath.Join(t.TempDir(), "image-ids")
	var lists []string
	t.Cleanup(func() {
		for _, list := range lists {
			run(t, env.root, conf, nil, podman, "manifest", "rm", list)
		}
		raw, _ := os.ReadFile(ids)
		for _, id := range strings.Fields(string(raw)) {
			if r := run(t, env.root, conf, nil, podman, "rmi", id); r.code != 0 {
				t.Errorf("removing image %s the release made:\n%s", id, r)
			}
		}
	})
	signer := signingKey(t) // the Helm plugins' throwaway PGP key
	release := func(version string, dist string) result {
		t.Helper()
		r := run(t, env.root, append([]string{"DIST_DIR=" + dist, "IMAGE_REPO=" + repo, "IMAGE_IDS_FILE=" + ids,
			"CYCLONEDX_GOMOD=" + tools["cyclonedx-gomod"]}, signer.env...), nil, filepath.Join(env.root, "build", "release.sh"), version, "multi-patch")
		if r.code != 0 {
			t.Fatalf("release.sh %s failed:\n%s", version, r)
		}
		return r
	}

	const version = "v0.0.1"
	dist := t.TempDir()
	tags := []string{"v0.0.1", "v0.0", "v0"}
	for _, tag := range tags {
		lists = append(lists, repo+"/multi-patch:"+tag)
	}
	release(version, dist)
	checkReleaseFiles(t, dist, version)
	checkReleaseImages(t, podman, repo, tags, version)

	// Published, signed and verified as the page says; docs pinned.
	registry := startRegistry(t, tools["crane"])
	key := t.TempDir()
	if r := run(t, key, []string{"COSIGN_PASSWORD="}, nil, tools["cosign"], "generate-key-pair"); r.code != 0 {
		t.Fatalf("cosign generate-key-pair:\n%s", r)
	}
	publish := func(version, dist string) {
		t.Helper()
		r := run(t, env.root, append([]string{"DIST_DIR=" + dist, "IMAGE_REPO=" + repo, "PUSH_REPO=" + registry + "/patchwork-krm",
			"TLS_VERIFY=false", "COSIGN_KEY=" + filepath.Join(key, "cosign.key"), "COSIGN_PASSWORD="}, conf...), nil,
			filepath.Join(env.root, "build", "publish.sh"), version, "multi-patch")
		if r.code != 0 {
			t.Fatalf("publish.sh %s failed:\n%s", version, r)
		}
	}
	publish(version, dist)
	verifyRelease(t, dist, registry, filepath.Join(key, "cosign.pub"), tools)
	digest := registryDigest(t, tools["crane"], registry+"/patchwork-krm/multi-patch:"+version)
	pinned := pinDocs(t, filepath.Join(dist, "images.txt"))
	if !strings.Contains(pinned, "ghcr.io/patchwork-krm/multi-patch:"+version+"@"+digest) {
		t.Errorf("the README is not pinned to the published digest %s:\n%s", digest, pinned)
	}

	// A pre-release: its own tag only; vX.Y and vX stay on the release.
	const rc = "v0.0.2-rc.1"
	lists = append(lists, repo+"/multi-patch:"+rc)
	before := map[string]string{}
	for _, tag := range tags[1:] {
		before[tag] = run(t, env.root, conf, nil, podman, "manifest", "inspect", repo+"/multi-patch:"+tag).stdout
	}
	rcDist := t.TempDir()
	r := release(rc, rcDist)
	if !strings.Contains(r.stdout, "a pre-release") {
		t.Errorf("release.sh does not say the pre-release moves no tag:\n%s", r)
	}
	for _, tag := range tags[1:] {
		if after := run(t, env.root, conf, nil, podman, "manifest", "inspect", repo+"/multi-patch:"+tag).stdout; after != before[tag] {
			t.Errorf("the pre-release moved the local tag %s", tag)
		}
	}
	publish(rc, rcDist)
	for _, tag := range tags[1:] {
		if got := registryDigest(t, tools["crane"], registry+"/patchwork-krm/multi-patch:"+tag); got != digest {
			t.Errorf("the pre-release moved %s in the registry: %s, want %s", tag, got, digest)
		}
	}
	if d := pinDocs(t, filepath.Join(rcDist, "images.txt")); strings.Contains(d, rc) {
		t.Errorf("a pre-release pinned the docs:\n%s", d)
	}

	// No release without the Helm plugins' signing key.
	r = run(t, env.root, []string{"DIST_DIR=" + t.TempDir(), "RELEASE_IMAGES=0"}, nil, filepath.Join(env.root, "build", "release.sh"), "v0.0.3", "multi-patch")
	if r.code != 1 || !strings.Contains(r.stderr, "HELM_SIGNING_KEY") {
		t.Errorf("release.sh without a signing key: want a refusal naming HELM_SIGNING_KEY:\n%s", r)
	}
	for _, bad := range []string{"v0.3", "0.3.0", "v0.3.0+build.1", "v0.03.0", "v0.3.0-rc..1"} {
		r := run(t, env.root, append([]string{"DIST_DIR=" + t.TempDir(), "RELEASE_IMAGES=0"}, signer.env...), nil, filepath.Join(env.root, "build", "release.sh"), bad, "multi-patch")
		if r.code != 2 || !strings.Contains(r.stderr, "vX.Y.Z") {
			t.Errorf("release.sh %s: want a refusal naming the form:\n%s", bad, r)
		}
	}
}

// checkReleaseFiles checks dist/: binaries, SBOMs, plugin archives and
// checksums.
func checkReleaseFiles(t *testing.T, dist, version string) {
	t.Helper()
	want := map[string]func(string) error{
		"multi-patch_" + version + "_linux_amd64":  elfFor(elf.EM_X86_64),
		"multi-patch_" + version + "_linux_arm64":  elfFor(elf.EM_AARCH64),
		"multi-patch_" + version + "_darwin_arm64": machoARM64,
	}
	files := 1 // SHA256SUMS
	for name, check := range want {
		if err := check(filepath.Join(dist, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		checkSBOM(t, filepath.Join(dist, name), version)
		files += 2
	}
	for _, platform := range []string{"linux-amd64", "linux-arm64", "darwin-arm64"} {
		archive := filepath.Join(dist, "multi-patch-"+strings.TrimPrefix(version, "v")+"-"+platform+".tgz")
		if r := run(t, dist, nil, nil, helmBin(t, 4), "plugin", "verify", archive, "--keyring", filepath.Join(dist, "patchwork-keyring.gpg")); r.code != 0 {
			t.Errorf("the Helm plugin archive for %s does not verify against its .prov and the release's key:\n%s", platform, r)
		}
		files += 2 // the archive and its .prov
	}
	files++ // patchwork-keyring.gpg
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != files {
		t.Errorf("dist holds %d files, want %d", len(entries), files)
	}
	if r := run(t, dist, nil, nil, "sha256sum", "-c", "SHA256SUMS"); r.code != 0 || strings.Count(r.stdout, ": OK") != files-1 {
		t.Errorf("checksums do not verify all %d files:\n%s", files-1, r)
	}
	r := run(t, dist, nil, nil, filepath.Join(dist, "multi-patch_"+version+"_linux_amd64"), "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "multi-patch "+version+" (commit ") {
		t.Errorf("--version of the release binary:\n%s", r)
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		helm := helmBin(t, 4)
		home := helmHome(t)
		archive := filepath.Join(dist, "multi-patch-"+strings.TrimPrefix(version, "v")+"-linux-amd64.tgz")
		if r := run(t, env.root, home, nil, helm, "plugin", "install", archive, "--keyring", filepath.Join(dist, "patchwork-keyring.gpg")); r.code != 0 {
			t.Fatalf("installing the release's Helm plugin, verified:\n%s", r)
		}
		helm4Render(t, helm, home, "multi-patch")
	}
}

// checkSBOM: the binary's CycloneDX SBOM names the module at the release's
// version, the binary's own SHA-256 and the modules it was built from.
func checkSBOM(t *testing.T, binary, version string) {
	t.Helper()
	raw, err := os.ReadFile(binary + ".cdx.json")
	if err != nil {
		t.Errorf("no SBOM: %v", err)
		return
	}
	var bom struct {
		BOMFormat string `json:"bomFormat"`
		Metadata  struct {
			Component struct {
				Name, Version string
			}
			Properties []struct{ Name, Value string }
		}
		Components []struct{ Name, Version string }
	}
	if err := json.Unmarshal(raw, &bom); err != nil {
		t.Errorf("%s.cdx.json: %v", binary, err)
		return
	}
	bin, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(bin))
	hash := ""
	for _, p := range bom.Metadata.Properties {
		if p.Name == "cdx:gomod:binary:hash:SHA-256" {
			hash = p.Value
		}
	}
	var modules []string
	for _, c := range bom.Components {
		modules = append(modules, c.Name+"@"+c.Version)
	}
	if bom.BOMFormat != "CycloneDX" || bom.Metadata.Component.Name != "github.com/patchwork-krm/patchwork" ||
		bom.Metadata.Component.Version != version || hash != sum || !slices.Contains(modules, "sigs.k8s.io/kustomize/kyaml@v0.21.2") {
		t.Errorf("%s.cdx.json: format %q, component %s@%s, binary SHA-256 %q (want %s), modules %v",
			filepath.Base(binary), bom.BOMFormat, bom.Metadata.Component.Name, bom.Metadata.Component.Version, hash, sum, modules)
	}
}

// checkReleaseImages: one list per tag with both platforms, the OCI labels,
// and the image runs with --network none, as kpt runs functions (which
// needs no iptables).
func checkReleaseImages(t *testing.T, podman, repo string, tags []string, version string) {
	t.Helper()
	conf := []string{containersConf()}
	for _, tag := range tags {
		list := repo + "/multi-patch:" + tag
		r := run(t, env.root, conf, nil, podman, "manifest", "inspect", list)
		if r.code != 0 {
			t.Errorf("manifest %s:\n%s", list, r)
			continue
		}
		var idx struct {
			Manifests []struct {
				Platform struct{ OS, Architecture string }
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &idx); err != nil {
			t.Fatalf("manifest %s: %v", list, err)
		}
		var platforms []string
		for _, m := range idx.Manifests {
			platforms = append(platforms, m.Platform.OS+"/"+m.Platform.Architecture)
		}
		if got := strings.Join(platforms, " "); got != "linux/amd64 linux/arm64" {
			t.Errorf("manifest %s holds %q, want linux/amd64 linux/arm64", list, got)
		}
	}
	r := run(t, env.root, conf, nil, podman, "image", "inspect", "--format", "{{json .Labels}}", repo+"/multi-patch:v0")
	var labels map[string]string
	if err := json.Unmarshal([]byte(r.stdout), &labels); err != nil {
		t.Fatalf("labels: %v\n%s", err, r)
	}
	for _, k := range []string{"source", "revision", "version", "created", "licenses"} {
		if labels["org.opencontainers.image."+k] == "" {
			t.Errorf("image label org.opencontainers.image.%s is missing: %v", k, labels)
		}
	}
	if labels["org.opencontainers.image.version"] != version || labels["org.opencontainers.image.licenses"] != "Apache-2.0" {
		t.Errorf("labels: %v", labels)
	}
	r = run(t, env.root, conf, nil, podman, "run", "--rm", "--network", "none", repo+"/multi-patch:v0", "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "multi-patch "+version+" ") {
		t.Errorf("running the image with --network none:\n%s", r)
	}
}

// startRegistry runs crane's in-memory registry on a free local port until
// the test ends, and returns its host:port.
func startRegistry(t *testing.T, crane string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(crane, "registry", "serve", "--address", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for i := 0; i < 100; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("crane registry serve did not listen on %s", addr)
	return ""
}

func registryDigest(t *testing.T, crane, ref string) string {
	t.Helper()
	r := run(t, env.root, nil, nil, crane, "digest", "--insecure", ref)
	if r.code != 0 {
		t.Fatalf("crane digest %s:\n%s", ref, r)
	}
	return strings.TrimSpace(r.stdout)
}

// verifyRelease runs the page's verify commands on the published release:
// the files from a local server standing in for the GitHub release, the
// images from the local registry, and the generated key in place of the
// release workflow's identity (no Sigstore offline).
func verifyRelease(t *testing.T, dist, registry, pub string, tools map[string]string) {
	t.Helper()
	block := docBlock(t, "docs/integrations.md", "release-verify")
	const github = "https://github.com/patchwork-krm/patchwork/releases/download/$version"
	identity := regexp.MustCompile(`(?m)^identity=\(.*\n.*\)$`)
	if !strings.Contains(block, github) || !identity.MatchString(block) || !strings.Contains(block, "version=v0.1.0\n") {
		t.Fatalf("the block no longer has the shape this test substitutes in:\n%s", block)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	defer srv.Close()
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(mustGlob(t, filepath.Join(dist, "multi-patch_v*_linux_amd64"))), "multi-patch_"), "_linux_amd64")
	script := strings.NewReplacer(
		"version=v0.1.0\n", "version="+version+"\n",
		github, srv.URL,
		"ghcr.io/patchwork-krm/", registry+"/patchwork-krm/",
		"cosign verify ", "cosign verify --allow-http-registry ",
		"cosign verify-attestation ", "cosign verify-attestation --allow-http-registry ",
		"crane digest ", "crane digest --insecure ",
	).Replace(identity.ReplaceAllString(block, "identity=(--key "+pub+" --insecure-ignore-tlog=true)"))
	sh := newDocShell(t)
	sh.withTool(t, "cosign", tools["cosign"])
	sh.withTool(t, "crane", tools["crane"])
	r := sh.mustRun(t, script, "..")
	if !strings.Contains(r.stderr+r.stdout, "Verified OK") || !strings.Contains(r.stdout, "multi-patch_"+version+"_linux_amd64: OK") {
		t.Errorf("the verify commands did not verify:\n%s", r)
	}
	// A file changed after signing must fail the same commands.
	sums := filepath.Join(filepath.Dir(sh.dir), "SHA256SUMS")
	raw, err := os.ReadFile(sums)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sums, append(raw, []byte("0000  extra\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(script, `curl -fsSLO "$base/SHA256SUMS" -O`, `curl -fsSL -O`, 1)
	if r := sh.run(t, tampered, ".."); r.code == 0 {
		t.Errorf("the verify commands accepted a changed SHA256SUMS:\n%s", r)
	}
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) != 1 {
		t.Fatalf("%s: %v %v", pattern, m, err)
	}
	return m[0]
}

// pinDocs runs build/pin-digests.sh on a scratch copy of the repository and
// returns the README it leaves.
func pinDocs(t *testing.T, images string) string {
	t.Helper()
	sh := newDocShell(t)
	sh.mustRun(t, "git init -q && git add -A && ./build/pin-digests.sh "+images+"\n")
	raw, err := os.ReadFile(filepath.Join(sh.dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// elfFor checks a Linux binary's machine, that it is static (no
// interpreter) and stripped (no symbol table).
func elfFor(machine elf.Machine) func(string) error {
	return func(path string) error {
		f, err := elf.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if f.Machine != machine {
			return fmt.Errorf("machine %v, want %v", f.Machine, machine)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				return fmt.Errorf("dynamically linked")
			}
		}
		if f.Section(".symtab") != nil {
			return fmt.Errorf("not stripped: has .symtab")
		}
		return nil
	}
}

func machoARM64(path string) error {
	f, err := macho.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if f.Cpu != macho.CpuArm64 {
		return fmt.Errorf("cpu %v, want arm64", f.Cpu)
	}
	// A stripped Go binary for macOS still lists the symbols it imports
	// from libSystem; Go's own are gone.
	if f.Symtab != nil {
		for _, s := range f.Symtab.Syms {
			if strings.Contains(s.Name, "runtime.main") {
				return fmt.Errorf("not stripped: has %s", s.Name)
			}
		}
	}
	return nil
}
