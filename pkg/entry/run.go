package entry

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// Run is one run of a transform's entries over the items, as it reports:
// its errors so far (Errs), which fail the run, and its other results
// (Req.Results).
type Run struct {
	Req *fnrun.Request
	Ix  *selector.Index
	// Strict makes findings errors (a config's strict: true).
	Strict bool
	// Noun names what the entries patch in messages: "resource",
	// "workload".
	Noun string
	Errs framework.Results
}

// Errorf records an error of an entry (entry, res and field may be
// empty, as in fnrun.Errorf).
func (r *Run) Errorf(entry string, res *yaml.RNode, field, format string, args ...any) {
	r.Errs = append(r.Errs, fnrun.Errorf(entry, res, field, format, args...))
}

// Warnf records a warning.
func (r *Run) Warnf(entry string, res *yaml.RNode, field, format string, args ...any) {
	r.Req.Results = append(r.Req.Results, fnrun.Warningf(entry, res, field, format, args...))
}

// Flag records a finding about a patch itself, one kustomize lets pass
// in silence: a warning, the patch applied all the same (anyway, when
// given, says how: "merged as written"), or under strict: true an error.
func (r *Run) Flag(entry string, res *yaml.RNode, field, msg, anyway string) {
	switch {
	case r.Strict:
		r.Errorf(entry, res, field, "%s (strict: true makes this an error)", msg)
	case anyway != "":
		r.Warnf(entry, res, field, "%s; %s", msg, anyway)
	default:
		r.Warnf(entry, res, field, "%s", msg)
	}
}

// Spent reports whether the run's work budget is spent (fnrun's
// Request.Budget): its error is reported, and nothing more is worth doing.
func (r *Run) Spent() bool { return r.Req.Budget().Spent() }

// Err is the run's outcome: its errors, or nil.
func (r *Run) Err() error {
	if len(r.Errs) == 0 {
		return nil
	}
	return r.Errs
}

// Counts are what an entry did, for its summary.
type Counts struct {
	// Selected counts what it selected (and could patch); Changed and
	// Deleted, what it changed and deleted.
	Selected, Changed, Deleted int
	// Filled counts the values a default (mode: default) wrote.
	Filled int
}

// Summarize records an entry's line of a successful run (Counts.Line).
func (r *Run) Summarize(entry string, n Counts, fill bool) {
	r.Req.Summarize(entry, "%s", n.Line(r.Noun, fill))
}

// Line says what an entry did to what it patches (noun): "2 resources
// changed, 1 deleted (5 selected)", and for a default (fill) the values it
// filled and how many it left as they were.
func (n Counts) Line(noun string, fill bool) string {
	line := fmt.Sprintf("%s changed", fnrun.Plural(n.Changed, noun))
	if n.Deleted > 0 {
		line += fmt.Sprintf(", %d deleted", n.Deleted)
	}
	line = fmt.Sprintf("%s (%d selected)", line, n.Selected)
	if fill {
		left, was := n.Selected-n.Changed, "they were"
		if left == 1 {
			was = "it was"
		}
		line += fmt.Sprintf(": defaults filled %s; %s left as %s", fnrun.Plural(n.Filled, "field"), fnrun.Plural(left, noun), was)
	}
	return line
}
