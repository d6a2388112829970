package schema

import (
	"reflect"
	"strings"
	"testing"
)

// at walks from t: a field name steps into a map's field, "[]" into a list's
// elements.
func at(t *Type, path string) *Type {
	for _, step := range strings.Split(path, ".") {
		if step == "[]" {
			t = t.Element()
		} else {
			t = t.Field(step)
		}
	}
	return t
}

func lookup(t *testing.T, apiVersion, kind string) *Type {
	t.Helper()
	root := Builtin().Lookup(apiVersion, kind)
	if root == nil {
		t.Fatalf("Lookup(%q, %q) = nil", apiVersion, kind)
	}
	return root
}

func TestBuiltinLists(t *testing.T) {
	deployment := lookup(t, "apps/v1", "Deployment")
	service := lookup(t, "v1", "Service")
	tests := []struct {
		name     string
		root     *Type
		path     string
		strategy ListStrategy
		keys     []string
		defaults map[string]string
	}{
		{"containers", deployment, "spec.template.spec.containers", MergeByKeys, []string{"name"}, nil},
		{"initContainers", deployment, "spec.template.spec.initContainers", MergeByKeys, []string{"name"}, nil},
		{"container ports", deployment, "spec.template.spec.containers.[].ports", MergeByKeys,
			[]string{"containerPort", "protocol"}, map[string]string{"protocol": "TCP"}},
		{"env", deployment, "spec.template.spec.containers.[].env", MergeByKeys, []string{"name"}, nil},
		{"volumeMounts", deployment, "spec.template.spec.containers.[].volumeMounts", MergeByKeys, []string{"mountPath"}, nil},
		{"args", deployment, "spec.template.spec.containers.[].args", Replace, nil, nil},
		{"command", deployment, "spec.template.spec.containers.[].command", Replace, nil, nil},
		{"tolerations", deployment, "spec.template.spec.tolerations", Replace, nil, nil},
		// LocalObjectReference.name has +default="" ("almost certainly
		// wrong" when empty): no default for the key.
		{"imagePullSecrets", deployment, "spec.template.spec.imagePullSecrets", MergeByKeys, []string{"name"}, nil},
		{"topologySpreadConstraints", deployment, "spec.template.spec.topologySpreadConstraints", MergeByKeys,
			[]string{"topologyKey", "whenUnsatisfiable"}, nil},
		{"volumes", deployment, "spec.template.spec.volumes", MergeByKeys, []string{"name"}, nil},
		{"finalizers", deployment, "metadata.finalizers", Set, nil, nil},
		{"pod template finalizers", deployment, "spec.template.metadata.finalizers", Set, nil, nil},
		{"ownerReferences", deployment, "metadata.ownerReferences", MergeByKeys, []string{"uid"}, nil},
		{"service ports", service, "spec.ports", MergeByKeys, []string{"port", "protocol"}, map[string]string{"protocol": "TCP"}},
		// Atomic in the structured-merge schema, merged by the strategic
		// merge struct tags (patchStrategy:"merge" patchMergeKey:"type").
		{"job conditions", lookup(t, "batch/v1", "Job"), "status.conditions", MergeByKeys, []string{"type"}, nil},
		{"CRD conditions", lookup(t, "apiextensions.k8s.io/v1", "CustomResourceDefinition"), "status.conditions", MergeByKeys, []string{"type"}, nil},
		{"CRD versions", lookup(t, "apiextensions.k8s.io/v1", "CustomResourceDefinition"), "spec.versions", Replace, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			typ := at(tc.root, tc.path)
			strategy, keys := typ.List()
			if strategy != tc.strategy || !reflect.DeepEqual(keys, tc.keys) {
				t.Errorf("%s: List() = %v %q, want %v %q", tc.path, strategy, keys, tc.strategy, tc.keys)
			}
			for _, k := range keys {
				got, ok := typ.KeyDefault(k)
				want, wantOK := tc.defaults[k]
				if got != want || ok != wantOK {
					t.Errorf("%s: KeyDefault(%q) = %q %v, want %q %v", tc.path, k, got, ok, want, wantOK)
				}
			}
		})
	}
}

func TestBuiltinMaps(t *testing.T) {
	deployment := lookup(t, "apps/v1", "Deployment")
	if !at(deployment, "spec.strategy").RetainKeys {
		t.Error("Deployment spec.strategy: RetainKeys = false")
	}
	if !at(deployment, "spec.template.spec.volumes.[]").RetainKeys {
		t.Error("volumes[]: RetainKeys = false")
	}
	if at(deployment, "spec.template.spec").RetainKeys {
		t.Error("PodSpec: RetainKeys = true")
	}
	// The retainKeys copy of DeploymentStrategy must not leak into the
	// named type.
	if n := Builtin().Named("io.k8s.api.apps.v1.DeploymentStrategy"); n != nil && n.RetainKeys {
		t.Error("named DeploymentStrategy: RetainKeys = true")
	}
	if !at(lookup(t, "policy/v1", "PodDisruptionBudget"), "spec.selector").ReplaceMap {
		t.Error("PodDisruptionBudget spec.selector: ReplaceMap = false")
	}
	if got := at(deployment, "metadata.labels"); got != nil {
		t.Errorf("metadata.labels = %+v, want nil (a map of strings merges as unknown)", got)
	}
}

