package valuemerge

import (
	"encoding/json"
	"reflect"
	"testing"

	evanphx "github.com/evanphx/json-patch/v5"
)

// The merge of values is RFC 7386 where no list is declared: the RFC's own
// examples (appendix A) give what the RFC says, and what the evanphx
// library (which multi-patch's resource merge patches use) gives. Both drop
// the null members of maps in a list the overlay brings, as strategic
// merge does (before the one merge engine, a merge of values kept them:
// the copies disagreed).
func TestRFC7386Examples(t *testing.T) {
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
		{`{"a":"foo"}`, `"bar"`, `"bar"`},
		{`{"e":null}`, `{"a":1}`, `{"e":null,"a":1}`},
		{`[1,2]`, `{"a":"b","c":null}`, `{"a":"b"}`},
		{`{}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}}}`},
		{`{"a":1}`, `{"b":[{"c":null}]}`, `{"a":1,"b":[{}]}`},
	} {
		for _, f := range []Format{JSON, YAML} {
			got, err := Merge(f, c[0], c[1])
			if err != nil || !reflect.DeepEqual(decoded(t, got), decoded(t, c[2])) {
				t.Errorf("%s: %s merged with %s = %s (%v), want %s", f, c[0], c[1], got, err, c[2])
			}
		}
		if c[1][0] != '{' || c[0][0] != '{' {
			continue // the library takes only an object as a patch, and only into an object
		}
		lib, err := evanphx.MergePatch([]byte(c[0]), []byte(c[1]))
		if err != nil || !reflect.DeepEqual(decoded(t, string(lib)), decoded(t, c[2])) {
			t.Errorf("library: %s + %s = %s %v, want %s", c[0], c[1], lib, err, c[2])
		}
	}
}

func decoded(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}
