package patch

import (
	"fmt"
	"strings"
)

// Type is the kind of a patch.
type Type uint8

// The patch types. The zero Type is none: a document's shape decides.
const (
	// Strategic is a strategic merge patch (package smp).
	Strategic Type = iota + 1
	// JSON is a list of RFC 6902 operations (package jsonpatch).
	JSON
	// Merge is an RFC 7386 merge patch.
	Merge
	// Apply is an apply configuration, merged as server-side apply merges
	// one (package apply).
	Apply
)

// typeInfo is what the rest of the package knows of a type: a new type is
// a row here (and its apply).
type typeInfo struct {
	// long and short are its names in a config: both are accepted
	// everywhere. long is kustomize's, for resource patches; short is
	// kpt's and kustomize's json6902, for embedded: entries.
	long, short string
	// words name it in messages.
	words string
	// list says a document of the type is a list; otherwise a map.
	list bool
	// noDefault says why the type has no default mode (mode: default);
	// "" when it has one.
	noDefault string
}

var types = map[Type]typeInfo{
	Strategic: {long: "StrategicMergePatch", short: "strategic", words: "strategic merge patch"},
	JSON: {long: "JsonPatch", short: "json6902", words: "JSON patch", list: true,
		noDefault: "a JSON patch's operations say themselves what to do"},
	Merge: {long: "MergePatch", short: "merge", words: "merge patch"},
	Apply: {long: "ApplyPatch", short: "apply", words: "apply patch",
		noDefault: "an apply patch's fields are the values it sets, as the API server applies them"},
}

// order is the order messages list the types in.
var order = []Type{Strategic, JSON, Merge, Apply}

// String is the type's long name, as a resource patch's type gives it:
// StrategicMergePatch, JsonPatch, MergePatch, ApplyPatch.
func (t Type) String() string {
	if i, ok := types[t]; ok {
		return i.long
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Short is the type's short name, as an embedded: entry's type gives it:
// strategic, json6902, merge, apply.
func (t Type) Short() string { return types[t].short }

// Words names the type in messages: "strategic merge patch", "JSON patch".
func (t Type) Words() string { return types[t].words }

// HasDefault says the type has a default mode (mode: default).
func (t Type) HasDefault() bool { return types[t].noDefault == "" }

// ParseType reads a type as a config gives it, under either of its names
// and in any case: StrategicMergePatch or strategic, JsonPatch or
// json6902, MergePatch or merge, ApplyPatch or apply. "" is no type (0): the document's shape
// decides.
func ParseType(s string) (Type, error) {
	if s == "" {
		return 0, nil
	}
	var want []string
	for _, t := range order {
		i := types[t]
		if strings.EqualFold(s, i.long) || strings.EqualFold(s, i.short) {
			return t, nil
		}
		want = append(want, i.long+" or "+i.short)
	}
	return 0, fmt.Errorf("type: unknown patch type %q (want %s)", s, strings.Join(want, "; "))
}
