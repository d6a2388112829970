package yamlerr

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlstream"
)

// Syntax is a YAML syntax error, located.
type Syntax struct {
	// Line is the 1-based line of the text where it stops being YAML.
	Line int
	// Shown is that line as messages may quote it: its indentation, list
	// dashes and key as written, any value after them elided ("  password: …"),
	// since the line may hold a value no message may print (a Secret's).
	// It is "" when the line does not start where YAML reads a key or an
	// entry (it goes on with a value of several lines, quoted or plain, or
	// lies inside a [list] or {map}): then the whole line may be a value.
	Shown string
	// Problem says what is wrong, in words, with yaml.v3's own phrase.
	Problem string
}

func (s *Syntax) Error() string {
	return fmt.Sprintf("line %d: %s%s", s.Line, s.Quoted(), s.Problem)
}

// Quoted is the line as shown, quoted and followed by ": ", for a message
// to put before the problem; "" when nothing of the line may be shown.
func (s *Syntax) Quoted() string {
	if s.Shown == "" {
		return ""
	}
	return strconv.Quote(s.Shown) + ": "
}

// At is the same error with its line counted from first, the line of the
// enclosing file the text starts on (1 when the text is the whole file).
func (s *Syntax) At(first int) *Syntax {
	c := *s
	c.Line += first - 1
	return &c
}

// maxText bounds the texts Locate searches: it parses ever longer prefixes
// of the text, about log2(lines) + a few times (configs and patches are far
// smaller; a standalone resource stream may not be).
const maxText = 4 << 20

// phrase is yaml.v3's message without its "yaml: line N: " prefix.
var phrase = regexp.MustCompile(`^(?:MalformedYAMLError: )?yaml: (?:line \d+: )?`)

