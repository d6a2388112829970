package main

import (
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
)

// With -rules, gen writes the other tables of package schema: the rules
// (../../rule.go) a function's changes are validated against. They come
// from the OpenAPI v3 documents the Kubernetes repository publishes
// (k8s.io/kubernetes, api/openapi-spec/v3/*.json, the API server's own
// /openapi/v3), read through the module proxy at generate time only: the
// module is never a dependency of the project. From them:
//
//   - each kind: a definition with x-kubernetes-group-version-kind whose
//     metadata is ObjectMeta, under each group, version and kind it names;
//   - each schema: type, format, required, properties, items and
//     additionalProperties; a schema that is only a reference is the
//     definition it names; oneOf (IntOrString, Quantity) is any type, with
//     the format int-or-string or, for Quantity, quantity;
//   - enum: the Kubernetes documents no longer carry it, so the values of a
//     field whose Go type carries a +enum marker are read from the Go
//     sources of the API types (k8s.io/api and friends), as openapi-gen
//     reads them: the string constants of that type;
//   - a keyword the tables cannot carry (pattern, minimum, anyOf...) is an
//     error, so that a new release that starts using one is not read as if
//     it did not.

// rulesModules are the modules whose Go sources give enum values.
var rulesModules = []string{"k8s.io/api", "k8s.io/apiextensions-apiserver", "k8s.io/kube-aggregator"}

// runRules writes the rules tables of the k8s.io modules at version (the
// Kubernetes release 1.X.Y of v0.X.Y) to out.
func runRules(version, out string) error {
	kube := "v1." + strings.TrimPrefix(version, "v0.")
	mods := []string{"k8s.io/kubernetes@" + kube}
	for _, m := range rulesModules {
		mods = append(mods, m+"@"+version)
	}
	dirs, err := download(mods)
	if err != nil {
		return err
	}
	defs, err := readOpenAPI(filepath.Join(dirs["k8s.io/kubernetes"], "api", "openapi-spec", "v3"))
	if err != nil {
		return err
	}
	enums, err := readEnums(dirs, rulesModules)
	if err != nil {
		return err
	}
	t, err := buildRules(defs, enums)
	if err != nil {
		return err
	}
	src := t.emit(version, append([]string{"k8s.io/kubernetes@" + kube + " (api/openapi-spec/v3)"}, mods[1:]...))
	formatted, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting the output: %w", err)
	}
	return os.WriteFile(out, formatted, 0o644)
}
