package redact

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// eachText replaces every text of r by what f makes of it.
func eachText(r *framework.Result, f func(string) string) {
	if r == nil {
		return
	}
	r.Message = f(r.Message)
	if ref := r.ResourceRef; ref != nil {
		for _, p := range []*string{&ref.APIVersion, &ref.Kind, &ref.Name, &ref.Namespace} {
			*p = f(*p)
		}
	}
	if fd := r.Field; fd != nil {
		fd.Path = f(fd.Path)
		fd.CurrentValue = eachValueText(fd.CurrentValue, f)
		fd.ProposedValue = eachValueText(fd.ProposedValue, f)
	}
	if fl := r.File; fl != nil {
		fl.Path = f(fl.Path)
	}
	if len(r.Tags) > 0 {
		tags := make(map[string]string, len(r.Tags))
		for k, v := range r.Tags {
			tags[f(k)] = f(v)
		}
		r.Tags = tags
	}
}

// eachValueText replaces the texts of a result's current or proposed
// value: strings, lists and maps of them piece by piece; any other value
// whose printed form f changes is replaced by Marker whole.
func eachValueText(v any, f func(string) string) any {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return f(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = eachValueText(x, f)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[f(k)] = eachValueText(x, f)
		}
		return out
	}
	if text := fmt.Sprint(v); f(text) != text {
		return Marker
	}
	return v
}
