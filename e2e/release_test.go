package e2e

import (
	"debug/elf"
	"debug/macho"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRelease runs build/release.sh (what `make release` runs) for one
// function into a scratch directory and image repository, and checks what a
// user downloads: a stripped static binary per platform that knows its
// version, checksums that verify, and one multi-arch image list per tag with
// the OCI labels.
func TestRelease(t *testing.T) {
	requireFunction(t, "multi-patch")
	podman := podman(t)
	const version = "v0.0.1"
	dist := t.TempDir()
	repo := fmt.Sprintf("localhost/patchwork-release-e2e-%d", os.Getpid())
	tags := []string{"v0.0.1", "v0.0", "v0"}
	t.Cleanup(func() {
		for _, tag := range tags {
			run(t, env.root, []string{containersConf()}, nil, podman, "manifest", "rm", repo+"/multi-patch:"+tag)
		}
		run(t, env.root, []string{containersConf()}, nil, podman, "image", "prune", "-f")
	})
	r := run(t, env.root, []string{"DIST_DIR=" + dist, "IMAGE_REPO=" + repo}, nil,
		filepath.Join(env.root, "build", "release.sh"), version, "multi-patch")
	if r.code != 0 {
		t.Fatalf("release.sh failed:\n%s", r)
	}

	want := map[string]func(string) error{
		"multi-patch_v0.0.1_linux_amd64":  elfFor(elf.EM_X86_64),
		"multi-patch_v0.0.1_linux_arm64":  elfFor(elf.EM_AARCH64),
		"multi-patch_v0.0.1_darwin_arm64": machoARM64,
	}
	for name, check := range want {
		if err := check(filepath.Join(dist, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if r := run(t, dist, nil, nil, "sha256sum", "-c", "SHA256SUMS"); r.code != 0 || strings.Count(r.stdout, ": OK") != len(want) {
		t.Errorf("checksums do not verify all %d binaries:\n%s", len(want), r)
	}
	r = run(t, dist, nil, nil, filepath.Join(dist, "multi-patch_v0.0.1_linux_amd64"), "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "multi-patch v0.0.1 (commit ") {
		t.Errorf("--version of the release binary:\n%s", r)
	}

	for _, tag := range tags {
		list := repo + "/multi-patch:" + tag
		r := run(t, env.root, []string{containersConf()}, nil, podman, "manifest", "inspect", list)
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
	r = run(t, env.root, []string{containersConf()}, nil, podman, "image", "inspect", "--format", "{{json .Labels}}", repo+"/multi-patch:v0")
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
	r = run(t, env.root, []string{containersConf()}, nil, podman, "run", "--rm", repo+"/multi-patch:v0", "--version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "multi-patch v0.0.1 ") {
		t.Errorf("running the image:\n%s", r)
	}
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
