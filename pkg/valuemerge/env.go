package valuemerge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/patchwork-krm/patchwork/pkg/generator/kv"
)

// env values are read as kustomize reads env files (package kv, the one
// reader): lines end in \n (a \r before it is dropped), a byte order mark
// starts the first, leading white space is skipped, empty lines and lines
// starting with # are skipped, and a line is split on its first =; a line
// without = is a key with an empty value. Values are taken as written:
// no quotes are removed, no `export` is understood.
func readEnv(s, which string) ([]entry, error) {
	pairs, err := kv.ParseEnv([]byte(s), which+" value")
	if err != nil {
		return nil, &ParseError{Which: which, Format: Env, Msg: strings.TrimPrefix(err.Error(), which+" value ")}
	}
	var out []entry
	from := -1
	start := 0
	for n := 1; start < len(s); n++ {
		end := strings.IndexByte(s[start:], '\n') + start + 1
		if end == start {
			end = len(s)
		}
		content := strings.TrimSuffix(strings.TrimSuffix(s[start:end], "\n"), "\r")
		p := start
		if n == 1 {
			p += len(content) - len(strings.TrimPrefix(content, "\uFEFF"))
		}
		p += len(s[p:start+len(content)]) - len(strings.TrimLeftFunc(s[p:start+len(content)], unicode.IsSpace))
		line := s[p : start+len(content)]
		switch {
		case line == "":
			from = -1
		case line[0] == '#':
			if from < 0 {
				from = start
			}
		default:
			e := entry{start: start, end: end, from: start, line: n, valueEnd: start + len(content)}
			if from >= 0 {
				e.from = from
			}
			from = -1
			key, value, hasEq := strings.Cut(line, "=")
			e.key, e.value, e.sep, e.explicit = key, value, hasEq, hasEq
			e.valueStart = p + len(key)
			if hasEq {
				e.valueStart++
			}
			out = append(out, e)
		}
		start = end
	}
	// kv reads the same lines: anything else is a bug here.
	if len(out) != len(pairs) {
		return nil, fmt.Errorf("internal error reading env lines (please report)")
	}
	for i, p := range pairs {
		if p.Key != out[i].key || p.Value != out[i].value {
			return nil, fmt.Errorf("internal error reading env lines (please report)")
		}
	}
	return out, nil
}
