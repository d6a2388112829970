package fnrun

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// This file reads and writes a ResourceList the way kio.ByteReadWriter does
// (KeepReaderAnnotations), byte for byte, at a fraction of its cost.
//
// kyaml decodes the whole list as one YAML document and, worse, encodes it
// back as one document: yaml.v3's emitter then spends most of a run growing
// and copying one ever larger buffer. Here the reader cuts the stream at
// item boundaries (a cheap scan of lines) and decodes the items separately,
// in parallel; the writer writes the envelope (apiVersion, kind, the
// "items:" key) itself and encodes each item as a one-element sequence, which
// yaml.v3 emits exactly as it would the same element inside the whole list.
//
// Whatever the scan is not sure of (document markers, comments at item
// boundaries, anchors shared between items, anything that fails to decode in
// pieces) goes through kyaml's reader instead, so odd inputs cost what they
// always cost and give what they always gave. FuzzListIO and the differential
// tests hold the two paths to the same bytes.

// resourceList is a ResourceList as read: what the runner and the writer need.
type resourceList struct {
	apiVersion, kind string
	items            []*yaml.RNode
	functionConfig   *yaml.RNode
	results          *yaml.RNode
}

// readResourceList reads a ResourceList (or whatever kyaml's ByteReader makes
// of the input: kind is "" when it was not a wrapped list).
func readResourceList(raw []byte) (*resourceList, error) {
	if rl, ok := readLean(raw); ok {
		return rl, nil
	}
	return readKyaml(raw)
}

// readKyaml is kio.ByteReadWriter's reading, as RunResourceList always did it.
func readKyaml(raw []byte) (*resourceList, error) {
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(raw), KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return nil, err
	}
	return &resourceList{apiVersion: rw.WrappingAPIVersion, kind: rw.WrappingKind,
		items: items, functionConfig: rw.FunctionConfig, results: rw.Results}, nil
}

// writeKyaml is kio.ByteReadWriter's writing: the yardstick writeLean matches.
func writeKyaml(w io.Writer, rl *resourceList, items []*yaml.RNode) error {
	rw := &kio.ByteReadWriter{Writer: w, KeepReaderAnnotations: true,
		FunctionConfig: rl.functionConfig, Results: rl.results,
		WrappingAPIVersion: rl.apiVersion, WrappingKind: rl.kind}
	return rw.Write(items)
}

// itemChunk is one item's lines in the input: bytes and the line (0-based)
// they start on.
type itemChunk struct {
	text []byte
	line int
}

// readLean reads the common shape of a ResourceList: one block mapping
// document whose "items:" key starts a line of its own and whose items are
// block sequence entries. ok is false when the input is anything else, or
// anything about it is doubtful; the caller then reads it with kyaml.
func readLean(raw []byte) (rl *resourceList, ok bool) {
	if bytes.Contains(raw, []byte("\r")) || bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, false // kyaml rewrites line ends; leave those inputs to it
	}
	if bytes.Contains(raw, []byte("\n---")) || bytes.Contains(raw, []byte("\n...")) ||
		bytes.HasPrefix(raw, []byte("---")) || bytes.HasPrefix(raw, []byte("...")) ||
		bytes.HasPrefix(raw, []byte("%")) {
		return nil, false // several documents, markers, directives: kyaml's splitting
	}
	envelope, chunks, ok := splitItems(raw)
	if !ok {
		return nil, false
	}
	rl, ok = decodeEnvelope(envelope)
	if !ok {
		return nil, false
	}
	items, ok := decodeItems(chunks)
	if !ok {
		return nil, false
	}
	rl.items = items
	return rl, true
}

