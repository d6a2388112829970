package replacement

import (
	"strings"
	"testing"
)

func TestTemplate(t *testing.T) {
	cases := []struct {
		text   string
		values map[string]string
		want   string
		names  string
	}{
		{"https://${host}:${port}/v1", map[string]string{"host": "h", "port": "80"}, "https://h:80/v1", "host,port"},
		{"$$${a}$$", map[string]string{"a": "x"}, "$x$", "a"},
		{"${a}${a}", map[string]string{"a": "x"}, "xx", "a"},
		{"plain", nil, "plain", ""},
		{"", nil, "", ""},
		// a value is not read again
		{"${a}", map[string]string{"a": "${b}$$"}, "${b}$$", "a"},
		{"${my-host_2}", map[string]string{"my-host_2": "y"}, "y", "my-host_2"},
	}
	for _, c := range cases {
		tm, err := parseTemplate(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got := tm.expand(c.values); got != c.want {
			t.Errorf("%q expands to %q, want %q", c.text, got, c.want)
		}
		if got := strings.Join(tm.names(), ","); got != c.names {
			t.Errorf("%q names %q, want %q", c.text, got, c.names)
		}
	}
}

func TestTemplateErrors(t *testing.T) {
	cases := map[string]string{
		"$host":       "column 1: a $ starts ${name}, or is written $$",
		"a${host":     "column 2: ${ without a closing }",
		"${}":         "column 1: ${}: empty name",
		"x ${a b}":    `column 3: ${a b}: a name is letters, digits, _ and -, not ' '`,
		"cost: 5$":    "column 8: a $ starts",
		"${a}${b.c}":  "column 5: ${b.c}: a name is letters",
		"${a}}${b}$ ": "column 10: a $ starts",
	}
	for text, want := range cases {
		_, err := parseTemplate(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// FuzzTemplate checks the template reader and substitution: no panic;
// a template that parses writes back to text that parses to the same
// template; expanding puts each value in whole, once per placeholder,
// reading nothing inside a value; every $ of the literal text was written
// $$.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{
		"https://${host}:${port}/v1", "$$", "${a}$${b}", "${", "$", "${}", "a$$$${x}$$", "${a}${a}", "}{$",
		"${a-b_c}", "\x00${\xff}",
	} {
		f.Add(s, "v$1", "${x}")
	}
	f.Fuzz(func(t *testing.T, text, v1, v2 string) {
		tm, err := parseTemplate(text)
		if err != nil {
			if _, ok := err.(*templateError); !ok {
				t.Fatalf("%q: error of type %T", text, err)
			}
			return
		}
		back, err := parseTemplate(tm.String())
		if err != nil || back.String() != tm.String() || len(back.parts) != len(tm.parts) {
			t.Fatalf("%q writes back as %q, which parses as %v (%v)", text, tm.String(), back, err)
		}
		values := map[string]string{}
		for i, name := range tm.names() {
			values[name] = []string{v1, v2}[i%2]
		}
		got := tm.expand(values)
		// Rebuild the expected text from the template text itself: a
		// second reading of the grammar, kept as small as possible.
		var want strings.Builder
		for i := 0; i < len(text); {
			switch {
			case strings.HasPrefix(text[i:], "$$"):
				want.WriteByte('$')
				i += 2
			case strings.HasPrefix(text[i:], "${"):
				end := i + strings.IndexByte(text[i:], '}')
				want.WriteString(values[text[i+2:end]])
				i = end + 1
			default:
				if text[i] == '$' {
					t.Fatalf("%q parsed, but has a lone $ at %d", text, i)
				}
				want.WriteByte(text[i])
				i++
			}
		}
		if got != want.String() {
			t.Fatalf("%q with %q: got %q, want %q", text, values, got, want.String())
		}
	})
}

// A $ that starts neither ${name} nor $$ says what it most likely meant,
// as a shell reads it (issue 30).
func TestBareDollar(t *testing.T) {
	for text, want := range map[string]string{
		"$ns.svc":     "column 1: a $ starts ${name}, or is written $$: did you mean ${ns}? (or $$ns, for the text)",
		"x.$ns-api":   "column 3: a $ starts ${name}, or is written $$: did you mean ${ns}? (or $$ns, for the text)",
		"costs $5":    "column 7: a $ starts ${name}, or is written $$: write $$5 for the text $5",
		"ends with $": "column 11: a $ starts ${name}, or is written $$",
		"a $ {b}":     "column 3: a $ starts ${name}, or is written $$",
		"${a}-$_b.c":  "column 6: a $ starts ${name}, or is written $$: did you mean ${_b}? (or $$_b, for the text)",
	} {
		_, err := parseTemplate(text)
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
