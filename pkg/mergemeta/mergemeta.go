package mergemeta

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// Config holds the two fields, as a function's config embeds them.
type Config struct {
	// Schemas are files or directories of merge metadata, besides the
	// CRDs among the resources.
	Schemas []SchemaSource `json:"schemas,omitempty"`
	// MergeKeys declare the keys of lists no schema describes.
	MergeKeys []MergeKey `json:"mergeKeys,omitempty"`
}

// SchemaSource is one entry of schemas.
type SchemaSource struct {
	// Path is a file or a directory, relative to the config's directory.
	Path string `json:"path"`
}

// MergeKey is one entry of mergeKeys.
type MergeKey struct {
	// The resources the declaration is for (target, targets, reject); none
	// means every resource.
	selector.Set
	// Path is a field path (kustomize's grammar; * and [key=value]
	// allowed) to the lists; it may continue into a JSON or YAML document
	// held in a string, for patches into that string (multi-patch's
	// embedded).
	Path string `json:"path"`
	// Keys are the fields that identify an element, one or more.
	Keys []string `json:"keys"`
}

// Meta is a config's merge metadata, read and checked.
type Meta struct {
	files   fnconfig.Files
	results *framework.Results // where warnings go
	entry   string             // the config's name for the fields' owner, for messages: "" or "patchesPodSpec"
	crds    []*yaml.RNode
	openapi []openAPIDoc
	decls   []decl
	sources []source // the schemas entries, for Unapplied

	schema *schema.Schema // built on first use (Schema)
	types  map[typeKey]typed
}

type openAPIDoc struct {
	where string // schemas[0]: crds/cluster.json (document 1)
	node  *yaml.Node
}

// decl is a compiled mergeKeys entry.
type decl struct {
	name string // mergeKeys[1]
	sel  *selector.SetMatcher
	schema.ListKeys
}

// Load reads the schema files of c through files and checks its
// declarations. Problems the files have but a run can live with (a
// document that is no schema) are warnings appended to results, then and
// when Schema is built; errors name the entry (schemas[0], mergeKeys[1])
// and the file.
func Load(files fnconfig.Files, results *framework.Results, c Config) (*Meta, error) {
	m := &Meta{files: files, results: results, types: map[typeKey]typed{}}
	var errs []error
	for i, mk := range c.MergeKeys {
		d, err := compileDecl(mk)
		if err != nil {
			errs = append(errs, fmt.Errorf("mergeKeys[%d]: %w", i, err))
			continue
		}
		d.name = fmt.Sprintf("mergeKeys[%d]", i)
		m.decls = append(m.decls, d)
	}
	for i, s := range c.Schemas {
		if err := m.readSchemas(fmt.Sprintf("schemas[%d]", i), s.Path); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return m, nil
}

func compileDecl(mk MergeKey) (decl, error) {
	if mk.Path == "" {
		return decl{}, fmt.Errorf("path: give the field path of the lists (spec.values.env)")
	}
	path, err := fieldpath.Parse(mk.Path)
	if err != nil {
		return decl{}, fmt.Errorf("path: %v", err)
	}
	// What can be checked without a resource: the keys, and the segments.
	if _, err := (*schema.Type)(nil).WithListKeys(schema.ListKeys{Path: path, Keys: mk.Keys}); err != nil {
		var de *schema.DeclareError
		if errors.As(err, &de) && de.At != "" {
			return decl{}, fmt.Errorf("path: %s", err)
		}
		return decl{}, err
	}
	sel, err := selector.CompileSet(mk.Set)
	if err != nil {
		return decl{}, err
	}
	return decl{sel: sel, ListKeys: schema.ListKeys{Path: path, Keys: mk.Keys}}, nil
}

// schemaFile tells the files of a directory to read.
func schemaFile(name string) bool {
	name = strings.ToLower(name)
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") || strings.HasSuffix(name, ".json")
}

// readSchemas reads one schemas entry: its CRDs and OpenAPI documents.
func (m *Meta) readSchemas(entry, path string) error {
	if path == "" {
		return fmt.Errorf("%s: path: give a file or a directory of CRDs or OpenAPI documents", entry)
	}
	files, err := m.files.ReadTree(path, schemaFile)
	if err != nil {
		return fmt.Errorf("%s: %w", entry, err)
	}
	src := &source{entry: entry, path: path}
	found := 0
	for _, f := range files {
		docs, err := decodeAll(f.Data)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", entry, f.Path, err)
		}
		for j, d := range docs {
			file := f.Path
			if len(docs) > 1 {
				file += fmt.Sprintf(" (document %d)", j)
			}
			n, err := m.take(src, file, d)
			if err != nil {
				return err
			}
			found += n
		}
	}
	if found == 0 {
		return fmt.Errorf("%s: %s holds no CustomResourceDefinition (apiextensions.k8s.io/v1) and no OpenAPI document", entry, path)
	}
	m.sources = append(m.sources, *src)
	return nil
}

