package fnrun

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
)

// RunStream runs f on a standalone stream of resources (the command line's
// files, or stdin; req gives the config) and returns the stream written
// back, nil when the run failed. A resource the function did not change is
// written as the bytes it was read from; one it changed, as edits of
// those bytes (valuemerge.Doc: the lines it did not change keep their
// comments, indentation, flow style and quoting), or, where the change
// cannot be written so, whole, with an info result that says so. The
// items of Lists are handed to the function as resources of their own
// and go back into their Lists (rlio.ExpandLists).
func RunStream(f Function, req *Request, in *rlio.Stream) ([]byte, Outcome, error) {
	opened := openStream(in)
	items, lists := rlio.ExpandLists(opened.nodes)
	req.Items = items
	outcome := f.Process(req)
	if outcome.Failed {
		return nil, outcome, nil
	}
	out := req.Items
	if lists != nil {
		out = lists.Collapse(out)
	}
	docs, infos := opened.write(out)
	if in.Whole() {
		infos = append(infos, &framework.Result{Severity: framework.Info, Message: unplaced})
	}
	outcome.Results = append(outcome.Results, req.secretSet().Results(infos)...)
	var b bytes.Buffer
	if err := rlio.WriteStream(&b, docs, in.Tail()); err != nil {
		return nil, outcome, req.secretSet().Error(err)
	}
	return b.Bytes(), outcome, nil
}

// WrittenWhole starts the info result of a standalone run that says a
// resource it changed was written whole.
const WrittenWhole = "written whole, not as edits of its text"

// unplaced is the info of a run whose input YAML and kyaml's reader split
// into documents differently (rlio.ReadStream).
const unplaced = "every resource is written whole, as kyaml writes it: YAML and kyaml's reader split the input into " +
	"documents differently (a \"...\" line, a \"---\" line with a comment right after another \"---\" line, " +
	"or a line break other than \\n and \\r\\n), so the bytes of each resource are not known"

// openedStream is a stream's resources opened for editing: the function
// is handed each one's valuemerge.Doc.Want, and what it made of them is
// written as edits of their text.
type openedStream struct {
	nodes []*yaml.RNode
	// by maps the node handed to the function to where it came from.
	by map[*yaml.Node]*opened
}

// opened is one resource handed to the function.
type opened struct {
	src *rlio.Source
	// doc edits the resource's text; nil when the text is not known.
	doc *valuemerge.Doc
	// print is the resource's Fingerprint when it was handed over.
	print uint64
}

// openStream opens each resource of the stream whose text is known.
func openStream(in *rlio.Stream) *openedStream {
	s := &openedStream{by: map[*yaml.Node]*opened{}}
	for _, src := range in.Docs {
		o := &opened{src: src}
		node := src.Node
		if src.Text != "" {
			doc, err := valuemerge.Open(src.Text, src.Node.YNode(), valuemerge.Options{Format: valuemerge.YAML,
				Edit: embedded.Options{Secret: isSecret(src.Node)}})
			if err == nil {
				o.doc, node = doc, yaml.NewRNode(doc.Want)
			}
		}
		// yaml.v3 writes a << key "!!merge <<"; the runner takes the tag
		// off every item, so it is taken off before the fingerprint
		inherit.Untag(node.YNode())
		o.print = Fingerprint(node)
		s.by[node.YNode()] = o
		s.nodes = append(s.nodes, node)
	}
	return s
}

// write is the output's documents: the source bytes of each resource the
// function left as it was, the edited bytes of each it changed, and the
// others whole; infos say which changed resources were written whole.
func (s *openedStream) write(out []*yaml.RNode) ([]rlio.Out, framework.Results) {
	var docs []rlio.Out
	var infos framework.Results
	for _, it := range out {
		o := s.by[it.YNode()]
		if o == nil {
			docs = append(docs, rlio.Out{Node: it})
			continue
		}
		d, err := o.edit(it)
		if err != nil {
			infos = append(infos, result(framework.Info, "", it, "",
				fmt.Sprintf("%s (comments and layout the change did not touch may differ): %v", WrittenWhole, err)))
		}
		docs = append(docs, d)
	}
	return docs, infos
}

// edit is the document of a resource read from the stream, now it: its
// source bytes if unchanged, else edits of them, else (with the reason)
// it whole.
func (o *opened) edit(it *yaml.RNode) (rlio.Out, error) {
	src := o.src
	switch {
	case src.Text != "" && !Changed(o.print, it):
		return rlio.Out{Lead: src.Lead, Text: src.Text}, nil
	case o.doc == nil:
		return rlio.Out{Lead: src.Lead, Node: it, Wide: src.Wide}, nil
	}
	asEncoded(it.YNode())
	text, err := o.doc.Write()
	if err == nil && inheritKeys(it.YNode()) < inheritKeys(src.Node.YNode()) {
		// the edit would keep a << key the function expanded: a reader
		// that does not expand them would see another resource
		err = errExpanded
	}
	if err != nil {
		return rlio.Out{Lead: src.Lead, Node: withDocumentComments(it, src.Node), Wide: src.Wide}, err
	}
	return rlio.Out{Lead: src.Lead, Text: text}, nil
}

// withDocumentComments is it in a document node carrying the comments
// the source document held around its value, for writing it whole.
func withDocumentComments(it, src *yaml.RNode) *yaml.RNode {
	d := src.Document()
	if d == nil || d.Kind != yaml.DocumentNode {
		return it
	}
	doc := *d
	doc.Content = []*yaml.Node{it.YNode()}
	return yaml.NewRNode(&doc)
}

// asEncoded settles the scalars of n as yaml.v3's encoder would write
// them, for the edit to write them so: a string that holds a line break
// and has no style is a literal block, and a scalar without a tag has the
// tag its plain text resolves to (a transform may build "3" untagged).
func asEncoded(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "" {
		n.Tag = n.ShortTag()
	}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Tag == "!!str" && strings.Contains(n.Value, "\n") {
		n.Style = yaml.LiteralStyle
	}
	for _, c := range n.Content {
		asEncoded(c)
	}
}

var errExpanded = errors.New("the change expands << keys (inheritance) that the edit would keep")

// inheritKeys counts the << keys below n.
func inheritKeys(n *yaml.Node) int {
	count := 0
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && inherit.IsKey(c) {
			count++
		}
		count += inheritKeys(c)
	}
	return count
}

// isSecret reports whether a resource read is a Secret (a document that is
// not a map, which the runner refuses, is not).
func isSecret(n *yaml.RNode) bool {
	return n.YNode().Kind == yaml.MappingNode && n.GetKind() == "Secret"
}
