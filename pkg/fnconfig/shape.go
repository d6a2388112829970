package fnconfig

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// CheckShape refuses a config whose top level or metadata is not the
// shape every Kubernetes-style object has, before anything reads it with
// kyaml's getters (which panic on a list, or on metadata: [..]). A JSON
// patch file given as the config is the common way to get here.
func CheckShape(config *yaml.RNode) error {
	n := config.YNode()
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("the function config is %s, not a map with apiVersion, kind and metadata (line %d)", yamltree.DescribeSecret(n, true), n.Line)
	}
	var s shapeCheck
	s.want("apiVersion", yamltree.Lookup(n, "apiVersion"), yaml.ScalarNode)
	s.want("kind", yamltree.Lookup(n, "kind"), yaml.ScalarNode)
	meta := yamltree.Lookup(n, "metadata")
	s.want("metadata", meta, yaml.MappingNode)
	if meta != nil && meta.Kind == yaml.MappingNode {
		s.metadata(meta)
	}
	if len(s.problems) > 0 {
		return fmt.Errorf("malformed function config: %s", strings.Join(s.problems, "; "))
	}
	return nil
}

// shapeCheck collects what CheckShape finds wrong.
type shapeCheck struct{ problems []string }

// want notes a field whose value is not of kind (null and absent are fine;
// any scalar is fine where a string is wanted).
func (s *shapeCheck) want(field string, v *yaml.Node, kind yaml.Kind) {
	if v == nil || (v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		return
	}
	v = yamltree.Resolve(v)
	if v.Kind == kind || (kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode) {
		return
	}
	what := "a map"
	if kind == yaml.ScalarNode {
		what = "a string"
	}
	s.problems = append(s.problems, fmt.Sprintf("%s: want %s, got %s (line %d)", field, what, yamltree.DescribeSecret(v, true), v.Line))
}

// metadata checks name, namespace, labels and annotations.
func (s *shapeCheck) metadata(meta *yaml.Node) {
	s.want("metadata.name", yamltree.Lookup(meta, "name"), yaml.ScalarNode)
	s.want("metadata.namespace", yamltree.Lookup(meta, "namespace"), yaml.ScalarNode)
	for _, f := range []string{"labels", "annotations"} {
		m := yamltree.Lookup(meta, f)
		s.want("metadata."+f, m, yaml.MappingNode)
		if m != nil && m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				s.want("metadata."+f+"."+m.Content[i].Value, m.Content[i+1], yaml.ScalarNode)
			}
		}
	}
}
