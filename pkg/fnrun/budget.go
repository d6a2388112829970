package fnrun

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// Budget is the run's work budget (package budget), sized by its input:
// the items and the config as the run received them. Every engine that
// can produce more than it reads charges it; a transform hands it on.
func (r *Request) Budget() *budget.Budget {
	if r.budget == nil {
		r.budget = budget.New(r.inputSize(), 1)
	}
	return r.budget
}

// startBudget sizes the run's budget before the transform runs, at the
// limits the environment scales (budget.Env).
func (r *Request) startBudget() error {
	scale, err := budget.Scale()
	if err != nil {
		return err
	}
	r.budget = budget.New(r.intake.size, scale)
	return nil
}

func (r *Request) inputSize() budget.Input {
	roots := make([]*yaml.Node, 0, len(r.Items)+1)
	for _, it := range r.Items {
		roots = append(roots, it.YNode())
	}
	if r.Config != nil {
		roots = append(roots, r.Config.YNode())
	}
	return budget.Measure(roots...)
}
