package fnrun

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// A successful run reports a line per entry; a failed one does not (it
// changed nothing). Where the lines go depends on the client: kpt shows
// results, so stderr stays empty; kustomize shows only stderr, where the
// warnings go but the per-entry lines do not.
func TestSummariesAndWhereMessagesGo(t *testing.T) {
	summarize := func(fail bool) Function {
		return testFunction(func(r *Request) error {
			r.Summarize("patches[0]", "1 resource changed")
			r.Results = append(r.Results, Warningf("patches[1]", nil, "", "a warning"))
			if fail {
				return errors.New("patches[2]: broken")
			}
			return nil
		})
	}
	// kpt marks everything it read from files with seqindent; kustomize
	// never does (see sentByKpt).
	kustomizeInput := kptInput
	kptSent := strings.Replace(kptInput, "      internal.config.kubernetes.io/path: 'deploy.yaml'\n",
		"      internal.config.kubernetes.io/path: 'deploy.yaml'\n      internal.config.kubernetes.io/seqindent: 'compact'\n", 1)
	if kptSent == kptInput {
		t.Fatal("could not add seqindent")
	}

	for _, c := range []struct {
		name       string
		input      string
		fail       bool
		wantInfo   bool
		wantStderr []string
		notStderr  []string
	}{
		{"kpt success", kptSent, false, true, nil, []string{"a warning", "1 resource changed"}},
		{"kpt failure", kptSent, true, false, nil, []string{"broken", "a warning"}},
		{"kustomize success", kustomizeInput, false, true, []string{"warning: patches[1]: a warning"}, []string{"1 resource changed"}},
		{"kustomize failure", kustomizeInput, true, false, []string{"a warning", "broken"}, []string{"1 resource changed"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Command(summarize(c.fail), nil, strings.NewReader(c.input), &out, &errOut)
			if (code != 0) != c.fail {
				t.Fatalf("exit %d\n%s", code, errOut.String())
			}
			gotInfo := strings.Contains(out.String(), "patches[0]: 1 resource changed") && strings.Contains(out.String(), "severity: "+string(framework.Info))
			if gotInfo != c.wantInfo {
				t.Errorf("info result present = %v, want %v\n%s", gotInfo, c.wantInfo, out.String())
			}
			for _, w := range c.wantStderr {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q: %q", w, errOut.String())
				}
			}
			for _, w := range c.notStderr {
				if strings.Contains(errOut.String(), w) {
					t.Errorf("stderr has %q: %q", w, errOut.String())
				}
			}
		})
	}
}
