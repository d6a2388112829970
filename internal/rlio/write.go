package rlio

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"slices"
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
	if c.Kyaml || l.Kind != kio.ResourceListKind {
		return writeKyaml(w, l)
	}
	copies, pending, err := l.prepare()
	if err != nil {
		return err
	}
	if pending {
		return writeKyaml(w, l)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	tail := listTail(l)
	if err := writeHead(bw, l); err != nil {
		return err
	}
	if err := writeItems(bw, l.Items, copies, len(tail) == 0); err != nil {
		return err
	}
	if err := writeTail(bw, tail); err != nil {
		return err
	}
	return bw.Flush()
}

// prepare readies the items for writing, in one pass through them (on
// thirty thousand items each pass is a trip through a few hundred
// megabytes): kyaml's writer's clearing of empty annotations, which items
// are copied as they were read (listSource.copiesAt) and whether a comment
// is left pending (pendingAfter).
func (l *List) prepare() (copies []string, pending bool, err error) {
	pending = l.FunctionConfig != nil && pendingAfter(l.FunctionConfig.YNode())
	at := make([]int, len(l.Items))
	for k, it := range l.Items {
		if err := clearEmptyAnnotations(it); err != nil {
			return nil, false, err
		}
		at[k] = l.src.at(it, l.Unchanged)
		// an item copied as it was read carries its comments where they
		// were; only one written anew can leave one pending
		pending = pending || at[k] < 0 && pendingAfter(it.YNode())
	}
	copies = l.src.copiesAt(l.Items, at)
	for k, it := range l.Items {
		pending = pending || at[k] >= 0 && copies[k] == "" && pendingAfter(it.YNode())
	}
	return copies, pending, nil
}

// clearEmptyAnnotations is what kyaml's writer does to each item (on a
// copy): an empty annotations map, then an empty metadata, is removed.
// kyaml's function builds two pipelines per item; it is called only on
// the items it might change or refuse.
func clearEmptyAnnotations(it *yaml.RNode) error {
	if !mayClear(it.YNode()) || clearEmptyMap(it.YNode()) {
		return nil
	}
	return yaml.ClearEmptyAnnotations(it)
}

// clearEmptyMap is kyaml's ClearEmptyAnnotations for the item it is
// called on most, one whose annotations the migration emptied
// (internal.config.kubernetes.io/annotations-migration-resource-id was
// all it had): its one metadata map's one annotations key holds an empty
// map (plainAnnotations), which goes, and metadata with it if nothing else
// is left. false, and nothing changed, for any other item.
func clearEmptyMap(n *yaml.Node) bool {
	annos, ok := plainAnnotations(n)
	if !ok || annos == nil || len(annos.Content) != 0 {
		return false
	}
	meta := fieldValue(n, yaml.MetadataField)
	removeField(meta, yaml.AnnotationsField)
	if len(meta.Content) == 0 {
		removeField(n, yaml.MetadataField)
	}
	return true
}

// mayClear reports whether yaml.ClearEmptyAnnotations could change or
// refuse the item n: it is no map of pairs, or a metadata key's value is
// none, or an annotations key's value in a metadata map holds nothing
// (kyaml's "empty" is no content, which a scalar has too).
func mayClear(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content)%2 != 0 {
		return true
	}
	for i := 0; i < len(n.Content); i += 2 {
		if n.Content[i].Value != yaml.MetadataField {
			continue
		}
		m := n.Content[i+1]
		if m.Kind != yaml.MappingNode || len(m.Content) == 0 || len(m.Content)%2 != 0 {
			return true
		}
		for j := 0; j < len(m.Content); j += 2 {
			if m.Content[j].Value == yaml.AnnotationsField && len(m.Content[j+1].Content) == 0 {
				return true
			}
		}
	}
	return false
}

// writeHead writes what comes before the items: apiVersion, kind and the
// "items:" key.
func writeHead(w io.Writer, l *List) error {
	head := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		scalarNode("apiVersion"), scalarNode(l.APIVersion), scalarNode("kind"), scalarNode(l.Kind),
	}}
	var buf bytes.Buffer
	if err := encode(&buf, head, false); err != nil {
		return err
	}
	if len(l.Items) == 0 {
		buf.WriteString("items: []\n")
	} else {
		buf.WriteString("items:\n")
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// listTail is the rest of the top mapping after the items, each entry a
// mapping of its own: functionConfig and results.
func listTail(l *List) []*yaml.Node {
	var tail []*yaml.Node
	if l.FunctionConfig != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode,
			Content: []*yaml.Node{scalarNode("functionConfig"), l.FunctionConfig.YNode()}})
	}
	if l.Results != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode,
			Content: []*yaml.Node{scalarNode("results"), l.Results.YNode()}})
	}
	return tail
}

