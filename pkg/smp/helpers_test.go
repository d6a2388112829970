package smp

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// Hand-built schema types, so these tests do not depend on the generated
// tables of pkg/schema.

func object(fields map[string]*schema.Type) *schema.Type { return &schema.Type{Fields: fields} }

func mapOf(elem *schema.Type) *schema.Type { return &schema.Type{Elem: elem} }

func keyedList(elem *schema.Type, keys ...string) *schema.Type {
	return &schema.Type{Elem: elem, Strategy: schema.MergeByKeys, Keys: keys}
}

func withDefaults(t *schema.Type, kv ...string) *schema.Type {
	t.KeyDefaults = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		t.KeyDefaults[kv[i]] = kv[i+1]
	}
	return t
}

func setList() *schema.Type { return &schema.Type{Strategy: schema.Set} }

func atomic(elem *schema.Type) *schema.Type { return &schema.Type{Elem: elem} }

var (
	containerPortT = withDefaults(keyedList(nil, "containerPort", "protocol"), "protocol", "TCP")
	containerT     = object(map[string]*schema.Type{
		"ports":        containerPortT,
		"env":          keyedList(nil, "name"),
		"volumeMounts": keyedList(nil, "mountPath"),
		"args":         atomic(nil),
		"command":      atomic(nil),
	})
	volumeT  = object(map[string]*schema.Type{"configMap": object(nil), "emptyDir": object(nil)})
	podSpecT = object(map[string]*schema.Type{
		"containers":                keyedList(containerT, "name"),
		"initContainers":            keyedList(containerT, "name"),
		"volumes":                   keyedList(volumeT, "name"),
		"topologySpreadConstraints": keyedList(nil, "topologyKey", "whenUnsatisfiable"),
		"tolerations":               atomic(nil),
	})
	metaT = object(map[string]*schema.Type{
		"labels":      mapOf(nil),
		"annotations": mapOf(nil),
		"finalizers":  setList(),
	})
	deploymentT = object(map[string]*schema.Type{
		"metadata": metaT,
		"spec": object(map[string]*schema.Type{
			"template": object(map[string]*schema.Type{
				"metadata": metaT,
				"spec":     podSpecT,
			}),
		}),
	})
	serviceT = object(map[string]*schema.Type{
		"metadata": metaT,
		"spec": object(map[string]*schema.Type{
			"ports": withDefaults(keyedList(nil, "port", "protocol"), "protocol", "TCP"),
		}),
	})
)

func parse(t testing.TB, s string) *yaml.RNode {
	t.Helper()
	n, err := yaml.Parse(s)
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return n
}

func str(t testing.TB, n *yaml.RNode) string {
	t.Helper()
	s, err := n.String()
	if err != nil {
		t.Fatalf("serialize: %v", err)
	}
	return s
}

// dedent strips the common indentation of a raw string literal, so cases can
// be written indented in the table.
func dedent(s string) string {
	lines := strings.Split(strings.TrimPrefix(s, "\n"), "\n")
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent && indent > 0 {
			lines[i] = l[indent:]
		} else if indent > 0 {
			lines[i] = strings.TrimLeft(l, " \t")
		}
	}
	out := strings.Join(lines, "\n")
	out = strings.TrimRight(out, " \t\n") + "\n"
	return out
}
