// Package fnruntest runs the golden test cases every function keeps under
// testdata/<case>/:
//
//	config.yaml             the function config
//	input.yaml              the resources, a YAML stream
//	expected.yaml           the resources the function must write, or
//	expected-error.txt      lines that must each appear in the error results
//	expected-warnings.txt   lines that must each appear in the warnings
//	                        (without it, any warning fails the case)
//	expected-infos.txt      lines that must each appear in the infos
//	                        (optional: infos are not required to be listed)
//	not-idempotent          present when a second run may differ (why, inside)
//	expected-sdk.yaml       rare: what the sdk mode writes instead of
//	                        expected.yaml, where the SDK spells the same
//	                        resources differently (it writes every
//	                        resource whole, as kyaml does; see RunGolden)
//
// RunGolden runs each case in two modes, the subtests <case>/standalone and
// <case>/sdk: as the command line runs the function, and as a Go program
// built on the kpt SDK does (sdk.Processor through fn.Execute). Both must
// give the expected output and messages; the SDK's results must equal the
// standalone run's field for field. The standalone run is also repeated on
// its own output and must give the same bytes, since kpt re-runs pipelines
// on their own output. UPDATE_GOLDEN=1 writes expected.yaml (and an
// existing expected-sdk.yaml) from the output: read what it wrote.
// Every result is also checked for Go jargon (CheckMessages, Jargon).
//
// A function's golden test is one call (RunGolden needs the test's own
// *testing.T, so it has no runnable Example):
//
//	func TestGolden(t *testing.T) { fnruntest.RunGolden(t, Function, "testdata") }
//
// The other helpers serve the rules every function is held to:
// CheckNoSecrets runs every case and fails when a result holds a Secret's
// value; Run applies a function standalone, as the command line does;
// BesideIdentity benchmarks a function next to the pass that changes
// nothing, and CorpusList builds its input from the corpus of real
// manifests.
package fnruntest
