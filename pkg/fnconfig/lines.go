package fnconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// configLines turns the line of a node in the config, as it reached the
// function, into the line a user finds in their own file.
//
// A ResourceList's lines are not the file's: the config sits below
// `functionConfig:` in a stream that starts with every item, and the
// clients rewrite it on the way (checked with kpt 1.0.0-beta.56 and
// kustomize 5.8.2):
//
//   - kpt fn render keeps the file's layout and comments and adds its
//     annotations (index, path, package-path, seqindent, ids) under
//     metadata; it names the file (internal.config.kubernetes.io/path in
//     the package-path directory). The file is read again and each node is
//     found in it by its path of keys and indexes.
//   - kpt fn eval --fn-config keeps the layout and comments and adds three
//     annotations (config.kubernetes.io/index, internal.config.kubernetes.io/index
//     and .../seqindent), but does not name the file. The line is counted
//     from the config's first key, less the lines kpt added before it, plus
//     the comment lines above the first key. kpt drops blank lines, and
//     comments above a leading `---`, so in a file with those the line is
//     early by as many lines: the field path in the message is exact.
//   - kustomize sorts the keys, drops the comments and adds
//     config.kubernetes.io/local-config; it names no file, but runs the
//     function in the kustomization directory, whose kustomization.yaml lists
//     the config's file under transformers:, generators: or validators:.
//     That file, when it holds a document with the config's apiVersion, kind
//     and name, is read and the nodes found in it by path, as for render.
//     Without it the line is left out rather than given wrong.
//   - standalone reads the file itself: its lines are the file's.
//
// The files read are the one kpt names inside the package and those the
// kustomization lists, below the working directory, under the rules of
// ReadFile (regular files within the size limit, no way out by links); only
// their lines reach a message.
type configLines struct {
	file   string             // the file as the client names it; "" when unknown
	nodes  map[*yaml.Node]int // line in the file of each node, when the file was read
	offset func(n *yaml.Node) int
	none   bool // no line can be given
	// literal holds the nodes written as literal block scalars (|) in the file
	// read, whose lines of text are the file's lines after the indicator
	literal map[*yaml.Node]bool
}

// kpt's annotations on a config it read from a file, each on a line of its own.
var kptConfigAnnotations = map[string]bool{
	"config.kubernetes.io/index":                                      true,
	"config.kubernetes.io/path":                                       true,
	"config.k8s.io/id":                                                true,
	"internal.config.kubernetes.io/index":                             true,
	"internal.config.kubernetes.io/path":                              true,
	"internal.config.kubernetes.io/package-path":                      true,
	"internal.config.kubernetes.io/seqindent":                         true,
	"internal.config.kubernetes.io/id":                                true,
	"internal.config.kubernetes.io/annotations-migration-resource-id": true,
}

// standaloneConfigs holds the configs the standalone command read itself,
// by node, with the file's name: their lines are the file's (ReadFrom).
var standaloneConfigs sync.Map

// ReadFrom records that config was read from file by the function itself
// (the standalone command), so that messages give the lines of that file,
// named as given. The returned forget ends it, when the run is over.
func ReadFrom(config *yaml.RNode, file string) (forget func()) {
	standaloneConfigs.Store(config.YNode(), file)
	return func() { standaloneConfigs.Delete(config.YNode()) }
}

// linesOf works out where the config came from.
func linesOf(config *yaml.RNode) *configLines {
	if file, ok := standaloneConfigs.Load(config.YNode()); ok {
		return &configLines{file: file.(string)}
	}
	top := configTop(config.YNode())
	if top.Kind != yaml.MappingNode {
		return &configLines{}
	}
	if l := renderLines(top); l != nil {
		return l
	}
	if annotation(top, "internal.config.kubernetes.io/seqindent") != "" {
		return &configLines{offset: kptEvalOffset(top)} // kpt fn eval --fn-config
	}
	if annotation(top, "config.kubernetes.io/local-config") != "" {
		return kustomizeLines(top)
	}
	return &configLines{}
}

// annotation is the config's annotation k, or "".
func annotation(top *yaml.Node, k string) string {
	return nestedString(top, "metadata", "annotations", k)
}

