package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSchemaFilesConfinement runs multi-patch with `schemas:` naming a
// directory, through kpt fn render, kpt fn eval, kustomize and standalone,
// with what an upstream author could put there: a link in the directory to
// a host file (a CRD-looking file holding a secret), and the directory
// itself a link out of the package. Each run must fail, naming the reason,
// and the host file's content must appear nowhere. The control, a real
// CRD in the directory, merges the custom resource's list by its keys.
func TestSchemaFilesConfinement(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	host := t.TempDir()
	marker := fmt.Sprintf("HOST-SECRET-%d", os.Getpid())
	must(t, os.WriteFile(filepath.Join(host, "stolen.yaml"), []byte(strings.Replace(schemaCRD, "widgets.example.com", marker+".example.com", 1)), 0o644))
	const config = "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata:\n  name: schemas\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n" +
		"schemas:\n- path: crds/\npatches:\n- target: {kind: Widget}\n  patch: |-\n    spec:\n      parts:\n      - {id: b, size: 2}\n"
	const resource = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  parts:\n  - {id: a, size: 1}\n"
	cases := []struct {
		name string
		fill func(t *testing.T, crds string)
		want string
	}{
		{"inside", func(t *testing.T, crds string) {
			must(t, os.MkdirAll(crds, 0o755))
			must(t, os.WriteFile(filepath.Join(crds, "widgets.yaml"), []byte(schemaCRD), 0o644))
		}, ""},
		{"link-in-directory", func(t *testing.T, crds string) {
			must(t, os.MkdirAll(crds, 0o755))
			must(t, os.WriteFile(filepath.Join(crds, "widgets.yaml"), []byte(schemaCRD), 0o644))
			must(t, os.Symlink(filepath.Join(host, "stolen.yaml"), filepath.Join(crds, "more.yaml")))
		}, "leads outside the config's directory"},
		{"directory-is-a-link", func(t *testing.T, crds string) {
			must(t, os.Symlink(host, crds))
		}, "leads outside the config's directory"},
	}
	for _, c := range cases {
		judge := func(t *testing.T, r result, left string) {
			t.Helper()
			all := r.stdout + r.stderr + left
			if c.want == "" {
				if r.code != 0 || !strings.Contains(all, "id: b") || !strings.Contains(all, "id: a") {
					t.Errorf("the CRD of the schema directory did not merge the list by its key\n%s\n%s", r, left)
				}
				return
			}
			if r.code == 0 || !strings.Contains(all, c.want) {
				t.Errorf("want a refusal saying %q\n%s\n%s", c.want, r, left)
			}
			if strings.Contains(all, marker) {
				t.Errorf("the host file's content leaked\n%s\n%s", r, left)
			}
		}
		t.Run(c.name, func(t *testing.T) {
			t.Run("kpt-render", func(t *testing.T) {
				tmp := t.TempDir()
				pkg := filepath.Join(tmp, "pkg")
				must(t, os.MkdirAll(filepath.Join(pkg, "fns"), 0o755))
				c.fill(t, filepath.Join(pkg, "fns", "crds"))
				must(t, os.WriteFile(filepath.Join(pkg, "fns", "config.yaml"), []byte(config), 0o644))
				must(t, os.WriteFile(filepath.Join(pkg, ".krmignore"), []byte("fns/crds/\n"), 0o644))
				must(t, os.WriteFile(filepath.Join(pkg, "w.yaml"), []byte(resource), 0o644))
				must(t, os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte(
					"apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: "+bin+"\n    configPath: fns/config.yaml\n"), 0o644))
				results := filepath.Join(tmp, "results")
				r := runLimited(t, tmp, kpt(t), "fn", "render", "--allow-exec", "--results-dir", results, "pkg")
				judge(t, r, readTree(t, results)+readTree(t, pkg))
			})
			t.Run("kpt-eval", func(t *testing.T) {
				tmp := t.TempDir()
				cfg := filepath.Join(tmp, "cfg")
				must(t, os.MkdirAll(cfg, 0o755))
				c.fill(t, filepath.Join(cfg, "crds"))
				must(t, os.WriteFile(filepath.Join(cfg, "config.yaml"), []byte(config), 0o644))
				pkg := filepath.Join(tmp, "pkg")
				must(t, os.MkdirAll(pkg, 0o755))
				must(t, os.WriteFile(filepath.Join(pkg, "w.yaml"), []byte(resource), 0o644))
				results := filepath.Join(tmp, "results")
				r := runLimited(t, cfg, kpt(t), "fn", "eval", "--exec", bin, "--fn-config", "config.yaml", "--results-dir", results, pkg)
				judge(t, r, readTree(t, results)+readTree(t, pkg))
			})
			t.Run("kustomize", func(t *testing.T) {
				dir := t.TempDir()
				c.fill(t, filepath.Join(dir, "crds"))
				must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644))
				rel, err := filepath.Rel(dir, bin)
				must(t, err)
				markExec(t, filepath.Join(dir, "config.yaml"), rel)
				must(t, os.WriteFile(filepath.Join(dir, "w.yaml"), []byte(resource), 0o644))
				must(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- w.yaml\ntransformers:\n- config.yaml\n"), 0o644))
				judge(t, runLimited(t, dir, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", "."), "")
			})
			t.Run("standalone", func(t *testing.T) {
				tmp := t.TempDir()
				must(t, os.MkdirAll(filepath.Join(tmp, "cfg"), 0o755))
				c.fill(t, filepath.Join(tmp, "cfg", "crds"))
				must(t, os.WriteFile(filepath.Join(tmp, "cfg", "config.yaml"), []byte(config), 0o644))
				must(t, os.WriteFile(filepath.Join(tmp, "w.yaml"), []byte(resource), 0o644))
				judge(t, runLimited(t, tmp, bin, "cfg/config.yaml", "w.yaml"), "")
			})
		})
	}
}

const schemaCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [id]
                items:
                  type: object
                  properties:
                    id: {type: string}
                    size: {type: integer}
`
