package suggest

import "testing"

func TestNearest(t *testing.T) {
	fields := []string{"minReadySeconds", "paused", "progressDeadlineSeconds", "replicas", "revisionHistoryLimit", "selector", "strategy", "template"}
	for _, tc := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"replica", fields, "replicas"},
		{"replcias", fields, "replicas"}, // a swap is one edit
		{"Replicas", fields, "replicas"}, // case only
		{"imagePullPolice", []string{"image", "imagePullPolicy", "name"}, "imagePullPolicy"},
		{"envv", []string{"env", "envFrom", "image"}, "env"},
		{"StructuredReplacment", []string{"MultiPatch", "StructuredReplacement"}, "StructuredReplacement"},
		{"api-confg", []string{"api", "api-config", "web-config"}, "api-config"},
		{"selector", []string{"select", "reject"}, "select"},
		// too far to be a typo: no suggestion beats a wrong one
		{"foo", fields, ""},
		{"templates", []string{"volumes"}, ""},
		{"x", []string{"y"}, ""},
		{"X", []string{"x"}, "x"},
		{"ab", []string{"cd"}, ""},
		{"", fields, ""},
		// the word itself is not a suggestion
		{"paused", []string{"paused"}, ""},
		// ties: the earlier candidate
		{"cat", []string{"bat", "hat"}, "bat"},
		// a camelCase word too many or too few (issue 20): further than
		// edits allow, still a likely slip
		{"storageClass", []string{"accessModes", "resources", "selector", "storageClassName", "volumeMode", "volumeName"}, "storageClassName"},
		{"imagePolicy", []string{"image", "imagePullPolicy", "name"}, "imagePullPolicy"},
		{"terminationGracePeriod", []string{"terminationGracePeriodSeconds", "tolerations"}, "terminationGracePeriodSeconds"},
		{"serviceAccountNameRef", []string{"serviceAccount", "serviceAccountName"}, "serviceAccountName"},
		// two candidates a word apart: no guess; one word says too little
		{"serviceFoo", []string{"serviceFooAccount", "serviceFooName"}, ""},
		{"storage", []string{"storageClass"}, ""},
	} {
		if got := Nearest(tc.word, tc.candidates); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "abc", 0},
		{"abc", "abd", 1},
		{"abc", "acb", 1},
		{"abc", "", 3},
		{"kitten", "sitting", 3},
		{"héllo", "hello", 1}, // runes, not bytes
	} {
		if got := Distance(tc.a, tc.b, 10); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
	if got := Distance("abcdefgh", "zzzzzzzz", 2); got != 3 {
		t.Errorf("Distance past max = %d, want max+1 = 3", got)
	}
}