// renderLines are the lines of the file kpt fn render names inside the
// package; nil when it names none, or the file holds no such config.
func renderLines(top *yaml.Node) *configLines {
	pkg, file := annotation(top, "internal.config.kubernetes.io/package-path"), annotation(top, "internal.config.kubernetes.io/path")
	full, ok := packageFile(pkg, file)
	if !ok {
		return nil
	}
	doc := configDoc(pkg, full, top)
	if doc == nil {
		return nil
	}
	return fileLines(file, top, doc)
}

// kustomizeLines are the lines of the file the kustomization lists that
// holds the config; none when there is no such file.
func kustomizeLines(top *yaml.Node) *configLines {
	file, doc := kustomizationConfig(top)
	if doc == nil {
		return &configLines{none: true}
	}
	return fileLines(file, top, doc)
}

// fileLines are the lines of file, whose document doc is the config top
// as it was read.
func fileLines(file string, top, doc *yaml.Node) *configLines {
	nodes, literal := sameNodes(top, doc)
	return &configLines{file: file, nodes: nodes, literal: literal}
}

// at says where a node is: "line 15", "line 15 of fns/patches.yaml", or ""
// when that cannot be told.
func (l *configLines) at(n *yaml.Node) string {
	return l.lineAt(l.line(n))
}

// line is the line of a node in the user's file (0 when it cannot be told).
func (l *configLines) line(n *yaml.Node) int {
	switch {
	case l == nil:
	case l.none:
		return 0
	case l.nodes != nil:
		return l.nodes[n]
	case l.offset != nil:
		return max(l.offset(n), 0)
	}
	return n.Line
}

// lineAt says "line 15" or "line 15 of fns/patches.yaml" ("" for 0).
func (l *configLines) lineAt(line int) string {
	if line <= 0 {
		return ""
	}
	if l != nil && l.file != "" {
		return fmt.Sprintf("line %d of %s", line, l.file)
	}
	return fmt.Sprintf("line %d", line)
}

// isLiteral reports whether n is a literal block scalar in the user's file,
// so that its lines of text are that file's lines after n's own.
func (l *configLines) isLiteral(n *yaml.Node) bool {
	if l != nil && l.literal != nil {
		return l.literal[n]
	}
	return literalBlock(n)
}

