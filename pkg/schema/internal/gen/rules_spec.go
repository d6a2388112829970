package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// oaSchema is one schema of an OpenAPI v3 document, as far as the rules
// read it.
type oaSchema struct {
	Type                 string              `json:"type"`
	Format               string              `json:"format"`
	Ref                  string              `json:"$ref"`
	AllOf                []oaSchema          `json:"allOf"`
	OneOf                []oaSchema          `json:"oneOf"`
	Properties           map[string]oaSchema `json:"properties"`
	Required             []string            `json:"required"`
	Items                *oaSchema           `json:"items"`
	AdditionalProperties json.RawMessage     `json:"additionalProperties"`
	PreserveUnknown      bool                `json:"x-kubernetes-preserve-unknown-fields"`
	GVK                  []struct {
		Group, Version, Kind string
	} `json:"x-kubernetes-group-version-kind"`
}

// carried are the keywords of a schema the rules read or may leave out
// (descriptions, defaults, merge metadata: not what a value may be).
var carried = map[string]bool{
	"type": true, "format": true, "$ref": true, "allOf": true, "oneOf": true, "properties": true,
	"required": true, "items": true, "additionalProperties": true, "description": true, "default": true,
	"x-kubernetes-preserve-unknown-fields": true,
}

const refPrefix = "#/components/schemas/"

// readOpenAPI reads the schemas of every document in dir, by name. A name
// defined by several documents is read from the first (DeleteOptions and
// WatchEvent repeat in every group, with other group-version-kinds).
func readOpenAPI(dir string) (map[string]oaSchema, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no OpenAPI documents in %s (%v)", dir, err)
	}
	sort.Strings(files)
	defs := map[string]oaSchema{}
	for _, f := range files {
		if err := readDocument(f, defs); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(f), err)
		}
	}
	return defs, nil
}

func readDocument(path string, defs map[string]oaSchema) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	for name, raw := range doc.Components.Schemas {
		if _, seen := defs[name]; seen {
			continue
		}
		if err := checkKeywords(name, raw); err != nil {
			return err
		}
		var s oaSchema
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		defs[name] = s
	}
	return nil
}

// checkKeywords refuses a schema using a keyword the tables cannot carry.
func checkKeywords(where string, raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil // additionalProperties: true, and the like
	}
	for k, v := range m {
		switch {
		case k == "properties":
			var props map[string]json.RawMessage
			if err := json.Unmarshal(v, &props); err != nil {
				return fmt.Errorf("%s.properties: %w", where, err)
			}
			for name, p := range props {
				if err := checkKeywords(where+"."+name, p); err != nil {
					return err
				}
			}
		case k == "items" || k == "additionalProperties":
			if err := checkKeywords(where+"."+k, v); err != nil {
				return err
			}
		case !carried[k] && !strings.HasPrefix(k, "x-kubernetes-"):
			return fmt.Errorf("%s: the keyword %q is not carried into the rules tables (rules_spec.go): carry it, or say why it may be left out", where, k)
		}
	}
	return nil
}

// refName is the definition a schema is only a reference to (also through
// an allOf of one reference, Kubernetes' way of adding a default beside
// it), or "".
func (s oaSchema) refName() string {
	switch {
	case s.Ref != "":
		return strings.TrimPrefix(s.Ref, refPrefix)
	case len(s.AllOf) == 1 && s.Properties == nil && s.Items == nil:
		return s.AllOf[0].refName()
	}
	return ""
}

// isKind reports whether a definition is a kind's: it names its
// group-version-kinds and its metadata is ObjectMeta.
func (s oaSchema) isKind() bool {
	meta, ok := s.Properties["metadata"]
	return len(s.GVK) > 0 && ok && strings.HasSuffix(meta.refName(), ".meta.v1.ObjectMeta")
}
