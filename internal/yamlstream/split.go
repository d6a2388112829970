package yamlstream

import (
	"bytes"
	"errors"
	"io"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Split returns the root node of every document of text that is not empty,
// in order. A document that is null or holds only comments is skipped. The
// error is yaml.v3's for the first document that does not parse.
func Split(text []byte) ([]*yaml.Node, error) {
	docs, err := Documents(text)
	if err != nil {
		return nil, err
	}
	var out []*yaml.Node
	for _, n := range docs {
		if n.Kind == yaml.DocumentNode {
			if len(n.Content) != 1 {
				continue
			}
			n = n.Content[0]
		}
		if n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagNull {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

// Documents returns every document node of text, empty ones included, as
// yaml.v3 reads them to the end of the text (a reader of the first
// document alone does not see a later one that is broken). The error is
// yaml.v3's for the first document that does not parse.
func Documents(text []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var out []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, &doc)
	}
}
