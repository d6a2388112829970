package fnrun

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// An untouched item holding a comment yaml.v3's emitter would keep for
// the next node (here a key's line comment before a block map) is copied
// as it was read when another item changes: only an item written anew
// can leave such a comment pending. Before, any such comment anywhere sent
// the whole list through kyaml's writer, which re-spaced the untouched
// item's flow map.
func TestPendingCommentInUntouchedItemCopied(t *testing.T) {
	untouched := `- apiVersion: v1
  kind: ConfigMap
  metadata: { name: untouched }
  data: # the settings
    mode: fast
`
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + untouched + `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: changed
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: Test
  metadata:
    name: t
`
	label := func(r *Request) error { return r.Items[1].PipeE(yaml.SetLabel("edited", "yes")) }
	out, o, err := RunBytes(testFunction(label), []byte(in))
	if err != nil || o.Failed {
		t.Fatal(err, o.Results)
	}
	if !strings.Contains(string(out), "items:\n"+untouched+"- apiVersion") || !strings.Contains(string(out), "edited: 'yes'") {
		t.Errorf("untouched item rewritten, or the other not edited:\n%s", out)
	}
}