// Locate explains err, an error yaml.v3 (or kyaml's reader) gave for text.
// ok is false when err is not a YAML syntax error.
func Locate(text []byte, err error) (s *Syntax, ok bool) {
	if err == nil {
		return nil, false
	}
	msg := err.Error()
	if i := strings.Index(msg, "yaml: "); i < 0 || strings.Contains(msg, "yaml: unmarshal errors") {
		return nil, false
	} else {
		msg = phrase.ReplaceAllString(msg[i:], "")
	}
	if len(text) > maxText {
		return nil, false // each step parses the text: a large one keeps yaml.v3's message
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	// the first prefix of k+1 lines that fails for good: nearly always
	// monotone, since the parser fails at the same place whatever follows;
	// where it is not (a lone \r is a line break to YAML), step back to a
	// prefix that reads
	broken := func(k int) bool { return brokenFor(bytes.Join(lines[:k+1], nil)) }
	k := sort.Search(len(lines), broken)
	if k == len(lines) {
		// it breaks only where the text ends: an unclosed quote or bracket
		k = len(lines) - 1
		for k > 0 && len(bytes.TrimSpace(lines[k])) == 0 {
			k--
		}
	}
	for steps := 0; k > 0 && steps < 64 && broken(k-1); steps++ { // bounded: each step parses the text
		k--
	}
	problem := inWords(msg)
	if open, ok := flowOpened(lines, k, err.Error()); ok {
		k = open
		problem = flowProblem(string(lines[k]), msg, problem)
	}
	return &Syntax{Line: k + 1, Shown: shown(lines, k), Problem: problem}, true
}

// A {map} or [list] written on one line that does not close where it
// should (a [ inside a plain value, as kustomize's field paths have them:
// {fieldPath: spec.ports.[name=http].port}) reads, to the search above,
// like one that more lines may close: it ends early at every prefix, and
// the search settles on the last line. yaml.v3's own line for it is the
// line the collection opened on (counted from 0 for this error, or the
// line after it when the collection opens on the first line; none when
// the problem is on the first line too).
var flowLine = regexp.MustCompile(`yaml: (?:line (\d+): )?did not find expected ',' or `)

// flowOpened is the index of the line, at or before k, where the flow
// collection yaml.v3's message (raw) names opened; ok is false for any
// other message, or when neither line yaml.v3 may mean opens one.
func flowOpened(lines [][]byte, k int, raw string) (int, bool) {
	m := flowLine.FindStringSubmatch(raw)
	if m == nil {
		return 0, false
	}
	n := 0
	if m[1] != "" {
		var err error
		if n, err = strconv.Atoi(m[1]); err != nil {
			return 0, false
		}
	}
	for _, i := range []int{n, n - 1} { // the line counted from 0, then from 1
		if i >= 0 && i <= k && bytes.ContainsAny(lines[i], "[{") {
			return i, true
		}
	}
	return 0, false
}

// inValue finds a [ or { right after a character of a plain value: the
// start of a collection where the value was meant to go on.
var inValue = regexp.MustCompile(`[^\s\[\]{},:'"][\[{]`)

// flowProblem says what is wrong with a line that opens a flow collection
// that does not close: a [ or { in a value, which must then be quoted, or
// else problem, the message's own words.
func flowProblem(line, msg, problem string) string {
	open := strings.IndexAny(line, "[{")
	if !inValue.MatchString(line[open+1:]) {
		return problem
	}
	return fmt.Sprintf("a [ or { inside a value of a {map} or [list] written on one line starts another there: "+
		"quote the value, as in {fieldPath: \"spec.ports.[name=http].port\"} (yaml: %s)", msg)
}

// shown is line k of the text as a message may show it: elided to its
// key, or "" when it may be a value from start to end.
func shown(lines [][]byte, k int) string {
	line := strings.TrimRight(string(lines[k]), "\r\n")
	if !startsEntry(lines[:k], line) {
		return ""
	}
	return elide(line)
}

// probeWord stands for a line in startsEntry's probe.
const probeWord = "zq9probe"

// startsEntry reports whether line, after the lines before it, starts
// where YAML reads a new key or entry, not inside a value: the lines
// before read to their end (no quoted value or [list] or {map} is open),
// and a plain word put in the line's place, with its indentation and list
// dashes, starts a value of its own rather than going on with the one
// before (a plain value of several lines).
func startsEntry(before [][]byte, line string) bool {
	text := bytes.Join(before, nil)
	if len(text) == 0 {
		return true
	}
	if _, err := yamlstream.Documents(text); err != nil {
		return false
	}
	lead := len(line) - len(strings.TrimLeft(line, " \t"))
	for strings.HasPrefix(line[lead:], "- ") {
		lead += 2
	}
	probe := append(append(text, line[:lead]...), probeWord+"\n"...)
	docs, err := yamlstream.Documents(probe)
	if err != nil {
		return true // a word alone is no value there: the line starts an entry
	}
	n := probeNode(docs)
	return n != nil && n.Line == len(before)+1
}

// probeNode is the scalar that holds the probe word.
func probeNode(docs []*yaml.Node) *yaml.Node {
	var found *yaml.Node
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && strings.HasSuffix(n.Value, probeWord) {
			found = n
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return found
}

// elide keeps what a line's structure is made of (indentation, "- ", a
// plain key up to the ':' that ends it) and replaces the rest with "…".
func elide(line string) string {
	shown := len(line) - len(strings.TrimLeft(line, " \t"))
	for strings.HasPrefix(line[shown:], "- ") {
		shown += 2
	}
	if i := keyEnd(line[shown:]); i >= 0 {
		shown += i + 1
	}
	if shown > 80 {
		// a long key: only the indentation is worth showing
		shown = len(line) - len(strings.TrimLeft(line, " \t"))
	}
	if shown == len(line) {
		return line
	}
	prefix := strings.ToValidUTF8(line[:shown], "")
	if prefix == "" || strings.HasSuffix(prefix, " ") || strings.HasSuffix(prefix, "\t") {
		return prefix + "…"
	}
	return prefix + " …"
}

// keyEnd is the index of the ':' that ends the plain key rest starts
// with: the first one followed by a space, a tab or the end of the line;
// -1 when there is none, or rest starts with something else than a plain
// key (a quoted value, a [list] or {map}, an anchor, alias, tag or block
// indicator), whose text may be a value.
func keyEnd(rest string) int {
	if rest == "" || strings.IndexByte("\"'[{&*!|>?%@`#", rest[0]) >= 0 {
		return -1
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] == ':' && (i+1 == len(rest) || rest[i+1] == ' ' || rest[i+1] == '\t') {
			return i
		}
	}
	return -1
}

// brokenFor reports whether yaml.v3 fails on the text for a reason other
// than its ending early.
func brokenFor(text []byte) bool {
	_, err := yamlstream.Documents(text)
	return err != nil && !endsEarly(err.Error())
}

// endsEarly reports whether msg is one of yaml.v3's messages for text that stops inside a quoted value
// or a flow collection, which more lines may close.
func endsEarly(msg string) bool {
	for _, m := range []string{"end of stream", "did not find expected ',' or", "did not find expected node content",
		"could not find expected ':'", "while scanning a quoted scalar"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// inWords says what yaml.v3's phrase means for the line it is about.
func inWords(msg string) string {
	words := map[string]string{
		"did not find expected key": "the indentation of this line matches no key above it: the keys of one map " +
			"line up, and a value is indented under its own key",
		"did not find expected '-' indicator": "the indentation of this line matches no list above it: the entries " +
			"of one list line up on their '- '",
		"mapping values are not allowed in this context": "a ': ' where a plain value goes (a second ': ' on the " +
			"line, or a key indented under a value): quote a value that holds ': ', or fix the indentation",
		"block sequence entries are not allowed in this context": "a list entry ('- ') where a plain value goes: " +
			"start the list on the line after its key",
		"could not find expected ':'": "a key without ':', or a value that goes on past where it should end",
		"found character that cannot start any token": "a character no YAML value can start with (a tab " +
			"in the indentation, or a value starting with @ or `: quote it)",
		"found a tab character that violates indentation": "a tab in the indentation: YAML indents with spaces only",
		"found a tab character where an indentation space is expected": "a tab in the indentation: YAML indents " +
			"with spaces only",
		"found unexpected end of stream":     "a quoted value that is never closed",
		"did not find expected node content": "a value is missing where one must be",
		"found undefined tag handle":         "a value starting with '!' is read as a tag: quote it",
	}
	for phrase, w := range words {
		if strings.HasPrefix(msg, phrase) {
			return fmt.Sprintf("%s (yaml: %s)", w, msg)
		}
	}
	if strings.HasPrefix(msg, "did not find expected ',' or") {
		return fmt.Sprintf("a [list] or {map} written on one line is not closed, or misses a comma (yaml: %s)", msg)
	}
	return "yaml: " + msg
}
