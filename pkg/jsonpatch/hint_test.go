package jsonpatch

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A path that does not resolve says where it stops, what is there and,
// for a typo, the path probably meant (issue 20), instead of the library's
// "doc is missing key: /spec/replica: missing value".
func TestPathTypoHints(t *testing.T) {
	for patch, want := range map[string]string{
		`[{op: replace, path: /spec/replica, value: 2}]`:                            `op[0] replace /spec/replica: /spec has no key "replica" (did you mean /spec/replicas? keys there: replicas, template)`,
		`[{op: remove, path: /spec/templte/spec}]`:                                  `op[0] remove /spec/templte/spec: /spec has no key "templte" (did you mean /spec/template/spec? keys there: replicas, template)`,
		`[{op: add, path: /metadata/labelz/tier, value: x}]`:                        `op[0] add /metadata/labelz/tier: /metadata has no key "labelz" (did you mean /metadata/labels/tier? keys there: labels, name)`,
		`[{op: test, path: /kind2, value: x}]`:                                      `op[0] test /kind2: the resource has no key "kind2" (did you mean /kind? keys there: apiVersion, kind, metadata, spec)`,
		`[{op: replace, path: /spec/template/spec/containers/2/image, value: x}]`:   `op[0] replace /spec/template/spec/containers/2/image: /spec/template/spec/containers has 2 elements, so there is no index 2`,
		`[{op: add, path: /spec/template/spec/containers/3, value: {}}]`:            `op[0] add /spec/template/spec/containers/3: /spec/template/spec/containers has 2 elements, so there is no index 3`,
		`[{op: replace, path: /spec/template/spec/containers/api/image, value: x}]`: `op[0] replace /spec/template/spec/containers/api/image: /spec/template/spec/containers is a list: a JSON patch path selects its elements by index (0 to 1), not "api"`,
		`[{op: replace, path: /spec/replicas/x, value: 2}]`:                         `op[0] replace /spec/replicas/x: /spec/replicas is a number, not a map or list, so "x" cannot go into it`,
		`[{op: move, from: /spec/replica, path: /spec/x}]`:                          `op[0] move /spec/x: from: /spec has no key "replica" (did you mean /spec/replicas? keys there: replicas, template)`,
		`[{op: add, path: /metadata/a~1b/c, value: 1}]`:                             `op[0] add /metadata/a~1b/c: /metadata has no key "a/b" (keys there: labels, name)`,
		// the failure is elsewhere: the library's message stays
		`[{op: test, path: /spec/replicas, value: 3}]`: `op[0] test /spec/replicas: testing value /spec/replicas failed: test failed`,
	} {
		_, err := apply(t, patch, false)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", patch, err, want)
		}
	}
}

// The library counts a negative index from the end of a list (-1 is the
// last element); the hint does too, where it used to index the list with it
// and panic (an internal error).
func TestPathHintsNegativeIndex(t *testing.T) {
	for patch, want := range map[string]string{
		`[{op: replace, path: /spec/template/spec/containers/-1/nme, value: x}]`:  `op[0] replace /spec/template/spec/containers/-1/nme: /spec/template/spec/containers/-1 has no key "nme" (did you mean /spec/template/spec/containers/-1/name? keys there: image, name)`,
		`[{op: replace, path: /spec/template/spec/containers/-3/name, value: x}]`: `op[0] replace /spec/template/spec/containers/-3/name: /spec/template/spec/containers has 2 elements, so there is no index -3`,
	} {
		_, err := apply(t, patch, false)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", patch, err, want)
		}
	}
}

// In a Secret, the keys of data and stringData are neither listed nor
// suggested: they say what the Secret holds.
func TestPathHintsKeepSecretKeys(t *testing.T) {
	doc := yaml.MustParse("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ndata: {password: czNjcjN0}\nstringData: {token: t0k3n}\n")
	for patch, want := range map[string]string{
		`[{op: replace, path: /data/passwrd, value: eA==}]`: `op[0] replace /data/passwrd: /data has no key "passwrd"`,
		`[{op: remove, path: /stringData/tokn}]`:            `op[0] remove /stringData/tokn: /stringData has no key "tokn"`,
		`[{op: replace, path: /metadata/nme, value: x}]`:    `op[0] replace /metadata/nme: /metadata has no key "nme" (did you mean /metadata/name? keys there: name)`,
	} {
		o, err := ParseOps(yaml.MustParse(patch))
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Apply(doc.Copy(), nil); err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", patch, err, want)
		}
	}
}

// In a document held in a string, paths address its root, "the document";
// in one that is a Secret's value, no key found is named.
func TestEmbeddedPathHints(t *testing.T) {
	doc := yaml.MustParse(`{"server": {"tls": false, "port": 80}}`)
	o, err := ParseOps(yaml.MustParse(`[{op: replace, path: /servr/tls, value: true}]`))
	if err != nil {
		t.Fatal(err)
	}
	for secret, want := range map[bool]string{
		false: `op[0] replace /servr/tls: the document has no key "servr" (did you mean /server/tls? keys there: server)`,
		true:  `op[0] replace /servr/tls: the document has no key "servr"`,
	} {
		if err := o.ApplyEmbedded(doc.Copy(), secret, nil); err == nil || err.Error() != want {
			t.Errorf("secret %v:\n got  %v\n want %s", secret, err, want)
		}
	}
}

// A key a built-in kind has but the resource does not set, or its near
// miss, is told with the schema's name for it and that only op add sets it
// (issue 30): "keys there: selector, template" alone hid replicas.
func TestPathHintsFromSchema(t *testing.T) {
	const noReplicas = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector: {}\n  template: {}\n"
	for patch, want := range map[string]string{
		`[{op: replace, path: /spec/replica, value: 2}]`:                         `op[0] replace /spec/replica: /spec has no key "replica" (did you mean /spec/replicas? it is not set here: op add sets it; keys there: selector, template)`,
		`[{op: replace, path: /spec/strategy/rollingUpdate/maxSurge, value: 1}]`: `op[0] replace /spec/strategy/rollingUpdate/maxSurge: /spec has no key "strategy" (it is not set here: op add sets /spec/strategy; keys there: selector, template)`,
		`[{op: remove, path: /spec/sidecar}]`:                                    `op[0] remove /spec/sidecar: /spec has no key "sidecar" (keys there: selector, template)`,
	} {
		doc := yaml.MustParse(noReplicas)
		ops, err := ParseOps(yaml.MustParse(patch))
		if err != nil {
			t.Fatal(err)
		}
		if err := ops.Apply(doc, nil); err == nil || err.Error() != want {
			t.Errorf("%s:\n got  %v\n want %s", patch, err, want)
		}
	}
}
