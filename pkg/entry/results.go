package entry

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// Results makes err an error result, or, when it joins several errors
// (errors.Join), one result each, so that every problem is reported at
// once.
func Results(err error) framework.Results { return ResultsAt("", err) }

// ResultsAt is Results for the config entry named entry ("" for none):
// each message is named by it. nil when err is.
func ResultsAt(entry string, err error) framework.Results {
	if err == nil {
		return nil
	}
	multi, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return framework.Results{fnrun.Errorf(entry, nil, "", "%v", err)}
	}
	var rs framework.Results
	for _, e := range multi.Unwrap() {
		rs = append(rs, ResultsAt(entry, e)...)
	}
	return rs
}

// Split is Results for an error that joins several, and any other error
// as it is.
func Split(err error) error {
	if _, ok := err.(interface{ Unwrap() []error }); !ok {
		return err
	}
	return Results(err)
}

// most is how many resources a message names before "and N more".
const most = 5

// Names names the items, up to five of them, for messages:
// "apps/v1 Deployment a, apps/v1 Deployment b, and 3 more".
func Names(ix *selector.Index, items []int) string {
	var names []string
	for k, i := range items {
		if k == most {
			names = append(names, fmt.Sprintf("and %d more", len(items)-most))
			break
		}
		names = append(names, fnrun.Describe(ix.Item(i)))
	}
	return strings.Join(names, ", ")
}
