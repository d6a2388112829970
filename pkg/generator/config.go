package generator

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"

	fnentry "github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Config is the MergeValuesGenerator config: kustomize's generator fields
// of a kustomization, plus mergeValues in each generator.
type Config struct {
	APIVersion         string          `json:"apiVersion"`
	Kind               string          `json:"kind"`
	Metadata           json.RawMessage `json:"metadata,omitempty"`
	GeneratorOptions   *Options        `json:"generatorOptions,omitempty"`
	ConfigMapGenerator []Args          `json:"configMapGenerator,omitempty"`
	SecretGenerator    []Args          `json:"secretGenerator,omitempty"`
	// Explain and Validate say what a run tells about its changes.
	fnentry.Checks
}

// Args is one generator: kustomize's ConfigMapArgs / SecretArgs, plus
// MergeValues.
type Args struct {
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Behavior is create (default), merge or replace.
	Behavior string `json:"behavior,omitempty"`
	// MergeValues lists the keys whose values are deep-merged into the
	// existing resource's values rather than replacing them (merge only).
	MergeValues []MergeValue `json:"mergeValues,omitempty"`
	Literals    []Literal    `json:"literals,omitempty"`
	Files       []string     `json:"files,omitempty"`
	Envs        []string     `json:"envs,omitempty"`
	// Env is kustomize's deprecated single env file; it joins Envs.
	Env     string   `json:"env,omitempty"`
	Options *Options `json:"options,omitempty"`
	// Type is the Secret type (secrets only; default Opaque).
	Type string `json:"type,omitempty"`
}

// MergeValue names a key whose value is structured data.
type MergeValue struct {
	Key    string `json:"key"`
	Format string `json:"format"`
	// MergeKeys name lists inside the value that merge by key, as in
	// strategic merge, instead of being replaced.
	MergeKeys []MergeKey `json:"mergeKeys,omitempty"`
}

// MergeKey is a list merged by key: the field path to it (keys, * and
// [key=value]) and the fields that identify its elements.
type MergeKey struct {
	Path string   `json:"path"`
	Keys []string `json:"keys"`
}

// Options are kustomize's generatorOptions.
type Options struct {
	Labels                map[string]string `json:"labels,omitempty"`
	Annotations           map[string]string `json:"annotations,omitempty"`
	DisableNameSuffixHash bool              `json:"disableNameSuffixHash,omitempty"`
	Immutable             bool              `json:"immutable,omitempty"`
}

// Literal is a "key=value" string as in kustomize, or a one-entry map
// {key: value} whose value is taken exactly as written (handy for
// multi-line JSON or YAML, as in the mergeValues proposal's examples).
type Literal struct {
	Key, Value string
	// Raw is the string form; IsRaw tells it from the map form.
	Raw   string
	IsRaw bool
}

// UnmarshalJSON keeps the string form as it is: it is split (and errors
// reported, naming the entry) when the generator runs.
func (l *Literal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		l.IsRaw = true
		return json.Unmarshal(b, &l.Raw)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil || len(m) != 1 {
		// Not quoted: a literal may hold a secret.
		return fmt.Errorf("a literal is \"key=value\" or a map with one key and a string value, not %s", jsonShape(b))
	}
	for k, v := range m {
		l.Key, l.Value = k, v
	}
	return nil
}

