package rlio

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Write writes the list as kio.ByteReadWriter (KeepReaderAnnotations) would
// write it: the same bytes. The fast codec uses up l.Items: it clears empty
// annotations maps in place (kyaml's writer does it on copies) and sets
// each entry to nil once it is written, so that the garbage collector can
// free written items while the rest are written rather than scan them
// again and again.
func (c Codec) Write(w io.Writer, l *List) error {
	if c.Kyaml || l.Kind != kio.ResourceListKind || commentPending(l) {
		return writeKyaml(w, l)
	}
	for _, it := range l.Items {
		if err := yaml.ClearEmptyAnnotations(it); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	head := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		scalarNode("apiVersion"), scalarNode(l.APIVersion), scalarNode("kind"), scalarNode(l.Kind),
	}}
	var tail []*yaml.Node // functionConfig and results: the rest of the top mapping
	if l.FunctionConfig != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode,
			Content: []*yaml.Node{scalarNode("functionConfig"), l.FunctionConfig.YNode()}})
	}
	if l.Results != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode,
			Content: []*yaml.Node{scalarNode("results"), l.Results.YNode()}})
	}
	var buf bytes.Buffer
	if err := encode(&buf, head, false); err != nil {
		return err
	}
	if len(l.Items) == 0 {
		buf.WriteString("items: []\n")
	} else {
		buf.WriteString("items:\n")
	}
	if _, err := bw.Write(buf.Bytes()); err != nil {
		return err
	}
	if err := writeItems(bw, l.Items, len(tail) == 0); err != nil {
		return err
	}
	for i, t := range tail {
		buf.Reset()
		if err := encode(&buf, t, i == len(tail)-1); err != nil {
			return err
		}
		if _, err := bw.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeKyaml is kio.ByteReadWriter's writing.
func writeKyaml(w io.Writer, l *List) error {
	rw := &kio.ByteReadWriter{Writer: w, KeepReaderAnnotations: true,
		FunctionConfig: l.FunctionConfig, Results: l.Results,
		WrappingAPIVersion: l.APIVersion, WrappingKind: l.Kind}
	return rw.Write(l.Items)
}

func scalarNode(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

// itemsPerWorker is how many items one goroutine writes at a time; a round
// writes that many per core, then copies them out in order, which bounds the
// encoded bytes held at once.
const itemsPerWorker = 256

// writeItems writes the items on every core, in order. last says the items
// end the output (nothing follows "items:").
func writeItems(w io.Writer, items []*yaml.RNode, last bool) error {
	workers := runtime.GOMAXPROCS(0)
	emitters := make([]itemEmitter, workers)
	errs := make([]error, workers)
	for done := 0; done < len(items); {
		round := min(len(items)-done, workers*itemsPerWorker)
		k := 0
		var wg sync.WaitGroup
		for lo := 0; lo < round; lo += itemsPerWorker {
			hi := min(lo+itemsPerWorker, round)
			e, err := &emitters[k], &errs[k]
			e.out = e.out[:0]
			wg.Add(1)
			go func(lo, hi int) {
				defer wg.Done()
				*err = e.emitItems(items, lo, hi, last)
			}(done+lo, done+hi)
			k++
		}
		wg.Wait()
		for i := 0; i < k; i++ {
			if errs[i] != nil {
				return errs[i]
			}
			if _, err := w.Write(emitters[i].out); err != nil {
				return err
			}
		}
		clear(items[done : done+round])
		done += round
	}
	return nil
}

// fallbackRun is how many consecutive items emitItem refused one yaml.v3
// encoder writes together, as a block sequence (which yaml.v3 writes as the
// same entries inside the whole list would be): an encoder's event queue
// only grows, so one for them all would be kyaml's problem again, and one
// per item pays for growing a fresh queue every time.
const fallbackRun = 16

// emitItems appends items[lo:hi] to e.out: by emitItem where it can, else
// by yaml.v3.
func (e *itemEmitter) emitItems(items []*yaml.RNode, lo, hi int, last bool) error {
	var buf bytes.Buffer
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	flush := func(end bool) error {
		if len(seq.Content) == 0 {
			return nil
		}
		buf.Reset()
		err := encode(&buf, seq, end)
		e.out = append(e.out, buf.Bytes()...)
		seq.Content = seq.Content[:0]
		return err
	}
	for i := lo; i < hi; i++ {
		// the item ending the output is left to yaml.v3, which ends a
		// stream with "..." after a block scalar keeping its line breaks
		end := last && i == len(items)-1
		if !end {
			// emitItem appends, so what yaml.v3 holds must go first
			mark := len(e.out)
			if e.emitItem(items[i].YNode()) {
				if len(seq.Content) > 0 {
					written := append([]byte(nil), e.out[mark:]...)
					e.out = e.out[:mark]
					if err := flush(false); err != nil {
						return err
					}
					e.out = append(e.out, written...)
				}
				continue
			}
		}
		seq.Content = append(seq.Content, items[i].YNode())
		if len(seq.Content) == fallbackRun || end {
			if err := flush(end); err != nil {
				return err
			}
		}
	}
	return flush(false)
}

// encode appends n encoded as a YAML document the way kyaml's encoder
// would encode it inside the whole list. Only the piece that ends the output
// gets the end-of-stream marker ("...") yaml.v3 writes after a block scalar
// keeping its trailing newlines.
func encode(buf *bytes.Buffer, n *yaml.Node, end bool) error {
	enc := yaml.NewEncoder(buf)
	if err := enc.Encode(n); err != nil {
		return err
	}
	if end {
		return enc.Close()
	}
	return nil
}

// commentPending reports whether the list holds a comment yaml.v3's emitter
// does not write where it reads it but keeps for a later node (the line
// comment of a block collection or of a key, the head comment of a mapping
// value), or a foot comment of an item or of the functionConfig, after
// which it writes a blank line before the next thing at column 0. In one
// document (kyaml's writer) that comment lands on whatever comes next,
// possibly the next item or the "results:" key; written in pieces it would
// be lost. Such lists are written by kyaml.
func commentPending(l *List) bool {
	if l.FunctionConfig != nil && (pending(l.FunctionConfig.YNode()) || l.FunctionConfig.YNode().FootComment != "") {
		return true
	}
	for _, it := range l.Items {
		if pending(it.YNode()) || it.YNode().FootComment != "" {
			return true
		}
	}
	return false
}

// pending reports whether n or a node under it holds a comment yaml.v3
// keeps for the node written after it.
func pending(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.LineComment != "" &&
		n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0 {
		return true
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].LineComment != "" || n.Content[i+1].HeadComment != "" {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if pending(c) {
			return true
		}
	}
	return false
}
