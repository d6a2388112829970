// Package namerefs finds the fields that refer to a resource by name, so
// that a function renaming one (a generator's hash suffix, a multi-patch
// with allowNameChange) can make them follow, as kustomize's name reference
// transformer does.
//
// The rules are those of kustomize v5.8.2's namereference config, read from
// its source and written as a table (rules.go): ConfigMap and
// Secret from pod specs and a few other kinds, ServiceAccount,
// PersistentVolumeClaim and PriorityClass from pod specs, ServiceAccount
// from RoleBinding/ClusterRoleBinding subjects, Service, Role, ClusterRole,
// PersistentVolume, StorageClass, IngressClass, ValidatingAdmissionPolicy,
// and the workloads an HorizontalPodAutoscaler scales. References follow
// namespaces: a namespaced referrer follows a rename in its own namespace
// (or in the one the reference names); a cluster-scoped referrer follows
// one in the namespace its reference names, or any when it names none.
//
// Beyond kustomize's list: every pod-spec kind for every pod-spec rule
// (kustomize leaves out some, e.g. ReplicationController for ConfigMaps),
// ephemeral containers, a ServiceAccount's secrets, and Role/ClusterRole
// resourceNames only in rules about the renamed resource's kind (kustomize
// renames a matching name in any rule).
//
// NewIndex reads every referring field of a ResourceList's items once;
// Index.Rename then makes the references to one renamed resource (a
// Target: kind, namespace, old and new name) follow, and says how many
// fields changed.
package namerefs