// builtinConfig is kustomize's ConfigMapGenerator / SecretGenerator
// config: one generator, its fields inline, its name and namespace
// defaulting to the config's metadata.
type builtinConfig struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name,omitempty"`
		Namespace   string            `json:"namespace,omitempty"`
		Labels      map[string]string `json:"labels,omitempty"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Args
}

// entry is one generator to run.
type entry struct {
	where string // "configMapGenerator[1]"
	kind  string // ConfigMap or Secret
	args  Args
	opts  Options // global options merged in
}

// target is the namespace and name the generator gives, as "apps/api" or
// "api".
func (e entry) target() string {
	if e.args.Namespace != "" {
		return e.args.Namespace + "/" + e.args.Name
	}
	return e.args.Name
}

// describe names what the generator makes, as messages name a resource:
// "v1 ConfigMap apps/api".
func (e entry) describe() string { return "v1 " + e.kind + " " + e.target() }

// mergeValuesAt is where mergeValues[i] of the generator is, for messages.
func (e entry) mergeValuesAt(i int) string { return fmt.Sprintf("%s.mergeValues[%d]", e.where, i) }

// kindBuiltin is the apiVersion of kustomize's generators among the config
// types the function accepts (fnkinds.MergeValuesGenerator).
const kindBuiltin = "builtin"

// entries decodes the config into the generators to run, in kustomize's
// order: ConfigMaps, then Secrets, and what the run tells of its changes.
func entries(config *yaml.RNode) ([]entry, fnentry.Checks, error) {
	if config.GetApiVersion() == kindBuiltin {
		e, err := builtinEntry(config)
		if err != nil {
			return nil, fnentry.Checks{}, err
		}
		return []entry{e}, fnentry.Checks{}, nil
	}
	var c Config
	if err := fnconfig.Decode(config, &c); err != nil {
		return nil, c.Checks, err
	}
	if err := c.Checks.Check(); err != nil {
		return nil, c.Checks, err
	}
	var out []entry
	for i, a := range c.ConfigMapGenerator {
		out = append(out, entry{where: fmt.Sprintf("configMapGenerator[%d]", i), kind: "ConfigMap", args: a, opts: mergeOptions(a.Options, c.GeneratorOptions)})
	}
	for i, a := range c.SecretGenerator {
		out = append(out, entry{where: fmt.Sprintf("secretGenerator[%d]", i), kind: "Secret", args: a, opts: mergeOptions(a.Options, c.GeneratorOptions)})
	}
	return out, c.Checks, nil
}

// builtinEntry decodes kustomize's ConfigMapGenerator or SecretGenerator
// config: one generator, named by the config's metadata where it names
// itself no name or namespace.
func builtinEntry(config *yaml.RNode) (entry, error) {
	var c builtinConfig
	if err := fnconfig.Decode(config, &c); err != nil {
		return entry{}, err
	}
	c.Name = cmp.Or(c.Name, c.Metadata.Name)
	c.Namespace = cmp.Or(c.Namespace, c.Metadata.Namespace)
	kind := "ConfigMap"
	if c.Kind == "SecretGenerator" {
		kind = "Secret"
	}
	return entry{where: c.Kind, kind: kind, args: c.Args, opts: mergeOptions(c.Options, nil)}, nil
}

// mergeOptions merges global options into a generator's as kustomize
// does: the generator's labels and annotations win over global ones of the
// same key; disableNameSuffixHash and immutable are on when either says so.
func mergeOptions(local, global *Options) Options {
	var o Options
	if local != nil {
		o = *local
		o.Labels = maps.Clone(local.Labels)
		o.Annotations = maps.Clone(local.Annotations)
	}
	if global == nil {
		return o
	}
	o.Labels = withDefaults(o.Labels, global.Labels)
	o.Annotations = withDefaults(o.Annotations, global.Annotations)
	o.DisableNameSuffixHash = o.DisableNameSuffixHash || global.DisableNameSuffixHash
	o.Immutable = o.Immutable || global.Immutable
	return o
}

// withDefaults adds to m (made when needed) the keys of defaults it lacks.
func withDefaults(m, defaults map[string]string) map[string]string {
	for k, v := range defaults {
		if _, ok := m[k]; !ok {
			if m == nil {
				m = map[string]string{}
			}
			m[k] = v
		}
	}
	return m
}

// jsonShape describes a JSON value by its type, for messages that must not
// show the value.
func jsonShape(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return "this value"
	}
	switch v := v.(type) {
	case map[string]any:
		return mapShape(v)
	case []any:
		return "a list"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "this value"
}

// mapShape describes a map that is not a literal: not one key, or one
// whose value is not a string.
func mapShape(m map[string]any) string {
	if len(m) != 1 {
		return fmt.Sprintf("a map with %d keys", len(m))
	}
	for k := range m {
		return fmt.Sprintf("a map whose value for %q is not a string", k)
	}
	return "this value"
}
