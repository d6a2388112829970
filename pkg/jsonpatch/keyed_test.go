package jsonpatch

import (
	"reflect"
	"strings"
	"testing"
)

func TestMergeValuesKeyed(t *testing.T) {
	byName := func(path []Step) []string {
		if len(path) == 1 && path[0].Key == "jobs" {
			return []string{"name"}
		}
		return nil
	}
	cases := []struct{ target, patch, want string }{
		// merged by key, appended, the others kept in place
		{`{"jobs": [{"name": "a", "v": 1}, {"name": "b", "v": 2}]}`, `{"jobs": [{"name": "b", "v": 3, "w": null}, {"name": "c"}]}`,
			`{"jobs": [{"name": "a", "v": 1}, {"name": "b", "v": 3}, {"name": "c"}]}`},
		// $patch: delete removes every element with the key; none is no error
		{`{"jobs": [{"name": "a"}, {"name": "b"}, {"name": "a", "x": 1}]}`, `{"jobs": [{"name": "a", "$patch": "delete"}, {"name": "z", "$patch": "delete"}]}`,
			`{"jobs": [{"name": "b"}]}`},
		// keys compare as text
		{`{"jobs": [{"name": 8080}]}`, `{"jobs": [{"name": "8080", "v": 1}]}`, `{"jobs": [{"name": "8080", "v": 1}]}`},
		// a list the target lacks: made of the patch's elements, directives gone
		{`{}`, `{"jobs": [{"name": "a", "$patch": "delete"}, {"name": "b"}]}`, `{"jobs": [{"name": "b"}]}`},
		// other lists stay RFC 7386: replaced
		{`{"other": [1, 2]}`, `{"other": [3]}`, `{"other": [3]}`},
	}
	for _, c := range cases {
		got, err := MergeValuesKeyed(decode(t, c.target), decode(t, c.patch), byName)
		if err != nil {
			t.Errorf("%s + %s: %v", c.target, c.patch, err)
			continue
		}
		if want := decode(t, c.want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s + %s = %v, want %v", c.target, c.patch, got, want)
		}
	}
	for patch, want := range map[string]string{
		`{"jobs": [{"v": 1}]}`:                        `jobs.0: the element has no "name"`,
		`{"jobs": [3]}`:                               `jobs.0: the list merges by [name], but this element is not a map`,
		`{"jobs": [{"name": "a", "$patch": "oops"}]}`: `jobs.0: unknown $patch "oops"`,
	} {
		_, err := MergeValuesKeyed(decode(t, `{"jobs": []}`), decode(t, patch), byName)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", patch, err, want)
		}
	}
}
