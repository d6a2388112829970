package patch

import "slices"

// Into is what a patch goes into. It decides the type of a map written
// without one, which types apply, whether the text may hold several
// documents, and how messages name it.
type Into uint8

// What patches go into.
const (
	// Resource is a resource (multi-patch): a map is a strategic merge
	// patch; the text may hold several documents.
	Resource Into = iota + 1
	// PodSpec is a workload's PodSpec (podspec-patch's patch): a
	// strategic merge patch or an apply patch.
	PodSpec
	// Container is each container of a PodSpec (podspec-patch's
	// containerPatch): a strategic merge patch, a JSON patch or an apply
	// patch.
	Container
	// String is a JSON or YAML document held in a string (multi-patch's
	// embedded:): a map is a merge patch.
	String
)

// intoInfo is what the package knows of a target.
type intoInfo struct {
	// what names a patch into it: "a PodSpec patch".
	what string
	// shape says what its patch is, for a document of another shape.
	shape string
	// lacks names the target in "mode: default fills what … lacks".
	lacks string
	// mapType is the type of a map written without one.
	mapType Type
	// only lists the types that apply; nil: all.
	only []Type
	// stream says the text may hold several documents.
	stream bool
	// noDelete says why a strategic patch whose root is $patch: delete
	// cannot be; "" when it deletes the target (a resource).
	noDelete string
	// useInstead says what to write instead of a type without a default
	// mode, under mode: default.
	useInstead string
}

var intos = map[Into]intoInfo{
	Resource: {
		what:       "a patch",
		shape:      "a patch is a map (strategic merge or merge patch) or a list of operations (JSON patch)",
		lacks:      "a resource",
		mapType:    Strategic,
		stream:     true,
		useInstead: "use a strategic or merge patch",
	},
	PodSpec: {
		what:     "a PodSpec patch",
		shape:    "a PodSpec patch is a map (containers, volumes, serviceAccountName...)",
		lacks:    "a PodSpec",
		mapType:  Strategic,
		only:     []Type{Strategic, Apply},
		noDelete: "$patch: delete would delete the PodSpec itself",
	},
	Container: {
		what:       "a container patch",
		shape:      "a container patch is a Container map (strategic) or a list of JSON patch operations",
		lacks:      "each container",
		mapType:    Strategic,
		only:       []Type{Strategic, JSON, Apply},
		noDelete:   "$patch: delete would delete every container; to remove a container, patch the PodSpec with its name and $patch: delete",
		useInstead: "write the container patch as a Container map",
	},
	String: {
		what:       "a patch into strings",
		shape:      "a patch into strings is a map (merge or strategic merge patch) or a list of operations (JSON patch)",
		lacks:      "the document",
		mapType:    Merge,
		noDelete:   "$patch: delete would delete the whole document",
		useInstead: "use a merge or strategic patch",
	},
}

// allows says whether patches of type t go into it.
func (i intoInfo) allows(t Type) bool { return i.only == nil || slices.Contains(i.only, t) }
