package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ruleTable is the rules being built: rows in the order written, named
// definitions by the row they got, inline rows by their text (the same
// inline rule is written once).
type ruleTable struct {
	defs   map[string]oaSchema
	enums  map[string]map[string]enumField
	rows   []string // each row's literal; rows[0] is nil
	notes  []string // the definition a row is, for a comment
	named  map[string]int
	inline map[string]int
	kinds  []ruleKindRow
	err    error
}

type ruleKindRow struct {
	apiVersion, kind string
	row              int
}

// specialFormats are the definitions whose format the document does not
// say (oneOf a string or a number).
var specialFormats = map[string]string{
	"io.k8s.apimachinery.pkg.api.resource.Quantity": "quantity",
}

// buildRules converts the kinds of defs, and every schema they reach,
// into rows.
func buildRules(defs map[string]oaSchema, enums map[string]map[string]enumField) (*ruleTable, error) {
	t := &ruleTable{defs: defs, enums: enums, rows: []string{"{}"}, notes: []string{"anything"}, named: map[string]int{}, inline: map[string]int{}}
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d := defs[name]
		if !d.isKind() {
			continue
		}
		row := t.ref(name)
		for _, g := range d.GVK {
			av := g.Version
			if g.Group != "" {
				av = g.Group + "/" + g.Version
			}
			t.kinds = append(t.kinds, ruleKindRow{av, g.Kind, row})
		}
	}
	slices.SortFunc(t.kinds, func(a, b ruleKindRow) int {
		return strings.Compare(a.apiVersion+" "+a.kind, b.apiVersion+" "+b.kind)
	})
	t.kinds = slices.CompactFunc(t.kinds, func(a, b ruleKindRow) bool { return a.apiVersion == b.apiVersion && a.kind == b.kind })
	return t, t.err
}

// ref is the row of a named definition, made on first use (its row is
// taken before its fields are read, so a definition may contain itself).
func (t *ruleTable) ref(name string) int {
	if row, ok := t.named[name]; ok {
		return row
	}
	d, ok := t.defs[name]
	if !ok {
		t.fail("a reference to %q, which no document defines", name)
		return 0
	}
	row := len(t.rows)
	t.named[name] = row
	t.rows = append(t.rows, "")
	t.notes = append(t.notes, name)
	t.rows[row] = t.literal(d, name)
	return row
}

func (t *ruleTable) fail(format string, args ...any) {
	if t.err == nil {
		t.err = fmt.Errorf(format, args...)
	}
}

// rule is the row of a schema met in owner's field (owner.field, for
// enums): the definition it refers to, or a row of its own.
func (t *ruleTable) rule(s oaSchema, owner, field string) int {
	if ref := s.refName(); ref != "" {
		return t.ref(ref)
	}
	text := t.literal(s, "")
	if ef, ok := t.enums[owner][field]; ok && s.Type == "string" {
		text = withEnum(text, ef.values)
	} else if ok && ef.list && s.Items != nil && s.Items.Type == "string" {
		text = t.literalWithItems(s, withEnum(t.literal(*s.Items, ""), ef.values))
	}
	if row, ok := t.inline[text]; ok {
		return row
	}
	row := len(t.rows)
	t.rows = append(t.rows, text)
	t.notes = append(t.notes, owner+"."+field)
	t.inline[text] = row
	return row
}

// literal writes the row of a schema (name: the definition it is, or "").
func (t *ruleTable) literal(s oaSchema, name string) string {
	var parts []string
	typ, format := s.Type, s.Format
	if len(s.OneOf) > 0 {
		typ = ""
	}
	if f, ok := specialFormats[name]; ok {
		format = f
	}
	if typ != "" {
		parts = append(parts, "typ: "+strconv.Quote(typ))
	}
	if format != "" {
		parts = append(parts, "format: "+strconv.Quote(format))
	}
	parts = append(parts, t.objectParts(s, name)...)
	if s.Items != nil {
		parts = append(parts, fmt.Sprintf("items: %d", t.rule(*s.Items, name, "[]")))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// literalWithItems is literal for a list whose items row is items.
func (t *ruleTable) literalWithItems(s oaSchema, items string) string {
	row, ok := t.inline[items]
	if !ok {
		row = len(t.rows)
		t.rows = append(t.rows, items)
		t.notes = append(t.notes, "enum")
		t.inline[items] = row
	}
	return fmt.Sprintf(`{typ: %q, items: %d}`, s.Type, row)
}

// objectParts writes an object's fields, required fields, the rule of a
// map's values and whether it keeps unknown fields.
func (t *ruleTable) objectParts(s oaSchema, name string) []string {
	var parts []string
	if s.PreserveUnknown || string(s.AdditionalProperties) == "true" {
		parts = append(parts, "open: true")
	}
	if len(s.Properties) > 0 {
		keys := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fields := make([]string, len(keys))
		for i, k := range keys {
			fields[i] = fmt.Sprintf("{%q, %d}", k, t.rule(s.Properties[k], name, k))
		}
		parts = append(parts, "fields: []ruleField{"+strings.Join(fields, ", ")+"}")
	}
	if len(s.Required) > 0 {
		parts = append(parts, "required: "+stringSlice(slices.Sorted(slices.Values(s.Required))))
	}
	var ap oaSchema
	if len(s.AdditionalProperties) > 0 && json.Unmarshal(s.AdditionalProperties, &ap) == nil {
		parts = append(parts, fmt.Sprintf("values: %d", t.rule(ap, name, "*")))
	}
	return parts
}

// withEnum adds the enum values to a row's literal.
func withEnum(text string, values []string) string {
	return strings.TrimSuffix(text, "}") + ", enum: " + stringSlice(values) + "}"
}

// emit writes the generated file.
func (t *ruleTable) emit(version string, sources []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"go run ./internal/gen -rules -version %s\"; DO NOT EDIT.\n", version)
	fmt.Fprintf(&b, "// Sources: %s.\n\npackage schema\n\n", strings.Join(sources, ", "))
	b.WriteString("// rulesSource is the schema the built-in rules are read from.\n")
	fmt.Fprintf(&b, "const rulesSource = %q\n\n", "Kubernetes 1."+strings.TrimPrefix(version, "v0.")+" OpenAPI v3 (api/openapi-spec/v3)")
	b.WriteString("var ruleRows = [...]ruleRow{\n\t0: {}, // anything\n")
	for i := 1; i < len(t.rows); i++ {
		fmt.Fprintf(&b, "\t// %s\n\t%d: %s,\n", t.notes[i], i, t.rows[i])
	}
	b.WriteString("}\n\nvar ruleKinds = [...]ruleKind{\n")
	for _, k := range t.kinds {
		fmt.Fprintf(&b, "\t{%q, %q, %d},\n", k.apiVersion, k.kind, k.row)
	}
	b.WriteString("}\n")
	return b.Bytes()
}
