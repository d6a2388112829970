package entry

import (
	"fmt"
)

// Checks are the two fields of every function's config that say what a
// run tells about the changes it makes.
type Checks struct {
	// Explain adds one info result per field an entry changed: the old
	// and the new value of a scalar, what happened to a map or list, the
	// path into a document held in a string; never a Secret's value.
	Explain bool `json:"explain,omitempty"`
	// Validate checks every field the function changed against the
	// resource's schema (package validate): warn (the default) reports
	// each problem as a warning, error fails the run, off checks nothing.
	Validate string `json:"validate,omitempty"`
}

// validateModes are the values of validate:, the default first.
var validateModes = []string{"warn", "error", "off"}

// Check refuses a validate: value that is none of the modes.
func (c Checks) Check() error {
	if c.Validate == "" {
		return nil
	}
	for _, m := range validateModes {
		if c.Validate == m {
			return nil
		}
	}
	return fmt.Errorf("validate: %q is not one of warn, error, off", c.Validate)
}

// watching reports whether a run with these checks looks at its changes
// at all.
func (c Checks) watching() bool { return c.Explain || c.validating() }

func (c Checks) validating() bool { return c.Validate != "off" }
