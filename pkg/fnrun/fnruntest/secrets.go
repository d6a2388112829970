package fnruntest

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// SecretValuesFile, in a case directory, lists values (one a line) that must
// appear in no result of the case: a secretGenerator's literals, env-file
// lines, file contents, values inside YAML held in a Secret's stringData.
const SecretValuesFile = "secret-values.txt"

// autoSecretMin is the length from which a Secret's value found in
// input.yaml is looked for in the results: shorter ones ("1", "true") turn
// up in messages by chance.
const autoSecretMin = 6

// CheckNoSecrets runs every case below dir, error cases included, and fails
// when a result (message, field, file) contains a secret value: any value
// of a Secret's data (as written, and base64-decoded) or stringData in the
// case's input.yaml, and every line of its secret-values.txt, as written
// and base64-encoded. It is the rule "messages name the key and the
// resource, never the value", checked over every case a function has, in
// every field of a result, the resource's identity included.
func CheckNoSecrets(t *testing.T, f fnrun.Function, dir string) {
	t.Helper()
	checked := 0
	for _, caseDir := range caseDirs(t, dir) {
		secrets := secretValues(t, caseDir)
		if len(secrets) == 0 {
			continue
		}
		checked++
		t.Run(filepath.Base(caseDir), func(t *testing.T) { checkNoSecret(t, f, caseDir, secrets) })
	}
	if checked == 0 {
		t.Fatalf("no case below %s holds a secret value", dir)
	}
}

// checkNoSecret runs the case in caseDir and fails for each result that
// carries one of the secrets.
func checkNoSecret(t *testing.T, f fnrun.Function, caseDir string, secrets []string) {
	input, err := os.ReadFile(filepath.Join(caseDir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, outcome := Run(t, f, filepath.Join(caseDir, "config.yaml"), input)
	for _, r := range outcome.Results {
		text := resultText(r)
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("a result carries the secret value %q:\n%s", s, text)
			}
		}
	}
}

// secretValues collects the values a case must not leak.
func secretValues(t *testing.T, caseDir string) []string {
	set := listedSecrets(caseDir)
	input, err := os.ReadFile(filepath.Join(caseDir, "input.yaml"))
	if err != nil {
		return nil
	}
	in, err := rlio.ReadStream(input)
	if err != nil {
		return nil // a case about malformed input
	}
	for _, src := range in.Docs {
		if src.Node.GetKind() == "Secret" {
			addSecretData(set, src.Node)
		}
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// listedSecrets are the lines of the case's secret-values.txt, as written
// and base64-encoded.
func listedSecrets(caseDir string) map[string]bool {
	set := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(caseDir, SecretValuesFile))
	if err != nil {
		return set
	}
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			set[line] = true
			set[base64.StdEncoding.EncodeToString([]byte(line))] = true
		}
	}
	return set
}

// addSecretData adds to set the values of a Secret's data (as written and
// base64-decoded) and stringData, those at least autoSecretMin long.
func addSecretData(set map[string]bool, secret *yaml.RNode) {
	add := func(v string) {
		if len(v) >= autoSecretMin {
			set[v] = true
		}
	}
	for _, field := range []string{"data", "stringData"} {
		m := secret.Field(field)
		if m == nil {
			continue
		}
		c := m.Value.YNode().Content
		for i := 1; i < len(c); i += 2 {
			add(c[i].Value)
			if field != "data" {
				continue
			}
			if b, err := base64.StdEncoding.DecodeString(c[i].Value); err == nil {
				add(string(b))
			}
		}
	}
}

// resultText is every field of a result a value could show in, one a line.
func resultText(r *framework.Result) string {
	parts := []string{r.Message}
	if ref := r.ResourceRef; ref != nil {
		parts = append(parts, ref.APIVersion, ref.Kind, ref.Name, ref.Namespace)
	}
	if r.Field != nil {
		parts = append(parts, fieldText(r.Field)...)
	}
	if r.File != nil {
		parts = append(parts, r.File.Path)
	}
	for k, v := range r.Tags {
		parts = append(parts, k, v)
	}
	return strings.Join(parts, "\n")
}

// fieldText is a result's field: its path, and the values it gives.
func fieldText(f *framework.Field) []string {
	parts := []string{f.Path}
	if f.CurrentValue != nil {
		parts = append(parts, toText(f.CurrentValue))
	}
	if f.ProposedValue != nil {
		parts = append(parts, toText(f.ProposedValue))
	}
	return parts
}

func toText(v any) string {
	return fmt.Sprint(v)
}
