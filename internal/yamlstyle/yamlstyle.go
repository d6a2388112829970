// Package yamlstyle chooses how a string a function writes is quoted.
//
// Our YAML library follows YAML 1.2, where `yes`, `on`, `off`, `y` and `n`
// are plain strings; the Kubernetes API server and kubectl read YAML 1.1,
// where they are booleans (and `0755` is octal). A string a function writes
// plain would change type on the way to the cluster, so it is quoted.
package yamlstyle

import "sigs.k8s.io/kustomize/kyaml/yaml"

// QuoteIfAmbiguous double-quotes a plain string scalar that YAML 1.1 would
// read as something other than a string. Other nodes are left alone.
func QuoteIfAmbiguous(n *yaml.Node) {
	if n.Kind != yaml.ScalarNode || n.Style != 0 || n.ShortTag() != "!!str" {
		return
	}
	if yaml.IsYaml1_1NonString(n) {
		n.Style = yaml.DoubleQuotedStyle
	}
}
