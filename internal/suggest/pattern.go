package suggest

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
)

// Patterns (a selector's name, a field path's [key=value], podspec-patch's
// containerNames) are Go regular expressions matched against the whole
// value. The mistakes users make with them are few and the same
// everywhere: a shell glob (app-*), an anchor where none is needed
// (^app-), a construct RE2 does not have (lookaround). What each means is
// said here, once, for every place a pattern is written.

// Glob returns the regular expression the user probably meant when expr
// looks like a shell glob ("app1-*" → "app1-.*"), or "".
func Glob(expr string) string {
	if !strings.Contains(expr, "*") {
		return ""
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(expr); i++ {
		if isGlobStar(expr, i) {
			b.WriteString(".*")
			changed = true
		} else {
			b.WriteByte(expr[i])
		}
	}
	if !changed {
		return ""
	}
	return b.String()
}

// isGlobStar reports whether expr[i] is a * as a shell glob writes it: not
// repeating what comes before (., ), ], an escape).
func isGlobStar(expr string, i int) bool {
	return expr[i] == '*' && (i == 0 || !strings.ContainsRune(".)]\\", rune(expr[i-1])))
}

// StripAnchors removes a leading ^ and an unescaped trailing $ from a
// regular expression, reporting which it removed.
func StripAnchors(expr string) (core string, start, end bool) {
	core = expr
	if strings.HasPrefix(core, "^") {
		core, start = core[1:], true
	}
	if strings.HasSuffix(core, "$") {
		backslashes := 0
		for j := len(core) - 2; j >= 0 && core[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			core, end = core[:len(core)-1], true
		}
	}
	return core, start, end
}

// Widened are the patterns a whole-value pattern (its core, without the
// anchors start and end) probably meant: open with .* where it is not
// anchored, most likely first.
func Widened(core string, start, end bool) []string {
	if strings.Contains(core, "|") {
		core = "(?:" + core + ")" // a|b.* would widen b alone
	}
	switch {
	case start:
		return []string{core + ".*"}
	case end:
		return []string{".*" + core}
	}
	return []string{core + ".*", ".*" + core, ".*" + core + ".*"}
}

// Meant is the pattern a whole-value pattern that selects nothing most
// likely meant, and why: a shell glob's regular expression, or for a
// pattern anchored at one end (^app-), the same opened at the other,
// since values match whole and the anchors are implied. ok is false when
// neither applies.
func Meant(expr string) (meant, why string, ok bool) {
	if g := Glob(expr); g != "" {
		return g, "a pattern is a regular expression, not a shell glob", true
	}
	core, start, end := StripAnchors(expr)
	if start == end || core == "" {
		return "", "", false // neither anchor, or both: the same as without
	}
	return Widened(core, start, end)[0], "patterns match the whole value, so ^ and $ are implied", true
}

// Regexp says why expr is no regular expression Go reads (RE2, which is
// kustomize's syntax too), and how to write what was meant: "" when it
// compiles. The parser's words name expr alone, never the anchored form a
// caller compiles. lookaround, when set, is the caller's way to do what
// lookaround would ("to leave containers out, use rejectContainerNames").
func Regexp(expr, lookaround string) string {
	_, err := syntax.Parse(expr, syntax.Perl)
	var se *syntax.Error
	if err == nil || !errors.As(err, &se) {
		return ""
	}
	msg := string(se.Code)
	if se.Expr != "" && se.Expr != expr {
		msg += " at `" + se.Expr + "`"
	}
	return msg + " (" + regexpHint(expr, se, lookaround) + ")"
}

// regexpHint is what to do about the syntax error se in expr.
func regexpHint(expr string, se *syntax.Error, lookaround string) string {
	if g := Glob(expr); g != "" && (se.Code == syntax.ErrMissingRepeatArgument || se.Code == syntax.ErrInvalidRepeatOp) {
		return fmt.Sprintf("a pattern is a regular expression, not a shell glob: did you mean %q?", g)
	}
	if isLookaround(se) {
		hint := "Go regular expressions are RE2: no lookaround"
		if lookaround != "" {
			hint += "; " + lookaround
		}
		return hint
	}
	if fix, ok := syntaxFixes[se.Code]; ok {
		return fix
	}
	return "Go regular expressions are RE2: see https://github.com/google/re2/wiki/Syntax"
}

// isLookaround reports whether a syntax error is RE2 refusing lookahead
// or lookbehind.
func isLookaround(se *syntax.Error) bool {
	if se.Code != syntax.ErrInvalidPerlOp && se.Code != syntax.ErrInvalidNamedCapture {
		return false
	}
	for _, op := range []string{"(?=", "(?!", "(?<=", "(?<!"} {
		if strings.HasPrefix(se.Expr, op) {
			return true
		}
	}
	return false
}

// syntaxFixes say how to write what a syntax error most likely meant.
var syntaxFixes = map[syntax.ErrorCode]string{
	syntax.ErrMissingParen:          "every ( needs its ): close the group, or write \\( for the character",
	syntax.ErrUnexpectedParen:       "a ) closes no group: open it with (, or write \\) for the character",
	syntax.ErrMissingBracket:        "a [ opens a character class that needs its ]: close it, or write \\[ for the character",
	syntax.ErrInvalidCharRange:      "a range in [...] goes from the lower character to the higher: [a-z], not [z-a]",
	syntax.ErrMissingRepeatArgument: "*, + and ? repeat what comes before them: write .* for any text, \\* for the character",
	syntax.ErrInvalidRepeatOp:       "*, + and ? repeat what comes before them, once: write \\+ or \\* for the character",
	syntax.ErrTrailingBackslash:     "a \\ at the end escapes nothing: write \\\\ for the character",
	syntax.ErrInvalidEscape:         "a \\ before a letter or digit must be an escape RE2 knows (\\d, \\w, \\s, \\b, \\pL); write \\\\ for the character",
}
