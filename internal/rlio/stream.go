package rlio

import (
	"bytes"
	"io"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ReadStream reads a stream of resources (YAML documents) for standalone
// runs, recording each one's sequence indentation so that WriteStream gives
// unchanged resources back as they were.
//
// kyaml records the indentation only together with annotations of its own
// (index, and path copied between its legacy and internal forms) that would
// change the resources, so the stream is read twice: once for the
// indentation, once for the resources. Only standalone runs pay.
func ReadStream(r io.Reader) ([]*yaml.RNode, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	items, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), OmitReaderAnnotations: true}).Read()
	if err != nil {
		return nil, err
	}
	styled, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), PreserveSeqIndent: true}).Read()
	if err != nil || len(styled) != len(items) {
		return items, nil // indentation is a nicety; the resources are read
	}
	if err := markWideSequences(items, styled); err != nil {
		return nil, err
	}
	return items, nil
}

// markWideSequences records on each item the wide sequence indentation
// kyaml found in the same item read again (styled), for WriteStream.
func markWideSequences(items, styled []*yaml.RNode) error {
	for i, it := range items {
		if style := styled[i].GetAnnotations()[kioutil.SeqIndentAnnotation]; style == string(yaml.WideSequenceStyle) {
			if err := it.PipeE(yaml.SetAnnotation(kioutil.SeqIndentAnnotation, style)); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteStream writes resources as a YAML stream, without the annotations
// ReadStream added.
func WriteStream(w io.Writer, items []*yaml.RNode) error {
	return kio.ByteWriter{Writer: w}.Write(items)
}