// take keeps a document of file that is merge metadata, noting in src the
// kinds it defines, and says how many it held; any other document is
// passed by with a warning.
func (m *Meta) take(src *source, file string, d *yaml.Node) (int, error) {
	r := yaml.NewRNode(d)
	apiVersion, kind := scalarField(d, "apiVersion"), scalarField(d, "kind")
	where := src.entry + ": " + file
	switch {
	case schema.IsOpenAPI(d):
		m.openapi = append(m.openapi, openAPIDoc{where: where, node: d})
		src.add(file, d)
		return 1, nil
	case apiVersion == "apiextensions.k8s.io/v1" && kind == "CustomResourceDefinition":
		m.crds = append(m.crds, r)
		src.add(file, d)
		return 1, nil
	case kind == "List" || strings.HasSuffix(kind, "List") && apiVersion == "apiextensions.k8s.io/v1":
		// kubectl get crd -o yaml writes a List
		items := yamltree.Lookup(d, "items")
		if items == nil || items.Kind != yaml.SequenceNode {
			break
		}
		n := 0
		for k, it := range items.Content {
			got, err := m.take(src, fmt.Sprintf("%s items[%d]", file, k), it)
			if err != nil {
				return 0, err
			}
			n += got
		}
		return n, nil
	}
	what := "a document of another kind, not a CustomResourceDefinition or an OpenAPI document"
	switch {
	case apiVersion == "apiextensions.k8s.io/v1beta1":
		what = "an apiextensions.k8s.io/v1beta1 CustomResourceDefinition, which Kubernetes no longer serves and this function does not read: convert it to apiextensions.k8s.io/v1"
	case kind != "":
		what = fmt.Sprintf("a %s %s, not a CustomResourceDefinition or an OpenAPI document", apiVersion, kind)
	}
	*m.results = append(*m.results, fnrun.Warningf("", nil, "", "%s: %s; skipped", where, what))
	return 0, nil
}

// decodeAll reads a YAML (or JSON) stream: its maps, empty documents
// skipped (yamlstream.Split).
func decodeAll(b []byte) ([]*yaml.Node, error) {
	docs, err := yamlstream.Split(b)
	if err != nil {
		return nil, fmt.Errorf("not YAML or JSON: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	maps := docs[:0]
	for _, d := range docs {
		if d.Kind == yaml.MappingNode {
			maps = append(maps, d)
		}
	}
	return maps, nil
}

func scalarField(n *yaml.Node, key string) string {
	if v := yamltree.Lookup(n, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// Schema is the merge metadata of a run: the built-in types, the CRDs of
// the schema files and of items, and the OpenAPI documents' kinds (a kind
// known already keeps its rules). It is built once, from the items of the
// first call; CRDs that redefine a built-in kind are warnings, and
// malformed schemas an error.
func (m *Meta) Schema(items []*yaml.RNode) (*schema.Schema, error) {
	if m.schema != nil {
		return m.schema, nil
	}
	s, ignored, err := schema.Builtin().WithCRDs(append(slices.Clone(m.crds), items...))
	if err != nil {
		m.schema = schema.Builtin()
		return nil, fmt.Errorf("reading CustomResourceDefinitions: %v", err)
	}
	for _, ic := range ignored {
		*m.results = append(*m.results, fnrun.Warningf("", ic.CRD, "", "%s", ic))
	}
	for _, d := range m.openapi {
		next, skipped, err := s.WithOpenAPI(d.node)
		if err != nil {
			m.schema = schema.Builtin()
			return nil, fmt.Errorf("%s: %v", d.where, err)
		}
		if len(skipped) > 0 {
			*m.results = append(*m.results, &framework.Result{Severity: framework.Info,
				Message: fmt.Sprintf("%s: left out %s known already (built-in, or defined by a CRD), whose rules stay: %s", d.where,
					fnrun.Plural(len(skipped), "kind"), listSome(skipped))})
		}
		s = next
	}
	m.schema = s
	return s, nil
}

// SchemaOf is Schema for the items of ix not removed, listed only by the
// first call: callers ask once per resource they patch, and a list of
// every item per patched resource made a run's cost grow with the square
// of the items (issue 29).
func (m *Meta) SchemaOf(ix *selector.Index) (*schema.Schema, error) {
	if m.schema != nil {
		return m.schema, nil
	}
	return m.Schema(ix.Items())
}

// CRDs are the CustomResourceDefinitions of the schema files, for a
// schema of another kind (package apply's, which multi-patch builds
// itself, so that a function without apply patches does not link it).
func (m *Meta) CRDs() []*yaml.RNode { return slices.Clone(m.crds) }

func listSome(s []string) string {
	const most = 5
	if len(s) <= most {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:most], ", ") + " and " + strconv.Itoa(len(s)-most) + " more"
}