// splitItems finds the "items:" line and the block sequence under it. It
// returns the input with the items' lines blanked (each line kept as an
// empty one, so that line numbers below stay right) and the items' chunks.
func splitItems(raw []byte) (envelope []byte, chunks []itemChunk, ok bool) {
	// find "items:" alone on a line at column 0
	start := -1 // offset of the line after "items:"
	line := 0   // its line number (0-based)
	for off, n := 0, 0; off < len(raw); n++ {
		end := bytes.IndexByte(raw[off:], '\n')
		if end < 0 {
			break
		}
		if string(raw[off:off+end]) == "items:" {
			start, line = off+end+1, n+1
			break
		}
		off += end + 1
	}
	if start < 0 {
		return nil, nil, false
	}
	// the sequence's indentation is that of its first entry
	indent := -1
	stop := len(raw) // end of the items block
	lines := 0       // lines in the block
	var starts []int // offset of each chunk
	closedByComment := false
	var last []byte // the last line that is not blank
	for off := start; off < len(raw); {
		end := bytes.IndexByte(raw[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(raw)-off, len(raw)
		}
		text := raw[off : off+end]
		sp := 0
		for sp < len(text) && text[sp] == ' ' {
			sp++
		}
		if sp < len(text) { // not blank
			if sp == 0 && text[0] == '#' {
				return nil, nil, false // a comment ending the items: yaml.v3 may give it to the last one
			}
			if sp == 0 && text[0] != '-' {
				stop = off // the ResourceList's next key
				break
			}
			if text[sp] == '\t' {
				return nil, nil, false
			}
			if indent < 0 {
				indent = sp
			}
			entry := sp == indent && text[sp] == '-' && (sp+1 == len(text) || text[sp+1] == ' ')
			switch {
			case entry:
				if rest := bytes.TrimLeft(text[sp+1:], " "); len(rest) == 0 || rest[0] == '#' {
					// an entry whose first line holds nothing or only a
					// comment: where yaml.v3 puts the comments that follow
					// depends on the item before
					return nil, nil, false
				}
				if closedByComment || propertyThenComment(last) {
					// where yaml.v3 puts a comment that ends an item
					// depends on what follows it
					return nil, nil, false
				}
				starts = append(starts, off)
				chunks = append(chunks, itemChunk{line: line + lines})
			case sp <= indent || len(starts) == 0:
				// comments and anything else at the sequence's own
				// indentation, or before its first entry
				return nil, nil, false
			}
			closedByComment = text[sp] == '#'
			last = text
		}
		lines++
		off = next
	}
	if closedByComment || propertyThenComment(last) || len(chunks) == 0 {
		return nil, nil, false
	}
	for i := range chunks {
		end := stop
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		chunks[i].text = raw[starts[i]:end]
	}
	envelope = make([]byte, 0, start+lines+len(raw)-stop)
	envelope = append(envelope, raw[:start]...)
	for i := 0; i < lines; i++ {
		envelope = append(envelope, '\n')
	}
	envelope = append(envelope, raw[stop:]...)
	return envelope, chunks, true
}

// propertyThenComment reports whether a line may end with a tag or an
// anchor on an empty value followed by a comment ("a: !t # c"): yaml.v3
// gives that comment to the node after it, which for an item's last line is
// in the next item.
func propertyThenComment(line []byte) bool {
	return bytes.IndexByte(line, '#') >= 0 && bytes.ContainsAny(line, "!&")
}

// decodeEnvelope decodes the ResourceList without its items and checks it
// is one, as kyaml's ByteReader would see it.
func decodeEnvelope(envelope []byte) (*resourceList, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(envelope, &doc); err != nil {
		return nil, false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	top := doc.Content[0]
	seen := map[string]bool{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := top.Content[i]
		if k.Kind != yaml.ScalarNode || seen[k.Value] {
			return nil, false
		}
		seen[k.Value] = true
		if v := top.Content[i+1]; k.Value == "items" && (!yaml.IsYNodeTaggedNull(v) || v.Value != "") {
			return nil, false
		}
	}
	node := yaml.NewRNode(&doc)
	// what ByteReader does to the list before unwrapping it; it may fail
	if err := kioutil.CopyLegacyAnnotations(node); err != nil {
		return nil, false
	}
	for _, k := range []string{kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation} {
		if err := node.PipeE(yaml.SetAnnotation(k, "0")); err != nil {
			return nil, false
		}
	}
	meta, err := node.GetMeta()
	if err != nil && !errors.Is(err, yaml.ErrMissingMetadata) {
		return nil, false
	}
	if meta.Kind != kio.ResourceListKind {
		return nil, false
	}
	rl := &resourceList{apiVersion: meta.APIVersion, kind: meta.Kind}
	if fc := node.Field("functionConfig"); fc != nil {
		rl.functionConfig = fc.Value
	}
	if res := node.Field("results"); res != nil {
		rl.results = res.Value
	}
	return rl, true
}

// decodeItems decodes the chunks, in parallel, each into the node the whole
// document would have given for it (line numbers included): by parseItem
// when it can, else by yaml.v3.
func decodeItems(chunks []itemChunk) ([]*yaml.RNode, bool) {
	items := make([]*yaml.RNode, len(chunks))
	var failed atomic.Bool
	parallel(len(chunks), func(lo, hi int) {
		var p itemParser
		for i := lo; i < hi && !failed.Load(); i++ {
			n, err := p.parseItem(chunks[i].text, chunks[i].line+1)
			if err != nil {
				n, err = decodeItem(chunks[i]) // what parseItem does not read
			}
			if err != nil {
				failed.Store(true)
				return
			}
			items[i] = yaml.NewRNode(n)
		}
	})
	return items, !failed.Load()
}

func decodeItem(c itemChunk) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(c.text, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, errNotOneItem
	}
	seq := doc.Content[0]
	if seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 || seq.Style != 0 ||
		doc.HeadComment != "" || doc.LineComment != "" || doc.FootComment != "" ||
		seq.HeadComment != "" || seq.LineComment != "" || seq.FootComment != "" || seq.Anchor != "" || seq.Tag != "!!seq" {
		return nil, errNotOneItem
	}
	shiftLines(seq.Content[0], c.line, nil)
	return seq.Content[0], nil
}

var errNotOneItem = errors.New("not one block sequence entry")

// shiftLines moves a chunk's nodes to the lines they have in the input.
func shiftLines(n *yaml.Node, by int, seen map[*yaml.Node]bool) map[*yaml.Node]bool {
	if n == nil || seen[n] {
		return seen
	}
	if n.Anchor != "" {
		if seen == nil {
			seen = map[*yaml.Node]bool{}
		}
		seen[n] = true // an alias may lead back to it
	}
	n.Line += by
	for _, c := range n.Content {
		seen = shiftLines(c, by, seen)
	}
	return seen
}

// parallel calls fn on contiguous ranges covering [0, n), one per core
// (one range in all when n is small).
func parallel(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/64))
	if workers == 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}

