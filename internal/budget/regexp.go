package budget

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// MaxProgram is how many instructions a regular expression of a config
// may compile to. A match costs up to the program's size for every byte
// it reads (RE2's guarantee: linear, but in both): `[a-z]{1000}` is a
// thousand instructions, sixty such alternatives sixty thousand, and such
// a pattern took a minute over 40 KB. Real patterns (`app-.*`,
// `(web|api)-[0-9]+`, a DNS label's `[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?`)
// are a few dozen to a few hundred.
const MaxProgram = 1000

// Regexp compiles expr as package regexp does, refusing a program larger
// than MaxProgram before it is ever run: the check a config's patterns
// pass when the config is read.
func Regexp(expr string) (*regexp.Regexp, error) {
	if err := CheckProgram(expr); err != nil {
		return nil, err
	}
	return regexp.Compile(expr)
}

// CheckProgram refuses a regular expression whose program is larger than
// MaxProgram; one that does not parse is for regexp.Compile to report.
func CheckProgram(expr string) error {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	if n := len(prog.Inst); n > MaxProgram {
		return &ProgramError{Size: n}
	}
	return nil
}

// ProgramError is a regular expression too large to run.
type ProgramError struct{ Size int }

func (e *ProgramError) Error() string {
	return fmt.Sprintf("the regular expression compiles to %d instructions, more than the %d a pattern may have "+
		"(matching takes time in proportion to both the text and the pattern): write repeats shorter, a+ or a{1,50} for a{1000}",
		e.Size, MaxProgram)
}
