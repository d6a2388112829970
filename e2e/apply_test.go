package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// applyDNS is a CoreDNS-like Deployment: a DNS port on UDP, a toleration, a
// set of finalizers, comments that must survive.
const applyDNS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dns # CoreDNS
  finalizers: [example.com/audit]
spec:
  template:
    spec:
      tolerations:
      - key: CriticalAddonsOnly
        operator: Exists
      containers:
      - name: dns
        image: coredns/coredns:1.11
        ports:
        - containerPort: 53 # the resolver
          protocol: UDP
          name: dns
`

// applyWidget is a resource of schemaCRD's Widget, whose parts are keyed
// by id.
const applyWidget = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  parts:
  - {id: a, size: 1}
`

// TestApplyPatch runs apply patches (type: ApplyPatch) through the built
// binaries: multi-patch standalone and on a ResourceList, podspec-patch,
// and a patch the API server would refuse. The merge is server-side
// apply's: ports keyed by port and protocol, tolerations atomic,
// finalizers a set, a CRD's lists as its schema declares.
func TestApplyPatch(t *testing.T) {
	mp := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	config := write("apply.yaml", `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata: {name: apply}
patches:
- target: {kind: Deployment}
  type: ApplyPatch
  patch: |-
    metadata:
      finalizers: [example.com/keep]
    spec:
      template:
        spec:
          tolerations:
          - {key: node-role.kubernetes.io/control-plane, operator: Exists}
          containers:
          - name: dns
            ports:
            - {containerPort: 53, protocol: TCP, name: dns-tcp}
- target: {kind: Widget}
  type: apply
  patch: |-
    spec:
      parts:
      - {id: b, size: 2}
`)
	r := run(t, dir, nil, nil, mp, config, write("dns.yaml", applyDNS), write("widgets.yaml", schemaCRD+"---\n"+applyWidget))
	if r.code != 0 {
		t.Fatalf("multi-patch standalone:\n%s", r)
	}
	for _, want := range []string{
		"name: dns # CoreDNS", "finalizers: [example.com/audit, example.com/keep]",
		"- containerPort: 53 # the resolver\n          protocol: UDP\n          name: dns\n        - containerPort: 53\n          protocol: TCP\n          name: dns-tcp",
		"- key: node-role.kubernetes.io/control-plane", // tolerations replaced...
		"- {id: a, size: 1}\n  - id: b\n    size: 2",   // ...parts keyed by id
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q\n%s", want, r)
		}
	}
	for _, gone := range []string{"CriticalAddonsOnly"} {
		if strings.Contains(r.stdout, gone) {
			t.Errorf("the output keeps %q, which the apply patch replaces\n%s", gone, r)
		}
	}

	// The same on a ResourceList, as kpt hands it.
	list := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + indentItems(applyDNS) +
		"functionConfig:\n" + indent(readFile(t, config), "  ")
	r = run(t, dir, nil, []byte(list), mp)
	if r.code != 0 || !strings.Contains(r.stdout, "name: dns-tcp") || strings.Contains(r.stdout, "CriticalAddonsOnly") {
		t.Errorf("multi-patch on a ResourceList:\n%s", r)
	}

	// A field the kind lacks is an error, as the API server's.
	bad := write("bad.yaml", "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: bad}\npatches:\n"+
		"- target: {kind: Deployment}\n  type: ApplyPatch\n  patch: 'spec: {replica: 3}'\n")
	r = run(t, dir, nil, nil, mp, bad, filepath.Join(dir, "dns.yaml"))
	if r.code != 1 || !strings.Contains(r.stderr, `unknown field "replica" for apps/v1 Deployment (did you mean replicas?): the API server refuses`) {
		t.Errorf("want exit 1 and the unknown field named\n%s", r)
	}

	// A key given twice, in the patch or in a document held in a string, is
	// an error: the merge would read the last, an edit change the first.
	twice := write("twice.yaml", "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: twice}\npatches:\n"+
		"- target: {kind: ConfigMap}\n  embedded: data.app\\.yaml\n  type: apply\n  patch: 'server: {port: 8080}'\n")
	cm := write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\ndata:\n  app.yaml: |\n    server:\n      host: a\n      host: b\n")
	r = run(t, dir, nil, nil, mp, twice, cm)
	if r.code != 1 || !strings.Contains(r.stderr, `the key "host" is given twice in server (lines 2 and 3 of the value)`) {
		t.Errorf("want exit 1 and the key given twice named\n%s", r)
	}

	// podspec-patch: the PodSpec patch and the container patch alike.
	ps := requireFunction(t, "podspec-patch")
	psConfig := write("podspec.yaml", `apiVersion: fn.patchwork.dev/v1alpha1
kind: PodSpecPatch
metadata: {name: apply}
patchesPodSpec:
- target: {kind: Deployment}
  type: ApplyPatch
  patch: |
    tolerations:
    - {key: dedicated, operator: Equal, value: dns, effect: NoSchedule}
  containerPatch: |
    ports:
    - {containerPort: 53, protocol: TCP, name: dns-tcp}
`)
	r = run(t, dir, nil, nil, ps, psConfig, filepath.Join(dir, "dns.yaml"))
	if r.code != 0 || !strings.Contains(r.stdout, "name: dns-tcp") || !strings.Contains(r.stdout, "key: dedicated") ||
		strings.Contains(r.stdout, "CriticalAddonsOnly") || !strings.Contains(r.stdout, "- containerPort: 53 # the resolver") {
		t.Errorf("podspec-patch with type ApplyPatch:\n%s", r)
	}
}

// indentItems makes a YAML stream the items of a ResourceList.
func indentItems(stream string) string {
	var b strings.Builder
	for _, doc := range strings.Split(stream, "---\n") {
		b.WriteString("- " + strings.TrimSuffix(indent(doc, "  ")[2:], "\n") + "\n")
	}
	return b.String()
}

// BenchmarkStartupApply is BenchmarkStartup with the patch an apply patch:
// the start-up plus building the built-in apply schema from its tables,
// which only a run with an apply patch pays.
func BenchmarkStartupApply(b *testing.B) {
	benchStartup(b, strings.Replace(onePatch, "  - target: {kind: Deployment}\n", "  - target: {kind: Deployment}\n    type: ApplyPatch\n", 1))
}
