package generator

import (
	"errors"

	fnentry "github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// update merges or replaces into the existing resource, then names it for
// its new content. Its errors are every key's that does not merge.
func (r *run) update(e entry, behavior string, pairs []kv.Pair, formats valueRules) (failed framework.Results) {
	idx, ours, err := r.find(e, true)
	if err != nil {
		return results(fnrun.Errorf(e.where, nil, "", "behavior %s: %v", behavior, err))
	}
	if idx < 0 {
		return results(fnrun.Errorf(e.where, nil, "", "%s", r.notFound(e, behavior)))
	}
	res := r.req.Items[idx]
	oldName := res.GetName()
	r.forget(idx)
	defer r.remember(idx)
	before := fnrun.Fingerprint(res)
	step := r.watch.Before(e.where, res)
	defer func() {
		r.done = updated(behavior, res, before)
		if len(failed) == 0 && fnrun.Changed(before, res) {
			step.Done()
		}
	}()
	warn := func(w *framework.Result) { r.req.Results = append(r.req.Results, w) }
	if errs := change(e, behavior, res, pairs, formats, step, warn); len(errs) > 0 {
		return errs
	}
	if res.GetAnnotations()[kustomizeWillHash] != "" {
		// A kustomize transformer run on a base's generated resource:
		// kustomize hashes it at the end of the build and fixes the
		// references itself.
		return nil
	}
	if renames(e, res) {
		if err := setMetaKey(res, "annotations", GeneratedFrom, e.args.Name); err != nil {
			return results(fnrun.Errorf(e.where, res, "", "%v", err))
		}
	}
	return results(r.name(e, res, nameBase(e.args.Name, oldName, ours), oldName))
}

// change merges the pairs into res or replaces its data with them, and
// returns an error result for each thing that went wrong; step is told of
// the values merged as JSON or YAML documents, warn receives what a merge
// lost of a value's text.
func change(e entry, behavior string, res *yaml.RNode, pairs []kv.Pair, formats valueRules, step *fnentry.Step, warn func(*framework.Result)) framework.Results {
	var err error
	if behavior == "merge" {
		err = merge(e, res, pairs, formats, step, warn)
	} else {
		err = replace(e, res, pairs)
	}
	var errs framework.Results
	for _, err := range joined(err) {
		var re resultError
		if errors.As(err, &re) {
			errs = append(errs, re.r)
		} else {
			errs = append(errs, fnrun.Errorf(e.where, res, "", "%v", err))
		}
	}
	return errs
}

// joined is the errors err joins (errors.Join), err alone, or none.
func joined(err error) []error {
	if multi, ok := err.(interface{ Unwrap() []error }); ok {
		return multi.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// renames reports whether the function names res (which then carries our
// annotation): it has another name than the generator's, or gets a hash.
func renames(e entry, res *yaml.RNode) bool {
	return res.GetName() != e.args.Name || !e.opts.DisableNameSuffixHash
}

// updated is the summary of an update.
func updated(behavior string, res *yaml.RNode, before uint64) string {
	s := map[string]string{"merge": "merged into ", "replace": "replaced the data of "}[behavior] + fnrun.Describe(res)
	if !fnrun.Changed(before, res) {
		s += " (no change)"
	}
	return s
}
