package generator

import (
	fnentry "github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// GeneratedFrom marks a resource this function named; its value is the
// generator's name (the resource's name before the hash suffix).
const GeneratedFrom = "fn.patchwork.dev/generated-from"

// Function is the merge-values-generator function.
var Function = fnrun.Function{
	Name:    fnkinds.MergeValuesGenerator.Name,
	Short:   "kustomize's configMapGenerator and secretGenerator, with mergeValues to deep-merge JSON/YAML values",
	Kinds:   fnkinds.MergeValuesGenerator.Kinds,
	TakenBy: fnkinds.TakenBy(),
	Run:     transform,
}

// transform is the function.
func transform(req *fnrun.Request) error {
	knowSecretLiterals(req)
	es, checks, err := entries(req.Config)
	if err != nil {
		return err
	}
	// As a kustomize generator, our config comes back as an item; it is
	// local-config, and kustomize drops it from the build.
	r := &run{req: req, kustomizeGenerator: isKustomizeGenerator(req), claimed: claimedNamespaces(es)}
	r.watch = &fnentry.Watch{Req: req, Checks: checks, Errs: &r.findings, Schema: func() *schema.Schema {
		s, _, err := schema.Builtin().WithCRDs(req.Items)
		if err != nil {
			return schema.Builtin()
		}
		return s
	}}
	if errs := duplicateCreates(es); len(errs) > 0 {
		return errs
	}
	return r.all(es)
}

type run struct {
	req                *fnrun.Request
	kustomizeGenerator bool
	refs               *namerefs.Index
	items              *itemIndex // built on first use
	// claimed holds, by kind and name, the namespaces generators of this
	// config name: what was generated there is theirs, not that of a
	// generator of the same name without a namespace.
	claimed map[genKey]map[string]bool
	// done says what the current entry made, for its summary line.
	done string
	// watch says and checks what each generator changes (explain:,
	// validate:); findings are its errors under validate: error.
	watch    *fnentry.Watch
	findings framework.Results
}

// all runs the generators in order. One that fails does not stop the
// others; each that succeeds says what it made.
func (r *run) all(es []entry) error {
	var errs framework.Results
	for _, e := range es {
		if r.req.Budget().Spent() {
			break
		}
		r.done = ""
		if res := r.one(e); len(res) > 0 {
			errs = append(errs, res...)
		} else if r.done != "" {
			r.req.Summarize(e.where, "%s", r.done)
		}
	}
	r.watch.Finish()
	errs = append(errs, r.findings...)
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// one runs one generator: its entry checked, its pairs loaded, then the
// resource created, or merged or replaced into the one among the items (or
// handed to kustomize, which does that itself). It returns its error
// results: every one its checks and its files find, at once.
func (r *run) one(e entry) framework.Results {
	behavior, res := checkEntry(e)
	if res != nil {
		return framework.Results{res}
	}
	formats, errs := checkMergeValues(e, behavior)
	pairs, loadErrs := r.load(e, formats)
	if errs = append(errs, loadErrs...); len(errs) > 0 {
		return errs
	}
	if err := r.charge(pairs); err != nil {
		return results(fnrun.Errorf(e.where, nil, "", "%v", err))
	}
	switch {
	case r.kustomizeGenerator:
		return results(r.forKustomize(e, behavior, pairs, formats))
	case behavior == "create":
		return results(r.create(e, pairs))
	}
	return r.update(e, behavior, pairs, formats)
}

// charge charges the run's budget for the values a generator writes: the
// same 1 MiB file named by a thousand generators is a gigabyte.
func (r *run) charge(pairs []kv.Pair) error {
	n := 0
	for _, p := range pairs {
		n += len(p.Key) + len(p.Value)
	}
	return r.req.Budget().Bytes(n)
}

// results is res alone, or none for nil.
func results(res *framework.Result) framework.Results {
	if res == nil {
		return nil
	}
	return framework.Results{res}
}
