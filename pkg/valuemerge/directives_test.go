package valuemerge

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// Directive keys mean in a merged value what strategic merge says they
// mean, in JSON and YAML, with and without declared lists: they are never
// written into the value (before the one merge engine, mergeKeys wrote
// $retainKeys, $setElementOrder/… and a map's $patch: delete as keys, and
// refused $patch: replace on a keyed element).
func TestDirectivesMeanWhatStrategicMergeSays(t *testing.T) {
	const base = "l:\n- id: a\n  v: 1\n  w: 2\n- id: b\n  v: 3\nm:\n  x: 1\nn:\n  y: 2\n"
	byID := []schema.ListKeys{keyed("l", "id")}
	cases := []struct {
		name, overlay, want string
		lists               []schema.ListKeys
	}{{
		name:    "$retainKeys keeps only the keys it lists",
		overlay: "l:\n- id: a\n  $retainKeys: [id, v]\n",
		lists:   byID,
		want:    "l:\n- id: a\n  v: 1\n- id: b\n  v: 3\nm:\n  x: 1\nn:\n  y: 2\n",
	}, {
		name:    "$setElementOrder orders the elements",
		overlay: "$setElementOrder/l:\n- id: b\n- id: a\n",
		lists:   byID,
		want:    "l:\n- id: b\n  v: 3\n- id: a\n  v: 1\n  w: 2\nm:\n  x: 1\nn:\n  y: 2\n",
	}, {
		name:    "$patch: delete on a map deletes it",
		overlay: "m: {$patch: delete}\n",
		want:    "l:\n- id: a\n  v: 1\n  w: 2\n- id: b\n  v: 3\nn:\n  y: 2\n",
	}, {
		name:    "$patch: replace on a keyed element replaces it",
		overlay: "l:\n- id: a\n  $patch: replace\n  z: 9\n",
		lists:   byID,
		want:    "l:\n- id: a\n  z: 9\n- id: b\n  v: 3\nm:\n  x: 1\nn:\n  y: 2\n",
	}, {
		name:    "$patch: replace on a map replaces it",
		overlay: "n: {$patch: replace, z: 1}\n",
		want:    "l:\n- id: a\n  v: 1\n  w: 2\n- id: b\n  v: 3\nm:\n  x: 1\nn:\n  z: 1\n",
	}}
	for _, c := range cases {
		got, err := Merge(YAML, base, c.overlay, c.lists...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

// Numbers YAML writes as .inf and .nan merge like any other value (they
// failed the check of the result: NaN equals nothing).
func TestInfinityAndNaN(t *testing.T) {
	got, err := Merge(YAML, "a: 1\nb: .inf\n", "a: .nan\nc: -.Inf\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a: .nan\nb: .inf\nc: -.Inf\n"; got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Keys of a declared list match as the values they read as, the one rule
// of every keyed list: 8080 and "8080", 00 and 0 are one key (before, 00
// and 0 were one key in mergeValues but two in strategic merge). The
// overlay's key field is written as any field of it is: 00 stays, being 0,
// and "8080" becomes the number the overlay gives.
func TestKeyedListKeysMatchAsValues(t *testing.T) {
	got, err := Merge(YAML, "l:\n- id: 00\n  v: 1\n- id: \"8080\"\n", "l:\n- id: 0\n  v: 2\n- id: 8080\n  w: 3\n", keyed("l", "id"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "l:\n- id: 00\n  v: 2\n- id: 8080\n  w: 3\n"; got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