// writeTail writes the tail after the items; its last entry ends the
// output.
func writeTail(w io.Writer, tail []*yaml.Node) error {
	var buf bytes.Buffer
	for i, t := range tail {
		buf.Reset()
		if err := encode(&buf, t, i == len(tail)-1); err != nil {
			return err
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
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

// writeItems writes the items on every core, in order: each as its text in
// copies, or encoded where that is "". last says the items end the output
// (nothing follows "items:").
func writeItems(w io.Writer, items []*yaml.RNode, copies []string, last bool) error {
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
				*err = e.emitItems(items, copies, lo, hi, last)
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

// emitItems appends items[lo:hi] to e.out: as their text in copies, else
// by emitItem where it can, else by yaml.v3.
func (e *itemEmitter) emitItems(items []*yaml.RNode, copies []string, lo, hi int, last bool) error {
	q := fallbackQueue{seq: yaml.Node{Kind: yaml.SequenceNode}}
	for i := lo; i < hi; i++ {
		if copies[i] != "" {
			if err := q.flush(&e.out, false); err != nil {
				return err
			}
			e.out = append(e.out, copies[i]...)
			continue
		}
		// the item ending the output is left to yaml.v3, which ends a
		// stream with "..." after a block scalar keeping its line breaks
		end := last && i == len(items)-1
		if !end {
			emitted, err := e.emitAfter(&q, items[i].YNode())
			if err != nil {
				return err
			}
			if emitted {
				continue
			}
		}
		if err := q.add(&e.out, items[i].YNode(), end); err != nil {
			return err
		}
	}
	return q.flush(&e.out, false)
}

// emitAfter writes n by emitItem, after the items q holds: emitItem
// appends, so what yaml.v3 holds must go first. emitted is false when
// emitItem refused n.
func (e *itemEmitter) emitAfter(q *fallbackQueue, n *yaml.Node) (emitted bool, err error) {
	mark := len(e.out)
	if !e.emitItem(n) {
		return false, nil
	}
	if len(q.seq.Content) == 0 {
		return true, nil
	}
	written := append([]byte(nil), e.out[mark:]...)
	e.out = e.out[:mark]
	if err := q.flush(&e.out, false); err != nil {
		return true, err
	}
	e.out = append(e.out, written...)
	return true, nil
}

// fallbackQueue holds the items emitItem refused, up to fallbackRun, for
// one yaml.v3 encoder to write as a block sequence.
type fallbackQueue struct {
	seq yaml.Node
	buf bytes.Buffer
}

// add queues n, and writes the queue to out when it is full or n ends the
// output.
func (q *fallbackQueue) add(out *[]byte, n *yaml.Node, end bool) error {
	q.seq.Content = append(q.seq.Content, n)
	if len(q.seq.Content) == fallbackRun || end {
		return q.flush(out, end)
	}
	return nil
}

// flush appends the queued items to out, encoded by yaml.v3 (with the
// end-of-stream marker when end), and empties the queue.
func (q *fallbackQueue) flush(out *[]byte, end bool) error {
	if len(q.seq.Content) == 0 {
		return nil
	}
	q.buf.Reset()
	err := encode(&q.buf, &q.seq, end)
	*out = append(*out, q.buf.Bytes()...)
	q.seq.Content = q.seq.Content[:0]
	return err
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

// pendingAfter reports whether a piece written on its own (an item, the
// functionConfig) leaves a comment for what is written after it: one
// pending inside it, or its own foot comment.
//
// A comment pending is one yaml.v3's emitter does not write where it
// reads it but keeps for a later node (the line comment of a block
// collection or of a key, the head comment of a mapping value), or a foot
// comment of an item or of the functionConfig, after which it writes a
// blank line before the next thing at column 0. In one document (kyaml's
// writer) that comment lands on whatever comes next, possibly the next
// item or the "results:" key; written in pieces it would be lost. A list
// where an item written anew leaves one is written by kyaml (List.prepare).
func pendingAfter(n *yaml.Node) bool {
	return pending(n) || n.FootComment != ""
}

// pending reports whether n or a node under it holds a comment yaml.v3
// keeps for the node written after it.
func pending(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if blockLineComment(n) || n.Kind == yaml.MappingNode && entryCommentPending(n) {
		return true
	}
	return slices.ContainsFunc(n.Content, pending)
}

// blockLineComment reports whether n is a block collection, not empty,
// with a line comment (which yaml.v3 keeps for a later node).
func blockLineComment(n *yaml.Node) bool {
	return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.LineComment != "" &&
		n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

// entryCommentPending reports whether an entry of the mapping m has a
// key's line comment or a value's head comment, which yaml.v3 keeps for
// what it writes next.
func entryCommentPending(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].LineComment != "" || m.Content[i+1].HeadComment != "" {
			return true
		}
	}
	return false
}
