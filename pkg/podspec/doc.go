// Package podspec applies one PodSpec patch to every matching workload, as
// the KEP "Kustomize PodSpec Patch" proposed: inject a sidecar, set a
// service account, or edit every container whatever its name.
//
// Function is the podspec-patch function. Each entry of its config
// (PodSpecPatch) selects workloads by a selector.Set and the KEP's
// matchAnnotations, and gives a patch, a containerPatch or both:
//
//   - patch is a PodSpec, merged strategically (package smp) into the
//     PodSpec of each selected workload, wherever its kind keeps it: the
//     built-in workloads are known, podSpecPaths names the place for a
//     custom kind, and any other resource qualifies only with a
//     spec.template.spec that has a list of containers. A resource without
//     a PodSpec is never touched.
//   - containerPatch (a Container map, merged strategically, or JSON patch
//     operations relative to the container) applies to each container,
//     narrowed by containerNames and rejectContainerNames (regular
//     expressions matched against the whole name) and extended to init
//     containers by initContainers. The containers a patch of the config
//     adds are never its targets, so that a re-run, which finds the
//     sidecar already there, changes nothing.
//
// With mode: default, patch and a strategic containerPatch only fill what
// the PodSpec, and each container, lacks; schemas and mergeKeys (package
// mergemeta, paths from the PodSpec) work as in multi-patch, where the
// PodSpec schema leaves room.
//
// As in multi-patch, what would pass in silence gets a result (a selection
// or a container name that matches nothing, a field a PodSpec or Container
// does not have, strict: true making the patch's warnings errors), and any
// error fails the whole run with every resource as it was. The patch texts
// are read as package patch reads multi-patch's, and the results are
// worded by package entry, as multi-patch's are.
package podspec
