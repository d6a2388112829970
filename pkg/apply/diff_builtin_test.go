package apply

import (
	"testing"

	extapply "k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	extscheme "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	smd "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// TestDifferentialBuiltin merges, for every built-in kind (each has keyed
// lists: metadata.ownerReferences at least), objects made from its schema
// with package apply and with the API server's field manager typed by
// client-go's (or apiextensions-apiserver's) apply configurations: the
// results must be the same. kube-aggregator's kinds, whose type converter
// would need that module, are left out.
func TestDifferentialBuiltin(t *testing.T) {
	converters := []struct {
		recognizes func(schema.GroupVersionKind) bool
		tc         managedfields.TypeConverter
	}{
		{scheme.Scheme.Recognizes, applyconfigurations.NewTypeConverter(scheme.Scheme)},
		{extscheme.Scheme.Recognizes, extapply.NewTypeConverter(extscheme.Scheme)},
	}
	counts := map[outcome]int{}
	skipped := map[string]bool{}
	for key, name := range Builtin().kinds {
		gv, err := schema.ParseGroupVersion(key.apiVersion)
		if err != nil {
			t.Fatal(err)
		}
		gvk := gv.WithKind(key.kind)
		var tc managedfields.TypeConverter
		for _, c := range converters {
			if c.recognizes(gvk) {
				tc = c.tc
				break
			}
		}
		if tc == nil {
			skipped[key.apiVersion+" "+key.kind] = true
			continue
		}
		typ, err := Builtin().For(key.apiVersion, key.kind)
		if err != nil {
			t.Fatal(err)
		}
		v := newGenerator(Builtin().smd).root(smd.TypeRef{NamedType: &name}, key.apiVersion, key.kind)
		o, msg := compare(tc, gvk, typ, v)
		counts[o]++
		if o == differ || o == bothRefused {
			t.Errorf("%s %s: %s", key.apiVersion, key.kind, msg)
		}
	}
	t.Logf("%d kinds: %d merged alike (changed), %d alike (unchanged); %d left out: %s",
		len(Builtin().kinds), counts[agreeChanged], counts[agreeUnchanged], len(skipped), kindsReport(skipped))
	if counts[agreeChanged] < 150 || len(skipped) > 5 {
		t.Errorf("too few kinds compared: the test would prove little")
	}
}
