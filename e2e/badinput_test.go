package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformedConfig runs every function binary on configs that are not
// config objects. A JSON patch file given as CONFIG, or a functionConfig that
// is a list, once panicked with a Go stack trace in every binary, and
// metadata: [..] gave "internal error … please report". Each is a config
// error: exit 1 and a message saying what is wrong.
func TestMalformedConfig(t *testing.T) {
	const resource = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"
	cases := []struct{ name, config, want string }{
		{"json-patch-file", "- op: add\n  path: /data\n  value: {a: b}\n", "the function config is a list, not a map"},
		{"metadata-list", "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Whatever\nmetadata: [1]\n", "metadata: want a map, got a list"},
		{"name-list", "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Whatever\nmetadata: {name: [1]}\n", "metadata.name: want a string, got a list"},
	}
	for _, function := range knownFunctions(t) {
		t.Run(function, func(t *testing.T) {
			bin := requireFunction(t, function)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					dir := t.TempDir()
					must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(c.config), 0o644))
					must(t, os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte(resource), 0o644))
					check := func(how string, r result) {
						t.Helper()
						if r.code != 1 || !strings.Contains(r.stderr, c.want) ||
							strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "internal error") {
							t.Errorf("%s: want exit 1 and %q on stderr\n%s", how, c.want, r)
						}
					}
					check("standalone", run(t, dir, nil, nil, bin, "config.yaml", "cm.yaml"))
					rl := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- " +
						strings.ReplaceAll(strings.TrimSuffix(resource, "\n"), "\n", "\n  ") + "\nfunctionConfig:\n  " +
						strings.ReplaceAll(strings.TrimSuffix(c.config, "\n"), "\n", "\n  ") + "\n"
					check("ResourceList", run(t, dir, nil, []byte(rl), bin))
				})
			}
		})
	}
}
