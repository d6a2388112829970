package locate

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// FindKey returns the index of key in map n, -1 when it has none; segment
// seg of the path names it, for messages. A key that appears twice, or
// that readers take for another key spelled otherwise, is an error.
func (d *Document) FindKey(n *span.Node, key string, seg int) (int, error) {
	j, twice := d.Key(n, key)
	if twice {
		return 0, ambiguous(d.Errorf(seg, "%s appears twice in the %s", d.KeyName(key), d.Describe(n)))
	}
	if j < 0 || n.YAMLInfo == nil || n.Source == nil {
		return j, nil
	}
	k := n.Keys[j]
	if k.YAMLInfo == nil || k.Source == nil {
		return j, nil
	}
	if other := resolvedTwin(n.Source.Content, k.Source); other != "" {
		if d.Secret {
			return 0, ambiguous(d.Errorf(seg, "%s appears twice in the %s, spelled two ways YAML readers take for one key", d.KeyName(key), d.Describe(n)))
		}
		return 0, ambiguous(d.Errorf(seg, "key %q appears twice in the %s, spelled %q too (YAML readers take both for one key)", key, d.Describe(n), other))
	}
	return j, nil
}

// KeyName names key in a message: "the key \"x\"", or in a secret text,
// where keys say what it holds, "a key" and why it is not shown.
func (d *Document) KeyName(key string) string {
	if d.Secret {
		return "a key (not shown: the text is secret)"
	}
	return fmt.Sprintf("the key %q", key)
}

// ambiguous marks err (an *Error) as a key given twice.
func ambiguous(err error) error {
	err.(*Error).Ambiguous = true
	return err
}

// resolvedTwin returns the spelling of another key among the mapping's
// content that readers take for the same key as k (true and True, 80 and
// 0x50: readers keep the last, an edit would change the first; package
// scalar), or "".
func resolvedTwin(content []*yaml.Node, k *yaml.Node) string {
	other := ""
	scalar.ResolvedDuplicates(content, func(a, b int) {
		switch k {
		case content[a]:
			other = content[b].Value
		case content[b]:
			other = content[a].Value
		}
	})
	return other
}

// NewKeyClash refuses to create key in the YAML map n when a key there,
// spelled otherwise, is one readers take for the same key ("00" for "0",
// True for "true"): the map would then hold the key twice for them (fuzz
// finding 9d5cd920646d32d3). The new key is a string for every reader,
// quoted if need be, so it is checked as a quoted one.
func (d *Document) NewKeyClash(n *span.Node, key string, seg int) error {
	if n.YAMLInfo == nil || n.Source == nil {
		return nil
	}
	forms := d.keyFormsOf(n)
	if len(forms) == 0 {
		return nil
	}
	c := n.Source.Content
	for _, f := range scalar.KeyForms(&yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: key, Style: yaml.DoubleQuotedStyle}) {
		if i, ok := forms[f]; ok && c[i].Value != key {
			msg := fmt.Sprintf("cannot create the key %q in the %s%s: YAML readers take the key %q there for the same key (to change its value, name that key as it is spelled)", key, d.Describe(n), d.Of(), c[i].Value)
			if d.Secret {
				msg = fmt.Sprintf("cannot create %s in the %s%s: YAML readers take a key there, spelled otherwise, for the same key (to change its value, name that key as it is spelled)", d.KeyName(key), d.Describe(n), d.Of())
			}
			return &Error{Segment: seg, Msg: msg}
		}
	}
	return nil
}

// keyFormsOf indexes the forms (scalar.KeyForms) of the keys of the YAML
// map n that some reader takes for other than the string they spell: only
// those can be taken for a new key spelled otherwise. It is worked out once
// per map, as a batch may create many keys in one.
func (d *Document) keyFormsOf(n *span.Node) map[string]int {
	if forms, ok := d.keyForms[n]; ok {
		return forms
	}
	forms := map[string]int{}
	c := n.Source.Content
	for i := 0; i+1 < len(c); i += 2 {
		if scalar.StringForAll(c[i]) {
			continue
		}
		for _, f := range scalar.KeyForms(c[i]) {
			if _, seen := forms[f]; !seen {
				forms[f] = i
			}
		}
	}
	if d.keyForms == nil {
		d.keyForms = map[*span.Node]map[string]int{}
	}
	d.keyForms[n] = forms
	return forms
}

// nearKey is the key of map n nearest to key, for Error.Near: "" when none
// is near or the text is secret.
func (d *Document) nearKey(n *span.Node, key string) string {
	if d.Secret {
		return ""
	}
	keys := make([]string, 0, len(n.Keys))
	for _, k := range n.Keys {
		if k.Kind == span.Scalar {
			keys = append(keys, k.Value)
		}
	}
	return suggest.Nearest(key, keys)
}
