package rlio

import (
	"bytes"
	"errors"
	"io"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Stream is a standalone run's stream of resources (YAML documents) as
// read: each resource with the bytes it was read from, so that what a
// function leaves alone is written back as exactly those bytes
// (WriteStream).
type Stream struct {
	Docs []*Source
	// tail is the empty documents (nothing, or only comments) after the
	// last resource.
	tail string
	// unplaced says some file of the stream could not be placed: its
	// resources have no Text, and whatever else it held is lost.
	unplaced bool
}

// Source is one resource of a stream.
type Source struct {
	// Node is the resource as kyaml's reader reads it (no annotations
	// added, a List not unwrapped).
	Node *yaml.RNode
	// Text is the document's bytes in the stream: its "---" line, its
	// comments, the lines after it up to the next document, as they are.
	// "" when the stream's documents could not be placed (see ReadStream).
	Text string
	// Lead is the empty documents just before it, written with it.
	Lead string
	// Wide says the resource indents its block lists under their keys
	// ("key:\n  - a"), as kyaml's reader tells: written whole, it keeps
	// that.
	Wide bool
}

// ReadStream reads a stream of resources for a standalone run, with
// kyaml's reader, and places each resource in the bytes it came from.
//
// The places come from yaml.v3's own positions, never from scanning lines
// for YAML: the stream is read once as YAML reads it, and each document
// that starts with a "---" line (the parser says where each document
// starts) begins a new span. Each span is then read on its own by kyaml's
// reader, which must find in it exactly the resource (comments and
// styles included) it finds there in the whole stream (FuzzStreamSpans
// holds the two readings to the same resources on random streams).
//
// Where YAML and kyaml's reader split a stream differently (a "..." line,
// a line break other than \n and \r\n, a "---" line kyaml takes for a
// separator and YAML does not, a "---" line with a comment that kyaml does
// not split on because it follows another), or the stream does not parse,
// the resources are read as kyaml reads the whole stream, with no Text:
// they are written whole (Whole).
//
// kyaml's reader unwraps a stream that is one List into its items; this
// one does not (a List keeps its wrapper, see ExpandLists).
func ReadStream(raw []byte) (*Stream, error) {
	items, err := readKyaml(raw)
	if err != nil {
		return nil, err
	}
	if s, ok := placed(raw); ok && sameResources(s.Docs, items) {
		return s, nil
	}
	s := &Stream{unplaced: true}
	wide := wideResources(raw, len(items))
	for i, it := range items {
		s.Docs = append(s.Docs, &Source{Node: it, Wide: wide[i]})
	}
	return s, nil
}

// wideResources tells, for each of the n resources of raw, whether
// kyaml's reader finds it indenting its block lists under their keys.
// kyaml tells it only with annotations of its own that would change the
// resources, so the stream is read again.
func wideResources(raw []byte, n int) []bool {
	wide := make([]bool, n)
	styled, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), PreserveSeqIndent: true, DisableUnwrapping: true}).Read()
	if err != nil || len(styled) != n {
		return wide // indentation is a nicety; the resources are read
	}
	for i, it := range styled {
		wide[i] = it.GetAnnotations()[kioutil.SeqIndentAnnotation] == string(yaml.WideSequenceStyle)
	}
	return wide
}

// sameResources reports whether the resources read span by span are those
// kyaml's reader reads in the whole stream, comments and styles included.
func sameResources(docs []*Source, items []*yaml.RNode) bool {
	if len(docs) != len(items) {
		return false
	}
	for i, d := range docs {
		if !sameNode(d.Node.Document(), items[i].Document()) {
			return false
		}
	}
	return true
}

// sameNode reports whether two yaml trees are written alike: kinds, tags,
// styles, values, anchors and comments.
func sameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// readKyaml reads resources with kyaml's reader, as standalone runs read
// them: no annotations added, Lists not unwrapped.
func readKyaml(raw []byte) ([]*yaml.RNode, error) {
	return (&kio.ByteReader{Reader: bytes.NewReader(raw), OmitReaderAnnotations: true, DisableUnwrapping: true}).Read()
}

// placed reads the stream span by span (documentStarts); false when the
// spans cannot be trusted to hold what kyaml's reader reads.
func placed(raw []byte) (*Stream, bool) {
	starts, ok := documentStarts(raw)
	if !ok {
		return nil, false
	}
	s := &Stream{}
	lead := ""
	for k, start := range starts {
		end := len(raw)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		text := string(raw[start:end])
		items, err := readKyaml(asKyamlSplits(raw[start:end], start > 0))
		switch {
		case err != nil || len(items) > 1:
			return nil, false
		case len(items) == 0:
			lead += text
		default:
			s.Docs = append(s.Docs, &Source{Node: items[0], Text: text, Lead: lead, Wide: wideSequences(text)})
			lead = ""
		}
	}
	s.tail = lead
	return s, true
}

// asKyamlSplits is a span as kyaml's reader reads it from the whole
// stream: without the "---" line that starts it (which kyaml's reader
// splits on and drops), left as an empty line so that the lines of the
// resource read are the lines of the span.
func asKyamlSplits(span []byte, marked bool) []byte {
	if !marked {
		return span
	}
	return append([]byte("\n"), span[bytes.IndexByte(span, '\n')+1:]...)
}

