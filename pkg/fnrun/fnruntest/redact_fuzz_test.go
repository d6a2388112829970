package fnruntest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/redact"
	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

// fuzzCase is a golden case of one of the four functions.
type fuzzCase struct {
	f   fnrun.Function
	dir string
}

// goldenCases are every golden case of the four functions.
func goldenCases(tb testing.TB) []fuzzCase {
	var out []fuzzCase
	for dir, f := range map[string]fnrun.Function{"multipatch": multipatch.Function, "podspec": podspec.Function,
		"replacement": replacement.Function, "generator": generator.Function} {
		cases, err := filepath.Glob(filepath.Join("..", "..", dir, "testdata", "*", "config.yaml"))
		if err != nil || len(cases) == 0 {
			tb.Fatalf("no golden cases of %s: %v", dir, err)
		}
		for _, c := range cases {
			out = append(out, fuzzCase{f, filepath.Dir(c)})
		}
	}
	// map order is random: the same pick must give the same case
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j].dir < out[i].dir {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// FuzzSecretsStayOut plants a random secret in a Secret of a random golden
// case's input, in one of the ways YAML lets a Secret hold a value (plain,
// quoted, a block, base64 data, an alias, inherited with <<, inside a
// SecretList), copies it whole, cut, escaped or in base64 into random
// values of the other resources and of the config, runs the case's
// function as its binary does (fnrun.Command), standalone and on a
// ResourceList, and checks that no form of the secret (made here: the
// value, its Go, JSON and YAML escapes, its base64, and any piece of
// redact.Piece bytes of these) reaches anything but the items: the
// results (messages, warnings, hints, identities, fields) and stderr.
func FuzzSecretsStayOut(f *testing.F) {
	cases := goldenCases(f)
	f.Add("correct horse: battery staple", uint16(0), uint8(0), uint64(1))
	f.Add(`tok-app "quoted" \secret-0123456789-abcdefghij-klmnop`, uint16(7), uint8(5), uint64(42))
	f.Add("hunter2-very-secret", uint16(100), uint8(4), uint64(7))
	f.Add("31337e99999", uint16(150), uint8(6), uint64(3))
	f.Add("pässwörd-über-alles", uint16(30), uint8(7), uint64(99))
	f.Add("correct horse battery", uint16(3), uint8(240), uint64(5))
	f.Add("correct horse battery", uint16(3), uint8(241), uint64(5))
	f.Add("correct horse battery", uint16(3), uint8(242), uint64(5))
	for i := range cases {
		f.Add("s3cr3t-planted-value", uint16(i), uint8(i), uint64(i))
	}
	f.Fuzz(func(t *testing.T, secret string, pick uint16, plant uint8, seed uint64) {
		if !plantable(secret) {
			return
		}
		c := cases[int(pick)%len(cases)]
		dir, ok := plantCase(t, c.dir, secret, plant, seed)
		if !ok {
			return // an input that is not YAML to begin with
		}
		w := newWitness(secret)
		var stdout, stderr bytes.Buffer
		fnrun.Command(c.f, []string{filepath.Join(dir, "config.yaml"), filepath.Join(dir, "input.yaml")}, nil, &stdout, &stderr)
		w.check(t, "standalone stderr", stderr.String())
		list, ok := resourceList(t, dir)
		if !ok {
			return // the input is no YAML: a ResourceList cannot hold it
		}
		stdout.Reset()
		stderr.Reset()
		fnrun.Command(c.f, nil, bytes.NewReader(list), &stdout, &stderr)
		w.check(t, "stderr", stderr.String())
		w.checkResults(t, stdout.Bytes())
	})
}

// plantable says whether the fuzzer's string can be a secret whose forms
// this test knows: a line of printable text, Piece bytes or more, with no
// space around it, that is no YAML document.
func plantable(s string) bool {
	if len(s) < redact.Piece || len(s) > 200 || !utf8.ValidString(s) || strings.TrimSpace(s) != s ||
		strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// plantCase copies the case into a new directory, with the secret planted
// in a Secret added to its input, and copied into random values of the
// input and the config.
func plantCase(t *testing.T, caseDir, secret string, plant uint8, seed uint64) (string, bool) {
	dir := t.TempDir()
	entries, err := os.ReadDir(caseDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(caseDir, e.Name())); err == nil && !e.IsDir() {
			must(t, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
		}
	}
	input, err1 := documents(filepath.Join(dir, "input.yaml"))
	config, err2 := documents(filepath.Join(dir, "config.yaml"))
	if err1 != nil || err2 != nil || len(config) != 1 {
		return "", false
	}
	r := rand.New(rand.NewPCG(seed, uint64(plant)))
	places := scalarValues(append(append([]*yaml.Node{}, input...), config...))
	for n := 1 + r.IntN(4); n > 0 && len(places) > 0; n-- {
		p := places[r.IntN(len(places))]
		p.Kind, p.Tag, p.Style, p.Value, p.Alias = yaml.ScalarNode, "!!str", 0, copyOf(secret, r), nil
	}
	text := encode(t, input)
	if broken, ok := brokenSecret(secret, plant); ok {
		text = append(text, broken...)
	} else {
		text = append(append(text, "---\n"...), encode(t, []*yaml.Node{plantedSecret(secret, plant)})...)
	}
	must(t, os.WriteFile(filepath.Join(dir, "input.yaml"), text, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), encode(t, config), 0o644))
	return dir, true
}

// brokenSecret is, for some plants, the text of a Secret that is no YAML,
// broken on a line that holds the secret: after a tab that follows the
// key, or on a line that goes on with a plain or quoted value.
func brokenSecret(secret string, plant uint8) ([]byte, bool) {
	const head = "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: planted\nstringData:\n"
	switch plant {
	case 240:
		return []byte(head + "  password:\t" + secret + ": x: y\n"), true
	case 241:
		return []byte(head + "  password: first words\n    " + secret + ": x\n"), true
	case 242:
		return []byte(head + "  password: \"first words\n    " + secret + ": x\n"), true
	}
	return nil, false
}

func documents(path string) ([]*yaml.Node, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return yamlstream.Split(b)
}

// scalarValues are the scalar values (not keys) below the nodes.
func scalarValues(nodes []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.ScalarNode:
			out = append(out, n)
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				walk(n.Content[i])
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return out
}

// copyOf is the secret as a copy of it may be written elsewhere: whole,
// inside other text, cut (Piece bytes or more), Go-quoted or in base64.
func copyOf(secret string, r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return "x-" + secret + "-y"
	case 1:
		runes := []rune(secret)
		cut := string(runes[:r.IntN(len(runes))+1])
		if len(cut) < redact.Piece {
			return secret
		}
		return cut
	case 2:
		return strconv.Quote(secret)
	case 3:
		return base64.StdEncoding.EncodeToString([]byte(secret))
	}
	return secret
}