func TestBuiltinLookup(t *testing.T) {
	s := Builtin()
	if s != Builtin() {
		t.Error("Builtin() builds a new Schema on every call")
	}
	for _, tc := range []struct{ apiVersion, kind string }{
		{"v1", "Nope"}, {"apps/v1", "Pod"}, {"core/v1", "Pod"}, {"", "Pod"}, {"example.com/v1", "Deployment"},
	} {
		if got := s.Lookup(tc.apiVersion, tc.kind); got != nil {
			t.Errorf("Lookup(%q, %q) = %+v, want nil", tc.apiVersion, tc.kind, got)
		}
	}
	podSpec := s.Named("io.k8s.api.core.v1.PodSpec")
	if podSpec == nil {
		t.Fatal(`Named("io.k8s.api.core.v1.PodSpec") = nil`)
	}
	for _, kind := range [][2]string{{"v1", "Pod"}, {"apps/v1", "Deployment"}, {"apps/v1", "StatefulSet"}, {"apps/v1", "DaemonSet"}, {"batch/v1", "Job"}} {
		path := "spec.template.spec"
		if kind[1] == "Pod" {
			path = "spec"
		}
		if got := at(lookup(t, kind[0], kind[1]), path); got != podSpec {
			t.Errorf("%s %s %s is not the named PodSpec", kind[0], kind[1], path)
		}
	}
	if got := at(lookup(t, "batch/v1", "CronJob"), "spec.jobTemplate.spec.template.spec"); got != podSpec {
		t.Error("CronJob's pod spec is not the named PodSpec")
	}
	if s.Named("io.k8s.api.core.v1.NoSuchType") != nil {
		t.Error("Named of an unknown type is not nil")
	}
}

// Every kind in the tables resolves, and carries ObjectMeta.
func TestBuiltinKinds(t *testing.T) {
	s := Builtin()
	meta := s.Named(objectMetaName)
	if meta == nil {
		t.Fatal("no ObjectMeta")
	}
	groups := map[string]bool{}
	for _, k := range builtinKinds {
		root := s.Lookup(k.apiVersion, k.kind)
		if root == nil || root.Field("metadata") != meta {
			t.Errorf("%s %s: root %+v has no ObjectMeta", k.apiVersion, k.kind, root)
		}
		groups[strings.Split(k.apiVersion, "/")[0]] = true
	}
	for _, g := range []string{"v1", "apps", "batch", "networking.k8s.io", "rbac.authorization.k8s.io", "policy",
		"autoscaling", "storage.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io"} {
		if !groups[g] {
			t.Errorf("no kinds of group %q", g)
		}
	}
}

// The tables are consistent: references in range, keys where lists merge by
// keys, defaults only for key fields.
func TestBuiltinTables(t *testing.T) {
	in := func(i uint16) bool { return int(i) < len(builtinTypes) }
	for i, row := range builtinTypes {
		if !in(row.elem) {
			t.Errorf("type %d: elem %d out of range", i, row.elem)
		}
		for _, f := range row.fields {
			if !in(f.typ) || f.typ == 0 {
				t.Errorf("type %d field %s: type %d invalid", i, f.name, f.typ)
			}
		}
		if (row.strategy == MergeByKeys) != (len(row.keys) > 0) {
			t.Errorf("type %d: strategy %v with keys %q", i, row.strategy, row.keys)
		}
		if len(row.defaults)%2 != 0 {
			t.Errorf("type %d: odd defaults %q", i, row.defaults)
		}
		for j := 0; j+1 < len(row.defaults); j += 2 {
			if !contains(row.keys, row.defaults[j]) || row.defaults[j+1] == "" {
				t.Errorf("type %d: default %q=%q is not for a key", i, row.defaults[j], row.defaults[j+1])
			}
		}
	}
	for _, k := range builtinKinds {
		if !in(k.typ) || k.typ == 0 {
			t.Errorf("%s %s: type %d invalid", k.apiVersion, k.kind, k.typ)
		}
	}
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

func TestNilType(t *testing.T) {
	var n *Type
	if n.Field("x") != nil || n.Element() != nil {
		t.Error("nil Type has children")
	}
	if s, k := n.List(); s != Replace || k != nil {
		t.Errorf("nil List() = %v %v", s, k)
	}
	if _, ok := n.KeyDefault("protocol"); ok {
		t.Error("nil Type has a key default")
	}
	var s *Schema
	if s.Lookup("v1", "Pod") != nil || s.Named("x") != nil {
		t.Error("nil Schema knows something")
	}
}
