package budget

import "fmt"

// Error is a charge over a budget's limit. Its message says which limit and
// how it follows from the input; the transform puts the config entry
// before it.
type Error struct {
	unit         string
	limit, input int64
	scale        int64
	own          bool // an operation's budget, not a run's
}

func (e *Error) Error() string {
	floor := int64(MinNodes)
	if e.unit == "bytes" {
		floor = MinBytes
	}
	scaled := ""
	if e.scale > 1 {
		scaled = fmt.Sprintf(", times %d by %s", e.scale, Env)
	}
	if e.own {
		return fmt.Sprintf("this would produce more than %s %s, the work limit of one operation%s: "+
			"copies of copies, aliases of aliases and repeated large values multiply; %s=%d raises the limit",
			count(e.limit), e.unit, scaled, Env, 4*e.scale)
	}
	return fmt.Sprintf("the run would produce more than %s %s, the work limit for its input of %s %s "+
		"(%d times the input, at least %s%s): copies of copies, aliases of aliases and repeated large values multiply; "+
		"%s=%d raises the limit",
		count(e.limit), e.unit, count(e.input), e.unit, Factor, count(floor), scaled, Env, 4*e.scale)
}

// Is makes every Error ErrSpent.
func (e *Error) Is(target error) bool { return target == ErrSpent }

// count writes a number as a size: 64Mi, 1Mi, 2000.
func count(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMi", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKi", n>>10)
	}
	return fmt.Sprint(n)
}
