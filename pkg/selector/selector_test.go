package selector

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func res(t *testing.T, s string) *yaml.RNode {
	t.Helper()
	return yaml.MustParse(s)
}

var items = []string{
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app1-web, namespace: prod, labels: {env: dev}, annotations: {docs: 'https://x/y'}}\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app1-api, labels: {env: qa, legacy: 'true'}}\n",
	"apiVersion: v1\nkind: Service\nmetadata: {name: app1-web, namespace: prod, labels: {env: dev}}\n",
	"apiVersion: example.com/v1beta1\nkind: Widget\nmetadata: {name: w, namespace: staging}\n",
}

func index(t *testing.T) *Index {
	var nodes []*yaml.RNode
	for _, s := range items {
		nodes = append(nodes, res(t, s))
	}
	return NewIndex(nodes, nil)
}

func TestSelect(t *testing.T) {
	ix := index(t)
	for _, tc := range []struct {
		name string
		set  Set
		want []int
	}{
		{"empty selects everything", Set{}, []int{0, 1, 2, 3}},
		{"empty target selects everything", Set{Target: &Selector{}}, []int{0, 1, 2, 3}},
		{"kind literal", Set{Target: &Selector{Kind: "Deployment"}}, []int{0, 1}},
		{"kind regex", Set{Target: &Selector{Kind: "Deploy.*|Service"}}, []int{0, 1, 2}},
		{"regex is anchored", Set{Target: &Selector{Kind: "Deploy"}}, nil},
		{"name regex", Set{Target: &Selector{Name: "app1-.*"}}, []int{0, 1, 2}},
		{"group of core is empty", Set{Target: &Selector{Group: "", Version: "v1", Kind: "Service"}}, []int{2}},
		{"group regex", Set{Target: &Selector{Group: `.*\.com`}}, []int{3}},
		{"version", Set{Target: &Selector{Version: "v1beta1"}}, []int{3}},
		{"apiVersion", Set{Target: &Selector{APIVersion: "apps/v1"}}, []int{0, 1}},
		{"apiVersion of the core group", Set{Target: &Selector{APIVersion: "v1"}}, []int{2}},
		{"namespace", Set{Target: &Selector{Namespace: "prod|staging"}}, []int{0, 2, 3}},
		{"no namespace is default", Set{Target: &Selector{Namespace: "default"}}, []int{1}},
		{"label selector", Set{Target: &Selector{LabelSelector: "env in (dev,qa),!legacy"}}, []int{0, 2}},
		{"annotation selector", Set{Target: &Selector{AnnotationSelector: "docs"}}, []int{0}},
		{"match annotations take any value", Set{Target: &Selector{MatchAnnotations: map[string]string{"docs": "https://x/y"}}}, []int{0}},
		{"match annotations exact", Set{Target: &Selector{MatchAnnotations: map[string]string{"docs": "https://x"}}}, nil},
		{"fields are ANDed", Set{Target: &Selector{Kind: "Deployment", LabelSelector: "env=dev"}}, []int{0}},
		{"targets are a union", Set{Targets: []Selector{{Kind: "Service"}, {Kind: "Widget"}}}, []int{2, 3}},
		{"target and targets", Set{Target: &Selector{Kind: "Widget"}, Targets: []Selector{{Kind: "Service"}}}, []int{2, 3}},
		{"union with a regex kind", Set{Targets: []Selector{{Kind: "Serv.*"}, {Name: "w"}}}, []int{2, 3}},
		{"reject", Set{Target: &Selector{Kind: "Deployment"}, Reject: []Selector{{LabelSelector: "legacy"}}}, []int{0}},
		{"reject only", Set{Reject: []Selector{{Namespace: "prod"}}}, []int{1, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := CompileSet(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			got := m.Select(ix)
			if fmtInts(got) != fmtInts(tc.want) {
				t.Fatalf("selected %v, want %v", got, tc.want)
			}
		})
	}
}

func fmtInts(s []int) string {
	var b strings.Builder
	for _, i := range s {
		b.WriteString(" ")
		b.WriteByte(byte('0' + i))
	}
	return b.String()
}

func TestIndexFollowsChanges(t *testing.T) {
	ix := index(t)
	m, _ := CompileSet(Set{Target: &Selector{Kind: "Deployment", LabelSelector: "team=a"}})
	if got := m.Select(ix); len(got) != 0 {
		t.Fatalf("selected %v before the change", got)
	}
	ix.Item(1).PipeE(yaml.SetLabel("team", "a"))
	ix.Refresh(1)
	if got := m.Select(ix); len(got) != 1 || got[0] != 1 {
		t.Fatalf("selected %v after relabelling", got)
	}
	ix.Item(3).SetKind("Deployment")
	ix.Item(3).PipeE(yaml.SetLabel("team", "a"))
	ix.Refresh(3)
	if got := m.Select(ix); len(got) != 2 || got[1] != 3 {
		t.Fatalf("selected %v after a kind change", got)
	}
	ix.Remove(1)
	if got := m.Select(ix); len(got) != 1 || got[0] != 3 {
		t.Fatalf("selected %v after removal", got)
	}
	if n := len(ix.Items()); n != 3 {
		t.Fatalf("%d items left", n)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		set  Set
		want string
	}{
		{Set{Target: &Selector{Name: "*-web"}}, `target.name: invalid regular expression "*-web"`},
		{Set{Targets: []Selector{{}, {Kind: "("}}}, "targets[1].kind"},
		{Set{Reject: []Selector{{LabelSelector: "a in (b"}}}, "reject[0].labelSelector"},
		{Set{Target: &Selector{AnnotationSelector: "url=https://x/y"}}, "matchAnnotations"},
		// issue 28, item 9: refused before it runs
		{Set{Target: &Selector{Name: "[a-y]{900}|[b-z]{900}"}}, "target.name: the regular expression compiles to 1803 instructions"},
	} {
		_, err := CompileSet(tc.set)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.set, err, tc.want)
		}
	}
}

