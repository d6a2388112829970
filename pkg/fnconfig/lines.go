package fnconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

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
	top := config.YNode()
	if top.Kind == yaml.DocumentNode && len(top.Content) > 0 {
		top = top.Content[0]
	}
	if top.Kind != yaml.MappingNode {
		return &configLines{}
	}
	ann := func(k string) string { return nestedString(top, "metadata", "annotations", k) }
	// kpt fn render: the file named inside the package.
	if pkg, file := ann("internal.config.kubernetes.io/package-path"), ann("internal.config.kubernetes.io/path"); pkg != "" && file != "" &&
		filepath.IsAbs(pkg) && !filepath.IsAbs(file) && !escapes(filepath.Clean(filepath.FromSlash(file))) {
		if doc := configDoc(pkg, filepath.Join(pkg, filepath.Clean(filepath.FromSlash(file))), top); doc != nil {
			nodes, literal := sameNodes(top, doc)
			return &configLines{file: file, nodes: nodes, literal: literal}
		}
	}
	// kpt fn eval --fn-config.
	if ann("internal.config.kubernetes.io/seqindent") != "" {
		return &configLines{offset: kptEvalOffset(top)}
	}
	// kustomize.
	if ann("config.kubernetes.io/local-config") != "" {
		if file, doc := kustomizationConfig(top); doc != nil {
			nodes, literal := sameNodes(top, doc)
			return &configLines{file: file, nodes: nodes, literal: literal}
		}
		return &configLines{none: true}
	}
	return &configLines{}
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
	return n.Kind == yaml.ScalarNode && n.Style&yaml.LiteralStyle != 0
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
	if b.Kind == yaml.AliasNode && b.Alias != nil && a.Kind != yaml.AliasNode {
		b = b.Alias
	}
	p.lines[a] = b.Line
	if b.Kind == yaml.ScalarNode && b.Style&yaml.LiteralStyle != 0 && a.Value == b.Value {
		p.literal[a] = true
	}
	switch {
	case a.Kind == yaml.MappingNode && b.Kind == yaml.MappingNode:
		p.mapping(a, b)
	case a.Kind == yaml.SequenceNode && b.Kind == yaml.SequenceNode:
		for i := 0; i < len(a.Content) && i < len(b.Content); i++ {
			p.walk(a.Content[i], b.Content[i])
		}
	}
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

// kptEvalOffset maps a line of the config as kpt fn eval sends it to the
// line in the --fn-config file: counted from the first key, which follows
// the file's leading comment lines, less the annotation lines kpt added
// above it (and the `annotations:` line, when every annotation is kpt's).
func kptEvalOffset(top *yaml.Node) func(*yaml.Node) int {
	first := 1 + commentLines(top.HeadComment)
	if len(top.Content) > 0 {
		first += commentLines(top.Content[0].HeadComment)
	}
	var added []int // lines kpt added
	if meta := mapField(top, "metadata"); meta != nil && meta.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(meta.Content); i += 2 {
			if meta.Content[i].Value != "annotations" || meta.Content[i+1].Kind != yaml.MappingNode {
				continue
			}
			anns, all := meta.Content[i+1], true
			for j := 0; j+1 < len(anns.Content); j += 2 {
				if kptConfigAnnotations[anns.Content[j].Value] {
					added = append(added, anns.Content[j].Line)
				} else {
					all = false
				}
			}
			if all {
				added = append(added, meta.Content[i].Line)
			}
		}
	}
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
		list := mapField(k, field)
		if list == nil || list.Kind != yaml.SequenceNode {
			continue
		}
		for _, e := range list.Content {
			if e.Kind != yaml.ScalarNode || strings.Contains(e.Value, "\n") || filepath.IsAbs(e.Value) {
				continue // an inline config is no file
			}
			clean := filepath.Clean(filepath.FromSlash(e.Value))
			if escapes(clean) {
				continue
			}
			if doc := configDoc(wd, filepath.Join(wd, clean), config); doc != nil {
				return e.Value, doc
			}
		}
	}
	return "", nil
}

// readKustomization reads the kustomization file of dir (under ReadFile's
// rules: a regular file within the size limit, no link out of dir) and
// returns its top map; nil when there is none or it cannot be read.
func readKustomization(dir string) *yaml.Node {
	limit, err := maxFileSize()
	if err != nil {
		return nil
	}
	for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); err != nil {
			continue
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil || !within(dir, target) {
			return nil
		}
		raw, err := readRegular(target, name, limit)
		if err != nil {
			return nil
		}
		var k yaml.Node
		if yaml.Unmarshal(raw, &k) != nil || len(k.Content) == 0 || k.Content[0].Kind != yaml.MappingNode {
			return nil
		}
		return k.Content[0]
	}
	return nil
}