// plantedSecret is a Secret that holds secret, the way plant picks.
func plantedSecret(secret string, plant uint8) *yaml.Node {
	str := func(v string, style yaml.Style) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: style}
	}
	m := func(kv ...*yaml.Node) *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Content: kv} }
	meta := m(str("name", 0), str("planted", 0))
	value := str(secret, []yaml.Style{0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle}[plant%4])
	field := "stringData"
	holder := m(str("password", 0), value)
	switch plant % 8 {
	case 4: // data, base64
		field, holder = "data", m(str("password", 0), str(base64.StdEncoding.EncodeToString([]byte(secret)), 0))
	case 5: // an alias of a value anchored in an annotation
		anchored := str(secret, 0)
		anchored.Anchor = "pw"
		meta.Content = append(meta.Content, str("annotations", 0), m(str("note", 0), anchored))
		holder = m(str("password", 0), &yaml.Node{Kind: yaml.AliasNode, Value: "pw", Alias: anchored})
	case 6: // inherited with <<
		holder = m(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!merge", Value: "<<"}, m(str("password", 0), value))
	}
	secretDoc := m(str("apiVersion", 0), str("v1", 0), str("kind", 0), str("Secret", 0), str("metadata", 0), meta, str(field, 0), holder)
	if plant%8 == 7 { // inside a SecretList
		return m(str("apiVersion", 0), str("v1", 0), str("kind", 0), str("SecretList", 0),
			str("items", 0), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{secretDoc}})
	}
	return secretDoc
}

func encode(t *testing.T, docs []*yaml.Node) []byte {
	if len(docs) == 0 {
		return nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			t.Fatal(err)
		}
	}
	must(t, enc.Close())
	return b.Bytes()
}

// resourceList is the case as kpt would send it; false when its input is
// no YAML.
func resourceList(t *testing.T, dir string) ([]byte, bool) {
	input, err := documents(filepath.Join(dir, "input.yaml"))
	if err != nil {
		return nil, false
	}
	config, err := documents(filepath.Join(dir, "config.yaml"))
	must(t, err)
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	list := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		str("apiVersion"), str("config.kubernetes.io/v1"), str("kind"), str("ResourceList"),
		str("items"), {Kind: yaml.SequenceNode, Content: input},
		str("functionConfig"), config[0],
	}}
	return encode(t, []*yaml.Node{list}), true
}

// A witness knows the forms of a secret, made independently of package
// redact, and finds them in what a run printed.
type witness struct {
	whole  string
	pieces map[string]bool // every Piece bytes of every form
}

func newWitness(secret string) witness {
	unq := func(q string) string { return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`) }
	forms := []string{secret, unq(strconv.Quote(secret)), unq(strconv.QuoteToASCII(secret)), strings.ReplaceAll(secret, "'", "''"),
		base64.StdEncoding.EncodeToString([]byte(secret)), base64.URLEncoding.EncodeToString([]byte(secret))}
	if j, err := json.Marshal(secret); err == nil {
		forms = append(forms, unq(string(j)))
	}
	if y, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: secret}); err == nil {
		forms = append(forms, unq(strings.TrimSuffix(string(y), "\n")))
	}
	w := witness{whole: secret, pieces: map[string]bool{}}
	for _, f := range forms {
		for i := 0; i+redact.Piece <= len(f); i++ {
			w.pieces[f[i:i+redact.Piece]] = true
		}
	}
	return w
}

// check fails when text, outside the markers, holds a form of the secret.
func (w witness) check(t *testing.T, what, text string) {
	t.Helper()
	for _, frag := range strings.Split(text, redact.Marker) {
		if strings.Contains(frag, w.whole) {
			t.Fatalf("%s shows the secret %q:\n%s", what, w.whole, text)
		}
		for i := 0; i+redact.Piece <= len(frag); i++ {
			if w.pieces[frag[i:i+redact.Piece]] {
				t.Fatalf("%s shows %q, a piece of a form of the secret %q:\n%s", what, frag[i:i+redact.Piece], w.whole, text)
			}
		}
	}
}

// checkResults checks every text of the results of a ResourceList the run
// wrote (the items may hold the secret).
func (w witness) checkResults(t *testing.T, out []byte) {
	t.Helper()
	list, err := yaml.Parse(string(out))
	if err != nil {
		return // nothing written: the run failed to read its input
	}
	results := list.Field("results")
	if results == nil {
		return
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		w.check(t, "a result", n.Value) // keys too: a result's tags
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(results.Value.YNode())
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