// paren is at(n) in parentheses with a leading space, or "".
func (l *configLines) paren(n *yaml.Node) string {
	if s := l.at(n); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// sameNodes pairs each node of the config as sent with the node at the same
// path (map keys, list indexes) in the file's document, and records the
// file's line for it.
func sameNodes(sent, file *yaml.Node) (map[*yaml.Node]int, map[*yaml.Node]bool) {
	p := nodePairs{lines: map[*yaml.Node]int{}, literal: map[*yaml.Node]bool{}}
	p.walk(sent, file)
	return p.lines, p.literal
}

// nodePairs is what sameNodes finds: the file's line of each node sent,
// and the nodes the file writes as literal block scalars.
type nodePairs struct {
	lines   map[*yaml.Node]int
	literal map[*yaml.Node]bool
}

// walk pairs a, a node sent, with b, the node at the same path in the file.
func (p nodePairs) walk(a, b *yaml.Node) {
	if a == nil || b == nil {
		return
	}
	b = fileNode(a, b)
	p.lines[a] = b.Line
	if literalBlock(b) && a.Value == b.Value {
		p.literal[a] = true
	}
	if a.Kind != b.Kind {
		return
	}
	switch a.Kind {
	case yaml.MappingNode:
		p.mapping(a, b)
	case yaml.SequenceNode:
		p.sequence(a, b)
	}
}

// fileNode is the node the file writes for a, given b at its path: an
// alias in the file stands for its anchor's node, unless a is an alias too
// (the client kept it).
func fileNode(a, b *yaml.Node) *yaml.Node {
	if b.Kind == yaml.AliasNode && b.Alias != nil && a.Kind != yaml.AliasNode {
		return b.Alias
	}
	return b
}

// literalBlock reports whether n is a literal block scalar (|).
func literalBlock(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style&yaml.LiteralStyle != 0
}

// mapping pairs each key of the map a with the key spelled alike in the
// map b, and their values.
func (p nodePairs) mapping(a, b *yaml.Node) {
	for i := 0; i+1 < len(a.Content); i += 2 {
		for j := 0; j+1 < len(b.Content); j += 2 {
			if a.Content[i].Value == b.Content[j].Value {
				p.lines[a.Content[i]] = b.Content[j].Line
				p.walk(a.Content[i+1], b.Content[j+1])
				break
			}
		}
	}
}

// sequence pairs the elements of the lists a and b by index.
func (p nodePairs) sequence(a, b *yaml.Node) {
	for i := 0; i < len(a.Content) && i < len(b.Content); i++ {
		p.walk(a.Content[i], b.Content[i])
	}
}

// kptEvalOffset maps a line of the config as kpt fn eval sends it to the
// line in the --fn-config file: counted from the first key, which follows
// the file's leading comment lines, less the annotation lines kpt added
// above it (and the `annotations:` line, when every annotation is kpt's).
func kptEvalOffset(top *yaml.Node) func(*yaml.Node) int {
	first := 1 + commentLines(top.HeadComment)
	if len(top.Content) > 0 {
		first += commentLines(top.Content[0].HeadComment)
	}
	added := kptAddedLines(top)
	return func(n *yaml.Node) int {
		line := n.Line - top.Line + first
		for _, a := range added {
			if a < n.Line {
				line--
			}
		}
		return line
	}
}

// kptAddedLines are the lines of the config's metadata that kpt fn eval
// added: its annotations, and the `annotations:` line when all are kpt's.
func kptAddedLines(top *yaml.Node) []int {
	meta := yamltree.Lookup(top, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		return nil
	}
	var added []int
	for i := 0; i+1 < len(meta.Content); i += 2 {
		if meta.Content[i].Value == "annotations" && meta.Content[i+1].Kind == yaml.MappingNode {
			added = append(added, kptAnnotationLines(meta.Content[i], meta.Content[i+1])...)
		}
	}
	return added
}

// kptAnnotationLines are the lines of kpt's annotations in the map anns,
// and the line of its key when every annotation in it is kpt's.
func kptAnnotationLines(key, anns *yaml.Node) []int {
	var added []int
	all := true
	for j := 0; j+1 < len(anns.Content); j += 2 {
		if kptConfigAnnotations[anns.Content[j].Value] {
			added = append(added, anns.Content[j].Line)
		} else {
			all = false
		}
	}
	if all {
		added = append(added, key.Line)
	}
	return added
}

func commentLines(c string) int {
	if c == "" {
		return 0
	}
	return strings.Count(c, "\n") + 1
}

// kustomizationConfig finds the file the working directory's kustomization
// lists (transformers, generators, validators) that holds the config.
func kustomizationConfig(config *yaml.Node) (string, *yaml.Node) {
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		return "", nil
	}
	k := readKustomization(wd)
	if k == nil {
		return "", nil
	}
	for _, field := range []string{"transformers", "generators", "validators"} {
		for _, name := range fileEntries(yamltree.Lookup(k, field)) {
			if full, ok := below(wd, name); ok {
				if doc := configDoc(wd, full, config); doc != nil {
					return name, doc
				}
			}
		}
	}
	return "", nil
}

// fileEntries are the entries of a kustomization's list that may name a
// file: scalars on one line (an entry with a line break is an inline
// config).
func fileEntries(list *yaml.Node) []string {
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var names []string
	for _, e := range list.Content {
		if e.Kind == yaml.ScalarNode && !strings.Contains(e.Value, "\n") {
			names = append(names, e.Value)
		}
	}
	return names
}

// readKustomization reads the kustomization file of dir (under ReadFile's
// rules: a regular file within the size limit, no link out of dir) and
// returns its top map; nil when there is none or it cannot be read.
func readKustomization(dir string) *yaml.Node {
	for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		raw, ok := readQuietly(dir, path)
		if !ok {
			return nil
		}
		return topMap(raw)
	}
	return nil
}

// topMap is the top map of a YAML document, nil when it is none.
func topMap(raw []byte) *yaml.Node {
	var k yaml.Node
	if yaml.Unmarshal(raw, &k) != nil || len(k.Content) == 0 || k.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return k.Content[0]
}
