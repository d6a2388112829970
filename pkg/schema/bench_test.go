package schema

import "testing"

// BenchmarkBuiltinColdStart measures what the first Builtin() and Lookup of a
// process cost: building the Type graph from the generated tables.
func BenchmarkBuiltinColdStart(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := buildBuiltin()
		if s.Lookup("apps/v1", "Deployment") == nil {
			b.Fatal("no Deployment")
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	s := Builtin()
	for b.Loop() {
		if s.Lookup("apps/v1", "Deployment") == nil {
			b.Fatal("no Deployment")
		}
	}
}

func BenchmarkWithCRDs(b *testing.B) {
	items := parse(b, fooCRD, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	s := Builtin()
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.WithCRDs(items); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildRules: the rules of a Deployment built from the generated
// tables, as a run that validates one does once; and of every built-in
// kind.
func BenchmarkBuildRules(b *testing.B) {
	fresh := func() {
		rulesMu.Lock()
		ruleKindAt, ruleMemo = nil, nil
		rulesMu.Unlock()
	}
	b.Run("deployment", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fresh()
			builtinRule(kindKey{"apps/v1", "Deployment"})
		}
	})
	b.Run("every-kind", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fresh()
			for _, k := range ruleKinds {
				builtinRule(kindKey{k.apiVersion, k.kind})
			}
		}
	})
}
