package replacement

import (
	"fmt"
	"strings"
	"unicode"
)

// A template builds a replacement's value from several sources, as
// kustomize's removed vars did: "https://${host}:${port}/v1". ${name} is
// the value of the source of that name; $$ is a literal $. Any other $ is
// an error, so that a misspelt placeholder ($host, ${host) never reaches a
// resource as text.

// template is a parsed template: literal text and placeholders in turn.
type template struct {
	parts []templatePart
}

// templatePart is literal text, or with name set, a placeholder.
type templatePart struct {
	text string // literal text, $$ already read as $
	name string // the source a placeholder names
}

// templateError is a template that does not parse; offset is the byte
// where the problem starts.
type templateError struct {
	offset int
	msg    string
}

func (e *templateError) Error() string {
	return fmt.Sprintf("column %d: %s", e.offset+1, e.msg)
}

// parseTemplate reads a template's text.
func parseTemplate(text string) (*template, error) {
	t := &template{}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, templatePart{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(text); {
		dollar := strings.IndexByte(text[i:], '$')
		if dollar < 0 {
			lit.WriteString(text[i:])
			break
		}
		lit.WriteString(text[i : i+dollar])
		i += dollar
		switch {
		case strings.HasPrefix(text[i:], "$$"):
			lit.WriteByte('$')
			i += 2
		case strings.HasPrefix(text[i:], "${"):
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, &templateError{i, "${ without a closing }"}
			}
			name := text[i+2 : i+end]
			if err := checkSourceName(name); err != nil {
				return nil, &templateError{i, fmt.Sprintf("${%s}: %v", name, err)}
			}
			flush()
			t.parts = append(t.parts, templatePart{name: name})
			i += end + 1
		default:
			return nil, &templateError{i, "a $ starts ${name}, or is written $$" + bareDollar(text[i+1:])}
		}
	}
	flush()
	return t, nil
}

// bareDollar says what a $ followed by rest, neither ${name} nor $$, was
// most likely meant: a shell's $ns is ${ns} here (the word read as a
// shell reads it, so $ns-api is ${ns}-api); $5 is the text $5, written
// $$5.
func bareDollar(rest string) string {
	shellWord := func(r rune) bool { return r != '-' && isNameRune(r) }
	word := rest[:len(rest)-len(strings.TrimLeftFunc(rest, shellWord))]
	switch {
	case word == "":
		return ""
	case unicode.IsLetter(rune(word[0])) || word[0] == '_':
		return fmt.Sprintf(": did you mean ${%s}? (or $$%s, for the text)", word, word)
	}
	return fmt.Sprintf(": write $$%s for the text $%s", word, word)
}

// checkSourceName accepts the names a template can hold: letters, digits,
// _ and -, at least one.
func checkSourceName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	for _, r := range name {
		if !isNameRune(r) {
			return fmt.Errorf("a name is letters, digits, _ and -, not %q", r)
		}
	}
	return nil
}

// isNameRune reports whether r may be part of a source's name.
func isNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// names lists the sources the template uses, each once, in order.
func (t *template) names() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range t.parts {
		if p.name != "" && !seen[p.name] {
			seen[p.name] = true
			out = append(out, p.name)
		}
	}
	return out
}

// expand writes the template with each placeholder replaced by its value.
// Values are not read again: a value holding ${x} or $$ stays as it is.
func (t *template) expand(values map[string]string) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.name != "" {
			b.WriteString(values[p.name])
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// size is the length of what expand writes, known before it writes it:
// three thousand ${value} of a 100 KB value are 300 MB.
func (t *template) size(values map[string]string) int {
	n := 0
	for _, p := range t.parts {
		if p.name != "" {
			n += len(values[p.name])
		} else {
			n += len(p.text)
		}
	}
	return n
}

// String writes the template back as text that parses to it.
func (t *template) String() string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.name != "" {
			b.WriteString("${" + p.name + "}")
		} else {
			b.WriteString(strings.ReplaceAll(p.text, "$", "$$"))
		}
	}
	return b.String()
}
