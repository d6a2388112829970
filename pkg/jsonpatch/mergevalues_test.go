package jsonpatch

import (
	"encoding/json"
	"reflect"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMergeValuesAndLibrary: MergeValues gives what the evanphx library
// gives (Apply's merge) on the RFC's own examples (appendix A), and keeps,
// as the RFC's pseudocode does, the null members of maps inside a list the
// patch brings, which the library drops.
func TestMergeValuesAndLibrary(t *testing.T) {
	for _, c := range [][3]string{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"b":"c"}`, `{"a":"b","b":"c"}`},
		{`{"a":"b"}`, `{"a":null}`, `{}`},
		{`{"a":"b","b":"c"}`, `{"a":null}`, `{"b":"c"}`},
		{`{"a":["b"]}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"c"}`, `{"a":["b"]}`, `{"a":["b"]}`},
		{`{"a":{"b":"c"}}`, `{"a":{"b":"d","c":null}}`, `{"a":{"b":"d"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[1]}`, `{"a":[1]}`},
		{`["a","b"]`, `["c","d"]`, `["c","d"]`},
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`{"a":"foo"}`, `null`, `null`},
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
	} {
		want := decode(t, c[2])
		if got := MergeValues(decode(t, c[0]), decode(t, c[1])); !reflect.DeepEqual(got, want) {
			t.Errorf("MergeValues(%s, %s) = %v, want %s", c[0], c[1], got, c[2])
		}
		if c[1] == `null` || c[1] == `"bar"` || c[1] == `["c"]` || c[1] == `["c","d"]` || c[0] == `[1,2]` {
			continue // the library takes only an object as a patch, and only into an object
		}
		lib, err := evanphx.MergePatch([]byte(c[0]), []byte(c[1]))
		if err != nil || !reflect.DeepEqual(decode(t, string(lib)), want) {
			t.Errorf("library: %s + %s = %s %v, want %s", c[0], c[1], lib, err, c[2])
		}
	}
	// the one difference
	target, patch := `{"a":1}`, `{"b":[{"c":null}]}`
	if got := MergeValues(decode(t, target), decode(t, patch)); !reflect.DeepEqual(got, decode(t, `{"a":1,"b":[{"c":null}]}`)) {
		t.Errorf("MergeValues dropped a null inside a list: %v", got)
	}
	if lib, _ := evanphx.MergePatch([]byte(target), []byte(patch)); !reflect.DeepEqual(decode(t, string(lib)), decode(t, `{"a":1,"b":[{}]}`)) {
		t.Errorf("the library no longer drops nulls inside a list (%s): MergeValues and Apply may now agree", lib)
	}
}
