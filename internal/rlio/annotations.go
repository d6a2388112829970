package rlio

import (
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Migration is what Migrate records of the items' kpt annotations for
// Reconcile.
type Migration struct {
	state *annotationMigration
}

// Migrate prepares the items for a transform as kyaml's framework does
// (kio.PreprocessResourcesForInternalAnnotationMigration): each item is
// marked with its index, and whichever of the internal and legacy path,
// index and id annotations is missing is filled in from the other.
func (c Codec) Migrate(items []*yaml.RNode) (*Migration, error) {
	if c.Kyaml {
		m, err := kio.PreprocessResourcesForInternalAnnotationMigration(items)
		return &Migration{&annotationMigration{kyaml: m}}, err
	}
	s, err := preprocessAnnotations(items)
	return &Migration{s}, err
}

// Reconcile puts the items' kpt annotations back in the format they came in
// after the transform, as kio.ReconcileInternalAnnotations does.
func (m *Migration) Reconcile(items []*yaml.RNode) error {
	return reconcileAnnotations(items, m.state)
}
