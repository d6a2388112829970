package fnrun

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
)

// resultsNode is the results as the ResourceList's results field: the node
// that yaml.Marshal(rs), parsed again, would be, built directly. Marshalling
// and parsing cost about a hundred microseconds a result, and a run telling
// every change it made (explain: true) has one result per field. A result
// holding what the builder does not know (values, tags) goes the long way.
func resultsNode(rs framework.Results) (*yaml.RNode, error) {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
	for _, r := range rs {
		n, err := resultNode(r)
		if err != nil {
			return nil, err
		}
		seq.Content = append(seq.Content, n)
	}
	return yaml.NewRNode(seq), nil
}

// resultNode is one result's map, fields in the order and with the
// omissions of framework.Result's yaml tags.
func resultNode(r *framework.Result) (*yaml.Node, error) {
	if !plainResult(r) {
		return marshalled(r)
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	add := func(key string, v *yaml.Node) { m.Content = append(m.Content, strNode(key), v) }
	if r.Message != "" {
		add("message", strNode(r.Message))
	}
	if r.Severity != "" {
		add("severity", strNode(string(r.Severity)))
	}
	if ref := r.ResourceRef; ref != nil {
		add("resourceRef", strMap("apiVersion", ref.APIVersion, "kind", ref.Kind, "name", ref.Name, "namespace", ref.Namespace))
	}
	if r.Field != nil {
		add("field", strMap("path", r.Field.Path))
	}
	if f := r.File; f != nil {
		file := strMap("path", f.Path)
		if f.Index != 0 {
			file.Content = append(file.Content, strNode("index"), &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagInt, Value: strconv.Itoa(f.Index)})
		}
		add("file", file)
	}
	return m, nil
}

// plainResult reports whether the builder knows all a result holds: no
// values or tags, and text that is UTF-8 (yaml.Marshal writes other text
// as !!binary).
func plainResult(r *framework.Result) bool {
	if r == nil || r.Tags != nil || r.Field != nil && (r.Field.CurrentValue != nil || r.Field.ProposedValue != nil) {
		return false
	}
	texts := []string{r.Message, string(r.Severity)}
	if ref := r.ResourceRef; ref != nil {
		texts = append(texts, ref.APIVersion, ref.Kind, ref.Name, ref.Namespace)
	}
	if r.Field != nil {
		texts = append(texts, r.Field.Path)
	}
	if r.File != nil {
		texts = append(texts, r.File.Path)
	}
	for _, s := range texts {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// strMap is a map of the pairs whose value is not empty.
func strMap(kv ...string) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m.Content = append(m.Content, strNode(kv[i]), strNode(kv[i+1]))
		}
	}
	return m
}

// strNode is a string as yaml.Marshal writes one, which its output read
// again keeps: double-quoted where yaml.v3 would read it as something else,
// or YAML 1.1 as a boolean or a base-60 number (yes, 0:30), unless it spans
// lines (a literal block either way).
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagString, Value: s}
	if !strings.Contains(s, "\n") && (scalar.Resolve12(s) != yaml.NodeTagString || scalar.V2Boolean(s) || base60.MatchString(s)) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// base60 is what yaml.v3's Marshal quotes as a YAML 1.1 base-60 number
// (its isBase60Float: 0:30 too, which YAML 1.1 itself reads as a string).
var base60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// marshalled is a result's node the long way: marshalled and parsed.
func marshalled(r *framework.Result) (*yaml.Node, error) {
	b, err := yaml.Marshal(r)
	if err != nil {
		return nil, err
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		return nil, err
	}
	return n.YNode(), nil
}
