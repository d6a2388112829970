package fnruntest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/sdk"
)

// SDKExpectedFile, in a case directory, replaces expected.yaml for the sdk
// mode where the SDK writes the same resources in other words (RunGolden
// says when). It must differ from expected.yaml.
const SDKExpectedFile = "expected-sdk.yaml"

// runSDKCase runs a case in the sdk mode and holds it to the case's
// expectations.
func runSDKCase(t *testing.T, f fnrun.Function, dir string) {
	dir, err := filepath.Abs(dir) // runSDK changes the working directory
	if err != nil {
		t.Fatal(err)
	}
	got, results, failed := runSDK(t, f, dir)
	expected := "expected.yaml"
	if exists(filepath.Join(dir, SDKExpectedFile)) {
		expected = SDKExpectedFile
		updateGolden(t, dir, expected, got, failed)
		checkSDKExpected(t, dir)
	}
	checkOutcome(t, dir, expected, got, results, failed, kyamlForm)
	sameResults(t, f, dir, results)
}

// checkSDKExpected holds expected-sdk.yaml to what RunGolden allows: the
// resources of expected.yaml in other words (the SDK writes every resource
// whole, as kyaml does, its merge keys "!!merge <<"; the standalone run
// writes what it did not change as it was read), the same as data.
func checkSDKExpected(t *testing.T, dir string) {
	t.Helper()
	std, err := os.ReadFile(filepath.Join(dir, "expected.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sdk, err := os.ReadFile(filepath.Join(dir, SDKExpectedFile))
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case bytes.Equal(sdk, std):
		t.Errorf("%s equals expected.yaml: delete it", SDKExpectedFile)
	case !bytes.Equal(asJSON(t, sdk), asJSON(t, std)):
		t.Errorf("%s holds other data than expected.yaml", SDKExpectedFile)
	}
}

// asJSON is a stream's resources as JSON, one a line: their data alone,
// without the annotations kyaml's reader and writer keep for themselves
// (the SDK's writer drops an index annotation the standalone run keeps).
func asJSON(t testing.TB, stream []byte) []byte {
	t.Helper()
	items, _ := readWithIndent(t, stream)
	var b bytes.Buffer
	for _, it := range items {
		for _, a := range []string{kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation, kioutil.SeqIndentAnnotation} {
			if err := it.PipeE(yaml.ClearAnnotation(a)); err != nil {
				t.Fatal(err)
			}
		}
		if err := yaml.ClearEmptyAnnotations(it); err != nil {
			t.Fatal(err)
		}
		j, err := it.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// sameResults checks that the SDK passed on every result of the standalone
// run in full (resource, field, file and tags as well as the message the
// expectations check), in the same order.
func sameResults(t *testing.T, f fnrun.Function, dir string, got framework.Results) {
	t.Helper()
	input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, outcome := Run(t, f, filepath.Join(dir, "config.yaml"), input)
	// a resource the standalone run wrote whole says so; the SDK writes
	// every resource whole
	outcome.Results = slices.DeleteFunc(outcome.Results, func(r *framework.Result) bool {
		return r.Severity == framework.Info && strings.Contains(r.Message, "written whole")
	})
	want, err := yaml.Marshal(outcome.Results)
	if err != nil {
		t.Fatal(err)
	}
	have, err := yaml.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Errorf("the SDK's results differ from the standalone run's\n--- sdk ---\n%s--- standalone ---\n%s", have, want)
	}
}

// runSDK applies f to a case as a Go program built on the kpt SDK does
// (fn.AsMain(sdk.Processor(f)), which is fn.Execute): the case's resources
// and config go in as one ResourceList, and the items and results come back
// out of the one the SDK writes. The SDK gives the function no config
// directory, so files named in the config resolve against the working
// directory, which is the case directory for the run (as it is the package
// directory for kpt fn eval).
func runSDK(t *testing.T, f fnrun.Function, dir string) ([]byte, framework.Results, bool) {
	t.Helper()
	in := sdkInput(t, dir)
	t.Chdir(dir)
	var out bytes.Buffer
	err := fn.Execute(sdk.Processor(f), bytes.NewReader(in), &out)
	rw := &kio.ByteReadWriter{Reader: &out, OmitReaderAnnotations: true, KeepReaderAnnotations: true}
	items, rerr := rw.Read()
	if rerr != nil {
		t.Fatalf("reading the SDK's ResourceList: %v\n%s", rerr, out.String())
	}
	var results framework.Results
	if rw.Results != nil {
		if derr := rw.Results.YNode().Decode(&results); derr != nil {
			t.Fatalf("decoding the SDK's results: %v", derr)
		}
	}
	if err != nil {
		return nil, results, true
	}
	return writeWhole(t, items, nil), results, false
}

// writeWhole writes items as a stream, each resource whole as kyaml's
// writer writes it (block lists indented under their keys where wide[i]).
func writeWhole(t testing.TB, items []*yaml.RNode, wide []bool) []byte {
	t.Helper()
	docs := make([]rlio.Out, len(items))
	for i, it := range items {
		docs[i] = rlio.Out{Node: it, Wide: i < len(wide) && wide[i]}
	}
	var stream bytes.Buffer
	if err := rlio.WriteStream(&stream, docs, ""); err != nil {
		t.Fatal(err)
	}
	return stream.Bytes()
}

// kyamlForm is a stream's resources as kyaml's writer writes them: the
// form the sdk mode's output is compared in, since the standalone run
// writes what it did not change as it was read, and the SDK writes
// everything whole.
func kyamlForm(t testing.TB, stream []byte) []byte {
	t.Helper()
	items, wide := readWithIndent(t, stream)
	return writeWhole(t, items, wide)
}

// readWithIndent reads a stream as the standalone run does, and tells for
// each resource whether it indents its block lists under their keys.
func readWithIndent(t testing.TB, stream []byte) ([]*yaml.RNode, []bool) {
	t.Helper()
	in, err := rlio.ReadStream(stream)
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	var items []*yaml.RNode
	var wide []bool
	for _, src := range in.Docs {
		items = append(items, src.Node)
		wide = append(wide, src.Wide)
	}
	return items, wide
}

// sdkInput is the case as the ResourceList a kpt SDK program reads: the
// resources of input.yaml (read as the standalone run reads them, sequence
// indentation recorded) and config.yaml as functionConfig.
func sdkInput(t *testing.T, dir string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	items, wide := readWithIndent(t, raw)
	for i, it := range items {
		if wide[i] {
			if err := it.PipeE(yaml.SetAnnotation(kioutil.SeqIndentAnnotation, string(yaml.WideSequenceStyle))); err != nil {
				t.Fatal(err)
			}
		}
	}
	config, err := yaml.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var rl bytes.Buffer
	w := kio.ByteWriter{Writer: &rl, KeepReaderAnnotations: true, FunctionConfig: config,
		WrappingKind: kio.ResourceListKind, WrappingAPIVersion: kio.ResourceListAPIVersion}
	if err := w.Write(items); err != nil {
		t.Fatal(err)
	}
	return rl.Bytes()
}
