package patch

import (
	"fmt"
	"strings"
)

// ModeDefault is the mode of a patch that only fills what is missing
// (smp.Options.Default): a config's mode: default.
const ModeDefault = "default"

// ParseMode reads an entry's mode: "" (the patch as written) or default,
// which Parse takes as Options.Default. into names what the entry's
// patches go into, for the message.
func ParseMode(mode string, into ...Into) (bool, error) {
	switch mode {
	case "":
		return false, nil
	case ModeDefault:
		return true, nil
	}
	what := make([]string, len(into))
	for i, t := range into {
		what[i] = intos[t].lacks
	}
	verb := "lacks"
	if len(into) > 1 {
		verb = "lack"
	}
	return false, fmt.Errorf("mode: unknown mode %q (want %s, which fills only what %s %s; or no mode)",
		mode, ModeDefault, strings.Join(what, " and "), verb)
}
