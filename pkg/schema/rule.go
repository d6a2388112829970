package schema

//go:generate go run ./internal/gen -rules -version v0.37.2 -o zz_rules.go

import (
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A Rule says what the value at one place of a resource may be, as the
// API server's schema says it: its type and format, the values it may take
// (enum, pattern, minimum and maximum, lengths), and for an object its
// fields, those it requires, and whether it keeps fields it does not name.
// Package validate checks what a function changed against it. A nil *Rule
// is valid everywhere and allows anything.
//
// Rules come from the OpenAPI schema of the built-in kinds (generated
// tables, rulesSource), from the openAPIV3Schema of CustomResourceDefinitions
// (WithCRDs) and from OpenAPI documents (WithOpenAPI): Schema.Rule.
type Rule struct {
	// Type is the JSON type wanted: object, array, string, integer,
	// number or boolean; "" for any.
	Type string
	// Format refines it: int32 and int64 bound an integer, int-or-string
	// takes either, quantity is a Kubernetes quantity (a string or a
	// number), byte is base64, date-time an RFC 3339 time.
	Format string
	// Nullable allows null, which otherwise stands for the field left out
	// (the API server drops it).
	Nullable bool
	// Enum lists the values allowed, as their text.
	Enum []string
	// Pattern is a regular expression a string must match.
	Pattern string
	// Minimum and Maximum bound a number (Exclusive: the bound itself is
	// out); MinLength and MaxLength a string's characters, MinItems and
	// MaxItems a list's elements. Nil: no bound.
	Minimum, Maximum                         *float64
	ExclusiveMinimum, ExclusiveMaximum       bool
	MinLength, MaxLength, MinItems, MaxItems *int64
	// Required are the fields an object must have.
	Required []string
	// Fields are an object's fields by name; Values is the rule of a map's
	// values (additionalProperties), for keys Fields does not name.
	Fields map[string]*Rule
	Values *Rule
	// Open says an object keeps fields the schema does not name
	// (x-kubernetes-preserve-unknown-fields, additionalProperties: true, an
	// object schema without properties).
	Open bool
	// Items is the rule of a list's elements.
	Items *Rule
	// Embedded marks an embedded resource: apiVersion, kind and metadata
	// are its fields too.
	Embedded bool
}

// Field is the rule of an object's field, and whether the object may have
// it: a field it names, any field of a map, any field of an open object or
// of an unknown one (nil).
func (r *Rule) Field(name string) (*Rule, bool) {
	if r == nil {
		return nil, true
	}
	if f, ok := r.Fields[name]; ok {
		return f, true
	}
	switch {
	case r.Values != nil:
		return r.Values, true
	case r.Open || len(r.Fields) == 0:
		return nil, true
	case r.Embedded && (name == "apiVersion" || name == "kind" || name == "metadata"):
		return nil, true
	}
	return nil, false
}

// Element is the rule of a list's elements.
func (r *Rule) Element() *Rule {
	if r == nil {
		return nil
	}
	return r.Items
}

// Rule returns the rule of resources of this apiVersion and kind: a CRD's
// or an OpenAPI document's, else the built-in kind's; nil when the kind is
// unknown.
func (s *Schema) Rule(apiVersion, kind string) *Rule {
	k := kindKey{apiVersion, kind}
	for ; s != nil; s = s.base {
		if l, ok := s.rules[k]; ok {
			return l.get()
		}
		if s == builtinSchema {
			return builtinRule(k)
		}
	}
	return nil
}

// lazyRule is the rule of a kind read from a schema node on first use: a
// run that validates nothing reads no CRD's rules.
type lazyRule struct {
	once   sync.Once
	schema *yaml.Node
	refs   *refResolver // an OpenAPI document's $ref; nil in a CRD
	rule   *Rule
}

func (l *lazyRule) get() *Rule {
	l.once.Do(func() {
		r := newRuleReader(l.refs)
		l.rule = rootRule(r.read(l.schema, 0))
	})
	return l.rule
}

// addRule records where the rule of a kind is: schema, a node of a CRD or
// of an OpenAPI document (refs).
func (s *Schema) addRule(k kindKey, schema *yaml.Node, refs *refResolver) {
	if s.rules == nil {
		s.rules = map[kindKey]*lazyRule{}
	}
	s.rules[k] = &lazyRule{schema: schema, refs: refs}
}

var (
	// rulesMu guards the built-in rules built so far: each kind's are
	// built on first use, only the rules that kind reaches.
	rulesMu    sync.Mutex
	ruleKindAt map[kindKey]uint16
	ruleMemo   []*Rule
)

// builtinRule is the rule of a built-in kind from the generated tables
// (zz_rules.go), built on first use with every rule it reaches (a
// Deployment's reach a third of the tables); nil for a kind not built in.
func builtinRule(k kindKey) *Rule {
	rulesMu.Lock()
	defer rulesMu.Unlock()
	if ruleKindAt == nil {
		ruleKindAt = make(map[kindKey]uint16, len(ruleKinds))
		for _, rk := range ruleKinds {
			ruleKindAt[kindKey{rk.apiVersion, rk.kind}] = rk.rule
		}
		ruleMemo = make([]*Rule, len(ruleRows))
	}
	return ruleAt(ruleKindAt[k])
}

// ruleAt is the rule of row i (0: nil), built with those it reaches; a
// row is given its Rule before its fields are built, so that a rule may
// reach itself.
func ruleAt(i uint16) *Rule {
	if i == 0 {
		return nil
	}
	if r := ruleMemo[i]; r != nil {
		return r
	}
	r := &Rule{}
	ruleMemo[i] = r
	ruleRows[i].fill(r, ruleAt)
	return r
}

// ruleRow is one Rule of the generated tables; references are indexes
// into ruleRows, where 0 stands for nil (anything).
type ruleRow struct {
	typ, format   string
	open          bool
	fields        []ruleField
	required      []string
	items, values uint16
	enum          []string
}

type ruleField struct {
	name string
	rule uint16
}

type ruleKind struct {
	apiVersion, kind string
	rule             uint16
}

// fill makes r the rule of the row.
func (row *ruleRow) fill(r *Rule, ref func(uint16) *Rule) {
	r.Type, r.Format, r.Open = row.typ, row.format, row.open
	r.Required, r.Enum = row.required, row.enum
	r.Items, r.Values = ref(row.items), ref(row.values)
	if len(row.fields) > 0 {
		r.Fields = make(map[string]*Rule, len(row.fields))
		for _, f := range row.fields {
			r.Fields[f.name] = ref(f.rule)
		}
	}
}