func TestString(t *testing.T) {
	s := Selector{Kind: "Deployment", Name: "app1-*", MatchAnnotations: map[string]string{"b": "2", "a": "1"}}
	if got := s.String(); got != "{kind=Deployment name=app1-* matchAnnotations=a=1,b=2}" {
		t.Fatalf("got %q", got)
	}
}

// The Kptfile, local-config resources and the function's own config are
// selected only by a target naming their kind and name; reading them as a
// replacement source (ReadOnly) is allowed.
func TestGuardedResources(t *testing.T) {
	var nodes []*yaml.RNode
	for _, s := range []string{
		"apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: pkg}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: values, annotations: {config.kubernetes.io/local-config: 'true'}}\n",
		"apiVersion: fn.example.com/v1\nkind: MultiPatch\nmetadata: {name: api}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app.v1}\n",
	} {
		nodes = append(nodes, res(t, s))
	}
	config := res(t, "apiVersion: fn.example.com/v1\nkind: MultiPatch\nmetadata: {name: api}\npatches: []\n")
	ix := NewIndex(nodes, config)
	for _, tc := range []struct {
		name     string
		set      Set
		readOnly bool
		want     []int
	}{
		{"everything but bookkeeping", Set{}, false, []int{3, 4}},
		{"namespace default", Set{Target: &Selector{Namespace: "default"}}, false, []int{3, 4}},
		{"name only", Set{Target: &Selector{Name: "api"}}, false, []int{3}},
		{"kind only", Set{Target: &Selector{Kind: "ConfigMap"}}, false, []int{4}},
		{"kind and name pattern", Set{Target: &Selector{Kind: "Kptfile", Name: "p.*"}}, false, nil},
		{"kind and name", Set{Target: &Selector{Kind: "Kptfile", Name: "pkg"}}, false, []int{0}},
		{"escaped literal name", Set{Target: &Selector{Kind: "ConfigMap", Name: `app\.v1`}}, false, []int{4}},
		{"the config by kind and name", Set{Target: &Selector{Kind: "MultiPatch", Name: "api"}}, false, []int{2}},
		{"local-config by kind and name", Set{Targets: []Selector{{Kind: "ConfigMap", Name: "values"}}}, false, []int{1}},
		{"a source reads anything", Set{Target: &Selector{Kind: "ConfigMap"}}, true, []int{1, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := CompileSet(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if tc.readOnly {
				m.ReadOnly()
			}
			if got := m.Select(ix); fmtInts(got) != fmtInts(tc.want) {
				t.Fatalf("selected %v, want %v", got, tc.want)
			}
		})
	}
}

// Resources renamed earlier in a kustomize build carry their earlier IDs in
// kustomize's previous-ID annotations; selectors match the current ID or
// any earlier one, kind, name and namespace from the same ID.
func TestEarlierIDs(t *testing.T) {
	var nodes []*yaml.RNode
	for _, s := range []string{
		// namePrefix prod-, then namespace prod
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: prod-settings, namespace: prod, annotations: {" +
			"internal.config.kubernetes.io/previousNames: 'settings,prod-settings', " +
			"internal.config.kubernetes.io/previousKinds: 'ConfigMap,ConfigMap', " +
			"internal.config.kubernetes.io/previousNamespaces: 'default,default'}}\n",
		// a patch changed the kind
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: new-name, annotations: {" +
			"internal.config.kubernetes.io/previousNames: old-name, " +
			"internal.config.kubernetes.io/previousKinds: Deployment, " +
			"internal.config.kubernetes.io/previousNamespaces: default}}\n",
		// lists of different lengths: no earlier IDs
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: odd, annotations: {" +
			"internal.config.kubernetes.io/previousNames: 'a,b', " +
			"internal.config.kubernetes.io/previousKinds: ConfigMap, " +
			"internal.config.kubernetes.io/previousNamespaces: default}}\n",
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: pre-reader, annotations: {" +
			"internal.config.kubernetes.io/previousNames: reader, " +
			"internal.config.kubernetes.io/previousKinds: ClusterRole, " +
			"internal.config.kubernetes.io/previousNamespaces: _non_namespaceable_}}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: staging}\n",
	} {
		nodes = append(nodes, res(t, s))
	}
	ix := NewIndex(nodes, nil)
	for _, tc := range []struct {
		name string
		set  Set
		want []int
	}{
		{"base name", Set{Target: &Selector{Kind: "ConfigMap", Name: "settings"}}, []int{0, 4}},
		{"intermediate name", Set{Target: &Selector{Name: "prod-settings", Namespace: "default"}}, []int{0}},
		{"current name", Set{Target: &Selector{Name: "prod-settings", Namespace: "prod"}}, []int{0}},
		{"fields from one ID", Set{Target: &Selector{Name: "settings", Namespace: "prod"}}, nil},
		{"earlier kind, through the kind index", Set{Target: &Selector{Kind: "Deployment"}}, []int{1}},
		{"earlier kind and name", Set{Target: &Selector{Kind: "Deployment", Name: "old-name"}}, []int{1}},
		{"earlier name, current kind", Set{Target: &Selector{Kind: "StatefulSet", Name: "old-name"}}, nil},
		{"inconsistent annotations are ignored", Set{Target: &Selector{Name: "a|b"}}, nil},
		{"cluster-scoped earlier name", Set{Target: &Selector{Kind: "ClusterRole", Name: "reader"}}, []int{3}},
		{"reject by an earlier name", Set{Target: &Selector{Kind: "ConfigMap"}, Reject: []Selector{{Name: "settings", Namespace: "default"}}}, []int{2, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := CompileSet(tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Select(ix); fmtInts(got) != fmtInts(tc.want) {
				t.Fatalf("selected %v, want %v", got, tc.want)
			}
		})
	}
	// A refresh keeps the earlier kinds in the kind index.
	ix.Item(1).SetKind("DaemonSet")
	ix.Refresh(1)
	for kind, want := range map[string][]int{"Deployment": {1}, "StatefulSet": nil, "DaemonSet": {1}} {
		m, _ := CompileSet(Set{Target: &Selector{Kind: kind}})
		if got := m.Select(ix); fmtInts(got) != fmtInts(want) {
			t.Errorf("after a kind change, kind %s selects %v, want %v", kind, got, want)
		}
	}
}

func TestRecordEarlierID(t *testing.T) {
	outside := res(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n")
	if err := RecordEarlierID(outside, ID{Kind: "ConfigMap", Name: "a"}); err != nil {
		t.Fatal(err)
	}
	if len(outside.GetAnnotations()) != 0 {
		t.Errorf("outside a kustomize build nothing is recorded: %v", outside.GetAnnotations())
	}
	in := res(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {kustomize.config.k8s.io/id: x, "+
		"internal.config.kubernetes.io/previousNames: a, internal.config.kubernetes.io/previousKinds: ConfigMap, "+
		"internal.config.kubernetes.io/previousNamespaces: default}}\n")
	if err := RecordEarlierID(in, ID{Kind: "ConfigMap", Name: "b"}); err != nil {
		t.Fatal(err)
	}
	r := Describe(in)
	if got := r.Earlier; len(got) != 2 || got[1] != (ID{"ConfigMap", "b", "default"}) || got[0].Name != "a" {
		t.Errorf("earlier IDs %v", got)
	}
}

// Explain, the message of a selection that found nothing (issue 14): near
// misses for literal kinds and names, and what reject removed.
func TestExplain(t *testing.T) {
	items := []*yaml.RNode{
		yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: prod}\n"),
		yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api-config, namespace: prod}\n"),
	}
	ix := NewIndex(items, nil)
	for _, c := range []struct {
		set  Set
		want string
	}{
		{Set{Target: &Selector{Kind: "deployment"}}, "target {kind=deployment} matches no resource (did you mean kind: Deployment?)"},
		{Set{Target: &Selector{Kind: "ConfigMap", Name: "api-confg"}}, "target {kind=ConfigMap name=api-confg} matches no resource (did you mean name: api-config? v1 ConfigMap prod/api-config exists)"},
		{Set{Target: &Selector{Kind: "Secret", Name: "api-confg"}}, "target {kind=Secret name=api-confg} matches no resource"},
		{Set{Target: &Selector{Name: "zzz-unrelated"}}, "target {name=zzz-unrelated} matches no resource"},
		{Set{Target: &Selector{Kind: "ConfigMap", Name: "api-confg.*"}}, "target {kind=ConfigMap name=api-confg.*} matches no resource"}, // a pattern: no guess
		{Set{Target: &Selector{Kind: "Deployment"}, Reject: []Selector{{Name: "api"}}}, "target {kind=Deployment} matches 1 resource, all removed by reject {name=api}"},
		{Set{Reject: []Selector{{Namespace: "prod"}}}, "reject {namespace=prod} removes every resource (2)"},
	} {
		sm, err := CompileSet(c.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := sm.Explain(ix, "target"); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// Explain's hints for a name pattern that forgets names match whole, and
// for a label value the candidates do not have (issue 20).
func TestExplainHints(t *testing.T) {
	items := []*yaml.RNode{
		yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: prod, labels: {app: api, tier: backend}}\n"),
		yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: api-config, namespace: prod}\n"),
		yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: prod, labels: {app: web, tier: frontend}}\n"),
		yaml.MustParse("apiVersion: v1\nkind: Secret\nmetadata: {name: web-tls, namespace: prod, labels: {tier: edge}}\n"),
	}
	ix := NewIndex(items, nil)
	for _, c := range []struct {
		set  Set
		want string
	}{
		{Set{Target: &Selector{Name: "^api-"}}, `target {name=^api-} matches no resource (names match whole, as in kustomize, so ^ and $ are implied: did you mean "api-.*"? it matches 1 resource)`},
		{Set{Target: &Selector{Name: "-config$"}}, `target {name=-config$} matches no resource (names match whole, as in kustomize, so ^ and $ are implied: did you mean ".*-config"? it matches 1 resource)`},
		{Set{Target: &Selector{Kind: "ConfigMap", Name: "^web-"}}, `target {kind=ConfigMap name=^web-} matches no resource (names match whole, as in kustomize, so ^ and $ are implied)`},
		{Set{Target: &Selector{Kind: "Deployment", Name: "^a"}, Reject: []Selector{{Name: "api"}}}, `target {kind=Deployment name=^a} matches no resource (names match whole, as in kustomize, so ^ and $ are implied)`},
		{Set{Target: &Selector{Kind: "ConfigMap", Name: "api"}}, `target {kind=ConfigMap name=api} matches no resource (names match whole, as in kustomize: did you mean "api.*"? it matches 1 resource)`},
		{Set{Target: &Selector{Name: "^api|^web"}}, `target {name=^api|^web} matches no resource (names match whole, as in kustomize, so ^ and $ are implied: did you mean "(?:api|^web).*"? it matches 4 resources)`},
		{Set{Target: &Selector{Name: `ap\$`}}, `target {name=ap\$} matches no resource (did you mean name: api? apps/v1 Deployment prod/api exists)`}, // an escaped $ is no anchor, but a literal
		{Set{Target: &Selector{Name: "^a.$"}}, `target {name=^a.$} matches no resource`},
		{Set{Target: &Selector{Name: "api-*"}}, `target {name=api-*} matches no resource (name is a regular expression, not a shell glob: did you mean "api-.*"?)`},
		// label values
		{Set{Target: &Selector{Kind: "Deployment", LabelSelector: "tier=backnd"}}, "target {kind=Deployment labelSelector=tier=backnd} matches no resource (label tier has values backend, frontend among the 2 resources the rest of the target selects: did you mean tier=backend?)"},
		{Set{Target: &Selector{Kind: "Deployment", LabelSelector: "tier in (back, db)"}}, "target {kind=Deployment labelSelector=tier in (back, db)} matches no resource (label tier has values backend, frontend among the 2 resources the rest of the target selects)"},
		{Set{Target: &Selector{Kind: "Deployment", LabelSelector: "teir=backend,app=web"}}, "target {kind=Deployment labelSelector=teir=backend,app=web} matches no resource (none of the 2 resources the rest of the target selects has label teir: did you mean tier?)"},
		{Set{Target: &Selector{Kind: "Deployment", LabelSelector: "team=a"}}, "target {kind=Deployment labelSelector=team=a} matches no resource (none of the 2 resources the rest of the target selects has label team (their labels: app, tier))"},
		{Set{Target: &Selector{Kind: "Deployment", LabelSelector: "tier!=backend,tier!=frontend"}}, "target {kind=Deployment labelSelector=tier!=backend,tier!=frontend} matches no resource"},
		{Set{Target: &Selector{Kind: "Job", LabelSelector: "tier=backnd"}}, "target {kind=Job labelSelector=tier=backnd} matches no resource"},
		{Set{Targets: []Selector{{Kind: "Secret", LabelSelector: "tier=edg"}, {Kind: "Deployment", LabelSelector: "tier=db"}}}, "target {kind=Secret labelSelector=tier=edg} or {kind=Deployment labelSelector=tier=db} matches no resource (label tier has value edge among the 1 resource the rest of the target selects: did you mean tier=edge?) (label tier has values backend, frontend among the 2 resources the rest of the target selects)"},
	} {
		sm, err := CompileSet(c.set)
		if err != nil {
			t.Fatal(err)
		}
		if got := sm.Explain(ix, "target"); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
