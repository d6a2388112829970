package fieldpath

import (
	"errors"
	"regexp"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// matcher is a Match segment's value compiled: what users mean by it, and
// what kustomize's targets read it as.
type matcher struct {
	// whole is ^(?:value)$; loose is value alone, matching anywhere (the
	// reading of kustomize 5.8's targets). Both nil when value is no
	// regular expression: then only its own text matches.
	whole, loose *regexp.Regexp
	err          error
}

// compileMatcher compiles a matcher's value. The value is compiled alone
// first: `a)|(b` must not become ^(?:a)|(b)$, which would match any text
// that starts with a; a value that compiles has balanced groups, so
// wrapping it changes nothing but the anchoring. A value whose program is
// too large to run (budget.MaxProgram) is no pattern either, and Parse
// refuses it.
func compileMatcher(value string) *matcher {
	loose, err := budget.Regexp(value)
	if err != nil {
		return &matcher{err: err}
	}
	return &matcher{whole: regexp.MustCompile(`^(?:` + value + `)$`), loose: loose}
}

// matcher returns the compiled value of a Match segment.
func (s Segment) matcher() *matcher {
	if s.re != nil {
		return s.re
	}
	return compileMatcher(s.Value) // a segment written as a literal in code
}

// MatchesValue reports whether a Match segment selects a field (or scalar
// element) whose value is v: v is Value's text, or Value, as a regular
// expression, matches all of v.
func (s Segment) MatchesValue(v string) bool {
	if v == s.Value {
		return true
	}
	m := s.matcher()
	return m.whole != nil && m.whole.MatchString(v)
}

// KustomizeMatchesValue reports whether kustomize 5.8 would select v for
// this segment in a replacement target, where it reads Value as a regular
// expression matching anywhere in v.
func (s Segment) KustomizeMatchesValue(v string) bool {
	m := s.matcher()
	return m.loose != nil && m.loose.MatchString(v)
}

// PatternError is why a Match segment's value is no regular expression
// (it then matches its own text only), or nil.
func (s Segment) PatternError() error {
	if s.Kind != Match {
		return nil
	}
	return s.matcher().err
}

// tooLarge is the error of a Match segment whose value is a regular
// expression too large to run, or nil.
func (s Segment) tooLarge() error {
	var pe *budget.ProgramError
	if err := s.PatternError(); errors.As(err, &pe) {
		return err
	}
	return nil
}

// IsPattern reports whether a Match segment's value may match more than
// its own text: it compiles, and is not a plain literal.
func (s Segment) IsPattern() bool {
	m := s.matcher()
	if m.whole == nil {
		return false
	}
	_, complete := m.loose.LiteralPrefix()
	return !complete
}
