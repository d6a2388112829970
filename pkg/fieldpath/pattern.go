package fieldpath

import (
	"errors"
	"regexp/syntax"

	"github.com/patchwork-krm/patchwork/internal/suggest"
)

// A matcher's value that does not compile is compared as its text (doc.go):
// [=*.example.com] names the host *.example.com. That reading is right for
// a value that reads as text; one that was meant as a pattern and is none
// Go reads (a group, a class or a lookaround: [name=shop-(api|worker],
// [name=(?!istio).*]) would select nothing, and options.create would add
// an element named after the pattern. So such a value is an error when
// the path is read, in every config that holds paths (replacements,
// multi-patch's embedded, mergeKeys), with what RE2 accepts.

// meantAsPattern are the syntax errors only a value written as a pattern
// makes: it opened a group or a class, or asked for lookaround.
var meantAsPattern = map[syntax.ErrorCode]bool{
	syntax.ErrMissingParen: true, syntax.ErrUnexpectedParen: true, syntax.ErrMissingBracket: true,
	syntax.ErrInvalidCharClass: true, syntax.ErrInvalidCharRange: true,
	syntax.ErrInvalidPerlOp: true, syntax.ErrInvalidNamedCapture: true,
}

// patternProblem says why a matcher's value, meant as a pattern, is no
// regular expression: "" when it compiles or reads as text.
func patternProblem(value string) string {
	_, err := syntax.Parse(value, syntax.Perl)
	var se *syntax.Error
	if err == nil || !errors.As(err, &se) || !meantAsPattern[se.Code] {
		return ""
	}
	return suggest.Regexp(value, "a matcher cannot leave values out: list those to select, [name=app|worker]")
}
