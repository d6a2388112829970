package fnrun

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Describe names a resource the way messages do: "apps/v1 Deployment prod/api",
// or "v1 Namespace prod" when it has no namespace.
func Describe(res *yaml.RNode) string {
	if res == nil {
		return ""
	}
	name := res.GetName()
	if ns := res.GetNamespace(); ns != "" {
		name = ns + "/" + name
	}
	return res.GetApiVersion() + " " + res.GetKind() + " " + name
}

// Errorf builds an error result naming the config entry ("patches[2]"), the
// resource and the field path; any of the three may be empty.
func Errorf(entry string, res *yaml.RNode, field, format string, args ...any) *framework.Result {
	return result(framework.Error, entry, res, field, fmt.Sprintf(format, args...))
}

// Warningf is Errorf for warnings.
func Warningf(entry string, res *yaml.RNode, field, format string, args ...any) *framework.Result {
	return result(framework.Warning, entry, res, field, fmt.Sprintf(format, args...))
}

func result(sev framework.Severity, entry string, res *yaml.RNode, field, msg string) *framework.Result {
	var where []string
	if entry != "" {
		where = append(where, entry)
	}
	r := &framework.Result{Severity: sev}
	if res != nil {
		where = append(where, Describe(res))
		r.ResourceRef = &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: res.GetApiVersion(), Kind: res.GetKind()},
			NameMeta: yaml.NameMeta{Name: res.GetName(), Namespace: res.GetNamespace()},
		}
		if path := res.GetAnnotations()[kioutil.PathAnnotation]; path != "" {
			r.File = &framework.File{Path: path}
		}
	}
	if field != "" {
		where = append(where, field)
		r.Field = &framework.Field{Path: field}
	}
	where = append(where, msg)
	r.Message = strings.Join(where, ": ")
	return r
}

// OnNoMatch policies: what an entry that selects nothing reports.
var onNoMatchPolicies = []string{"warn", "error", "ignore"}

// CheckOnNoMatch validates an onNoMatch value ("" means warn).
func CheckOnNoMatch(policy string) error {
	if policy == "" {
		return nil
	}
	for _, p := range onNoMatchPolicies {
		if policy == p {
			return nil
		}
	}
	return fmt.Errorf("onNoMatch: %q is not one of %s", policy, strings.Join(onNoMatchPolicies, ", "))
}

// NoMatch records that an entry selected nothing, as its onNoMatch policy
// says: a warning (the default; kustomize is silent, and users lose hours
// to it), an error, or nothing.
func (r *Request) NoMatch(policy, entry, msg string) {
	switch policy {
	case "ignore":
	case "error":
		r.Results = append(r.Results, Errorf(entry, nil, "", "%s", msg))
	default:
		r.Results = append(r.Results, Warningf(entry, nil, "", "%s", msg))
	}
}
