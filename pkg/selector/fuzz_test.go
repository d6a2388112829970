package selector

import "testing"

// FuzzCompile: any selector text either compiles or is refused with an
// error; a compiled one matches without panicking.
func FuzzCompile(f *testing.F) {
	f.Add("Deployment", "app1-.*", "prod|staging", "env in (dev,qa),!legacy", "team=a")
	f.Add("*", "app1-*", "", "a,b!=c", "x notin (y)")
	f.Fuzz(func(t *testing.T, kind, name, ns, labelSel, annoSel string) {
		m, err := Compile(Selector{Kind: kind, Name: name, Namespace: ns, LabelSelector: labelSel, AnnotationSelector: annoSel})
		if err != nil {
			return
		}
		m.Matches(&Resource{Kind: kind, Name: name, Labels: map[string]string{"env": "dev"}})
	})
}
