package budget_test

import (
	"errors"
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// A run's budget is sized by its input; an operation charges what it
// produces, and the first charge over the limit fails the run.
func ExampleBudget() {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("data: {a: '1', b: '2'}\n"), &doc); err != nil {
		panic(err)
	}
	b := budget.New(budget.Measure(&doc), 1)
	fmt.Println(b.Tree(&doc)) // a copy of the document
	err := b.Bytes(budget.MinBytes)
	fmt.Println(errors.Is(err, budget.ErrSpent), b.Spent())
	_, err = budget.Regexp("[a-z]{600}|[0-9]{600}")
	fmt.Println(err)
	// Output:
	// <nil>
	// true true
	// the regular expression compiles to 1203 instructions, more than the 1000 a pattern may have (matching takes time in proportion to both the text and the pattern): write repeats shorter, a+ or a{1,50} for a{1000}
}
