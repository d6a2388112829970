package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// declared is a HelmRelease-like kind without a schema, with the lists
// its user declared.
func declared(t *testing.T) *schema.Type {
	t.Helper()
	var root *schema.Type
	for _, d := range []struct {
		path string
		keys []string
	}{
		{"spec.values.env", []string{"name"}},
		{"spec.values.ports", []string{"port", "protocol"}},
		{"spec.values.sidecars", []string{"name"}},
		{"spec.values.sidecars.[name=proxy].args", []string{"flag"}},
	} {
		var err error
		if root, err = root.WithListKeys(schema.ListKeys{Path: fieldpath.MustParse(d.path), Keys: d.keys}); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDeclaredListsMergeAsSchemaLists(t *testing.T) {
	dst := `
		spec:
		  values:
		    env:
		    - {name: A, value: "1"}
		    - {name: B, value: "2"}
		    - {name: C, value: "3"}
		    ports:
		    - {port: 53, protocol: UDP}
		    - {port: 53, protocol: TCP, tags: [a, b]}
		    sidecars:
		    - name: proxy
		      args: [{flag: --v, value: "1"}]
		    - name: other
		      args: [{flag: --v, value: "1"}]`
	runCases(t, []mergeCase{{
		name: "merge by the declared key; new elements appended",
		t:    declared(t),
		dst:  dst,
		patch: `
			spec:
			  values:
			    env:
			    - {name: B, value: "20"}
			    - {name: D, value: "4"}`,
		want: `
			spec:
			  values:
			    env:
			    - {name: A, value: "1"}
			    - {name: B, value: "20"}
			    - {name: C, value: "3"}
			    - {name: D, value: "4"}
			    ports:
			    - {port: 53, protocol: UDP}
			    - {port: 53, protocol: TCP, tags: [a, b]}
			    sidecars:
			    - name: proxy
			      args: [{flag: --v, value: "1"}]
			    - name: other
			      args: [{flag: --v, value: "1"}]`,
	}, {
		name: "directives: delete, order, delete from a primitive list",
		t:    declared(t),
		dst:  dst,
		patch: `
			spec:
			  values:
			    $setElementOrder/env: [{name: C}, {name: A}]
			    env:
			    - {name: B, $patch: delete}
			    ports:
			    - port: 53
			      protocol: TCP
			      $deleteFromPrimitiveList/tags: [a]`,
		want: `
			spec:
			  values:
			    env:
			    - {name: C, value: "3"}
			    - {name: A, value: "1"}
			    ports:
			    - {port: 53, protocol: UDP}
			    - {port: 53, protocol: TCP, tags: [b]}
			    sidecars:
			    - name: proxy
			      args: [{flag: --v, value: "1"}]
			    - name: other
			      args: [{flag: --v, value: "1"}]`,
	}, {
		name: "a matcher declares the lists of the elements it selects only",
		t:    declared(t),
		dst:  dst,
		patch: `
			spec:
			  values:
			    sidecars:
			    - name: proxy
			      args: [{flag: --x, value: "2"}]
			    - name: other
			      args: [{flag: --x, value: "2"}]`,
		want: `
			spec:
			  values:
			    env:
			    - {name: A, value: "1"}
			    - {name: B, value: "2"}
			    - {name: C, value: "3"}
			    ports:
			    - {port: 53, protocol: UDP}
			    - {port: 53, protocol: TCP, tags: [a, b]}
			    sidecars:
			    - name: proxy
			      args: [{flag: --v, value: "1"}, {flag: --x, value: "2"}]
			    - name: other
			      args: [{flag: --x, value: "2"}]`,
	}, {
		name: "a declared key missing from an element is the error of built-in keys",
		t:    declared(t),
		dst:  dst,
		patch: `
			spec:
			  values:
			    ports:
			    - {port: 80}`,
		err: `spec.values.ports: element 0 (port=80) lacks "protocol": the list merges by [port, protocol] and "protocol" has no default`,
	}})
}