// writeResourceList writes the list as kio.ByteReadWriter would have (with
// KeepReaderAnnotations): the same bytes.
func writeResourceList(w io.Writer, rl *resourceList, items []*yaml.RNode) error {
	if rl.kind != kio.ResourceListKind || leavesCommentPending(rl.functionConfig, items) {
		return writeKyaml(w, rl, items)
	}
	for _, it := range items {
		// ByteWriter clears these on copies of the items; RunResourceList
		// is done with them, so clear them in place.
		if err := yaml.ClearEmptyAnnotations(it); err != nil {
			return err
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf bytes.Buffer
	head := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "apiVersion"}, {Kind: yaml.ScalarNode, Value: rl.apiVersion},
		{Kind: yaml.ScalarNode, Value: "kind"}, {Kind: yaml.ScalarNode, Value: rl.kind},
	}}
	if err := encodePiece(&buf, head, false); err != nil {
		return err
	}
	if len(items) == 0 {
		buf.WriteString("items: []\n")
	} else {
		buf.WriteString("items:\n")
	}
	if _, err := bw.Write(buf.Bytes()); err != nil {
		return err
	}
	var tail []*yaml.Node // functionConfig and results: the rest of the top mapping
	if rl.functionConfig != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "functionConfig"}, rl.functionConfig.YNode()}})
	}
	if rl.results != nil {
		tail = append(tail, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "results"}, rl.results.YNode()}})
	}
	if err := writeItems(bw, items, len(tail) == 0); err != nil {
		return err
	}
	for i, t := range tail {
		buf.Reset()
		if err := encodePiece(&buf, t, i == len(tail)-1); err != nil {
			return err
		}
		if _, err := bw.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// leavesCommentPending reports whether a node holds a comment yaml.v3's
// emitter does not write where it reads it but keeps for a later node (the
// line comment of a block collection or of a key, the head comment of a
// mapping value), or a foot comment of an item, after which it writes a
// blank line before the next thing at column 0. In one document (kyaml's writer) that comment lands on
// whatever comes next, possibly the next item or the "results:" key;
// written in pieces it would be lost. Such lists are written by kyaml.
func leavesCommentPending(config *yaml.RNode, items []*yaml.RNode) bool {
	var pending func(n *yaml.Node) bool
	pending = func(n *yaml.Node) bool {
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
	if config != nil && (pending(config.YNode()) || config.YNode().FootComment != "") {
		return true
	}
	for _, it := range items {
		// an item's own foot comment makes yaml.v3 leave a blank line
		// before whatever comes next at column 0
		if pending(it.YNode()) || it.YNode().FootComment != "" {
			return true
		}
	}
	return false
}

// itemsPerRound bounds the encoded items held before they are written.
const itemsPerRound = 256

// writeItems encodes the items, on every core, and writes them in order.
// Each item is written by emitItem when it can, else by yaml.v3 on its own
// (a one-element block sequence comes out as the same element in the
// whole list would). last says the items end the output: the last item is
// then always left to yaml.v3, which ends a stream with "..." after a
// block scalar that keeps its trailing line breaks.
func writeItems(w io.Writer, items []*yaml.RNode, last bool) error {
	workers := runtime.GOMAXPROCS(0)
	emitters := make([]itemEmitter, workers)
	errs := make([]error, workers)
	for done := 0; done < len(items); {
		round := min(len(items)-done, workers*itemsPerRound)
		k := 0
		var wg sync.WaitGroup
		for lo := 0; lo < round; lo += itemsPerRound {
			hi := min(lo+itemsPerRound, round)
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
		done += round
	}
	return nil
}

// fallbackRun is how many consecutive items emitItem refused one yaml.v3
// encoder writes together, as a block sequence: its event queue only grows,
// so one for them all would be kyaml's problem again, and one per item pays
// for growing a fresh queue every time.
const fallbackRun = 16

// emitItems appends items[lo:hi] to e.out.
func (e *itemEmitter) emitItems(items []*yaml.RNode, lo, hi int, last bool) error {
	var buf bytes.Buffer
	seq := &yaml.Node{Kind: yaml.SequenceNode}
	flush := func(end bool) error {
		if len(seq.Content) == 0 {
			return nil
		}
		buf.Reset()
		err := encodePiece(&buf, seq, end)
		e.out = append(e.out, buf.Bytes()...)
		seq.Content = seq.Content[:0]
		return err
	}
	for i := lo; i < hi; i++ {
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

// encodePiece appends n encoded as a YAML document the way kyaml's encoder
// would encode it inside the whole list. Only the piece that ends the output
// gets the end-of-stream marker ("...") yaml.v3 writes after a block scalar
// keeping its trailing newlines.
func encodePiece(buf *bytes.Buffer, n *yaml.Node, end bool) error {
	enc := yaml.NewEncoder(buf)
	if err := enc.Encode(n); err != nil {
		return err
	}
	if end {
		return enc.Close()
	}
	return nil
}