// Append adds the resources of another stream (the next file) after
// these: the empty documents that ended this one lead the first of them.
func (s *Stream) Append(next *Stream) {
	if len(next.Docs) == 0 {
		next.tail = s.tail + next.tail
	} else {
		next.Docs[0].Lead = s.tail + next.Docs[0].Lead
	}
	s.Docs = append(s.Docs, next.Docs...)
	s.tail = next.tail
	s.unplaced = s.unplaced || next.unplaced
}

// Whole reports whether some file of the stream could not be placed: its
// resources' bytes are not known, they are written whole, and its empty
// documents (comments, blank lines) are not written at all.
func (s *Stream) Whole() bool { return s.unplaced }

// Tail is the empty documents after the last resource read, for
// WriteStream.
func (s *Stream) Tail() string { return s.tail }

// documentStarts is where each document of raw starts, as yaml.v3 reads
// raw: 0, then the line of each "---" that starts a document. false when
// kyaml's reader would split raw elsewhere: a document yaml.v3 starts
// without a "---" line (after a "..." line), a "---" line with more than a
// comment after it (kyaml refuses it), line breaks that yaml.v3 counts
// and kyaml does not split on, or a stream yaml.v3 cannot read.
func documentStarts(raw []byte) ([]int, bool) {
	if hasOtherLineBreaks(raw) {
		return nil, false
	}
	lines := lineStarts(raw)
	starts := []int{0}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	for k := 0; ; k++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return starts, true
		}
		if err != nil || doc.Line < 1 || doc.Line > len(lines) {
			return nil, false
		}
		at := lines[doc.Line-1]
		switch {
		case doc.Column == 1 && marker(raw[at:]):
			if at > 0 && !kyamlSeparator(raw[at:]) {
				return nil, false
			}
			if at > 0 {
				starts = append(starts, at)
			}
		case k > 0:
			return nil, false
		}
	}
}

// lineStarts are the offsets at which the lines of raw start (after each
// \n).
func lineStarts(raw []byte) []int {
	starts := make([]int, 1, bytes.Count(raw, []byte{'\n'})+1)
	for at := 0; ; {
		i := bytes.IndexByte(raw[at:], '\n')
		if i < 0 {
			return starts
		}
		at += i + 1
		starts = append(starts, at)
	}
}

// hasOtherLineBreaks reports whether raw holds a line break yaml.v3
// counts and kyaml's reader does not split on: a lone \r, U+2028, U+2029,
// U+0085.
func hasOtherLineBreaks(raw []byte) bool {
	for _, b := range documentEnds[2:] {
		if bytes.Contains(raw, b) {
			return true
		}
	}
	for i := bytes.IndexByte(raw, '\r'); i >= 0; {
		if i+1 >= len(raw) || raw[i+1] != '\n' {
			return true
		}
		next := bytes.IndexByte(raw[i+1:], '\r')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// marker reports whether line starts with a "---" document marker: three
// dashes, then a blank, a line break or the end.
func marker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	return len(line) == 3 || bytes.IndexByte([]byte(" \t\r\n"), line[3]) >= 0
}

// kyamlSeparator reports whether kyaml's reader takes the "---" line that
// starts line for a separator: nothing after it but blanks and a comment,
// and a line break after it.
func kyamlSeparator(line []byte) bool {
	end := bytes.IndexByte(line, '\n')
	if end < 0 {
		return false
	}
	rest := bytes.TrimSpace(line[3:end])
	return len(rest) == 0 || rest[0] == '#'
}

// Out is one document of a standalone run's output: Text written as it is
// (a resource's source bytes, or an edit of them), or else Node encoded as
// kyaml's writer encodes it.
type Out struct {
	// Lead is written before it: the empty documents that came before the
	// resource.
	Lead string
	Text string
	Node *yaml.RNode
	// Wide encodes Node's block lists indented under their key
	// ("key:\n  - a"), as the resource had them.
	Wide bool
}

// WriteStream writes a standalone run's output: the documents in order,
// a "---" line before each but the first that does not start with one,
// then tail (the empty documents that ended the input).
func WriteStream(w io.Writer, docs []Out, tail string) error {
	var b bytes.Buffer
	for _, d := range docs {
		lineBreak(&b)
		b.WriteString(d.Lead)
		text, err := d.text()
		if err != nil {
			return err
		}
		if b.Len() > 0 && !marker([]byte(text)) {
			lineBreak(&b)
			b.WriteString("---\n")
		}
		b.WriteString(text)
	}
	if tail != "" {
		lineBreak(&b)
		b.WriteString(tail)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// lineBreak ends what b holds with a line break, if it holds anything.
func lineBreak(b *bytes.Buffer) {
	if b.Len() > 0 && b.Bytes()[b.Len()-1] != '\n' {
		b.WriteByte('\n')
	}
}

// text is the document's text: Text, or Node as kyaml's writer writes a
// resource alone.
func (d Out) text() (string, error) {
	if d.Node == nil {
		return d.Text, nil
	}
	n := d.Node.Copy()
	if d.Wide {
		if err := n.PipeE(yaml.SetAnnotation(kioutil.SeqIndentAnnotation, string(yaml.WideSequenceStyle))); err != nil {
			return "", err
		}
	}
	var b bytes.Buffer
	if err := (kio.ByteWriter{Writer: &b}).Write([]*yaml.RNode{n}); err != nil {
		return "", err
	}
	return b.String(), nil
}

// wideSequences reports whether text, a resource's source, indents its
// block lists under their keys, as kyaml's reader tells.
func wideSequences(text string) bool {
	return yaml.DeriveSeqIndentStyle(text) == string(yaml.WideSequenceStyle)
}
