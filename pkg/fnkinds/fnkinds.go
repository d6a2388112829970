package fnkinds

// Function is one patchwork function: the name of its binary and the config
// types it accepts, as "apiVersion/kind", its own first.
type Function struct {
	Name  string
	Kinds []string
}

// The four functions.
var (
	MultiPatch = Function{Name: "multi-patch", Kinds: []string{
		"fn.patchwork.dev/v1alpha1/MultiPatch",
		"builtin/PatchTransformer",
	}}
	PodSpecPatch = Function{Name: "podspec-patch", Kinds: []string{
		"fn.patchwork.dev/v1alpha1/PodSpecPatch",
	}}
	StructuredReplacement = Function{Name: "structured-replacement", Kinds: []string{
		"fn.patchwork.dev/v1alpha1/StructuredReplacement",
		"builtin/ReplacementTransformer",
		"fn.kpt.dev/v1alpha1/ApplyReplacements",
	}}
	MergeValuesGenerator = Function{Name: "merge-values-generator", Kinds: []string{
		"fn.patchwork.dev/v1alpha1/MergeValuesGenerator",
		"builtin/ConfigMapGenerator",
		"builtin/SecretGenerator",
	}}
)

// All is every patchwork function.
var All = []Function{MultiPatch, PodSpecPatch, StructuredReplacement, MergeValuesGenerator}

// TakenBy names, for each config type a patchwork function accepts, the
// function that takes it: what each function hands the runner
// (fnrun.Function.TakenBy), so that a config given to the wrong one says
// where it belongs.
func TakenBy() map[string]string {
	m := map[string]string{}
	for _, f := range All {
		for _, k := range f.Kinds {
			m[k] = f.Name
		}
	}
	return m
}
