package fnconfig_test

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
)

// scaleConfig is a config: Decode refuses the fields it does not name, so
// it names the ones every config has too.
type scaleConfig struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Replicas   int            `json:"replicas"`
}

// A misspelt field is an error with its line and the field meant; a value
// of the wrong kind says what was wanted, without the value.
func ExampleDecode() {
	var c scaleConfig
	err := fnconfig.Decode(yaml.MustParse(`apiVersion: example.com/v1
kind: Scale
metadata: {name: scale}
replica: 3
`), &c)
	fmt.Println(err)
	err = fnconfig.Decode(yaml.MustParse(`apiVersion: example.com/v1
kind: Scale
metadata: {name: scale}
replicas: three
`), &c)
	fmt.Println(err)
	// Output:
	// config Scale "scale": unknown field "replica" (line 4); did you mean replicas?
	// config Scale "scale": replicas: want a whole number, got a string (line 4)
}

// A config's files are read below its directory, and nowhere else.
func ExampleFiles_ReadFile() {
	dir, err := os.MkdirTemp("", "config")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "patch.yaml"), []byte("spec: {replicas: 2}\n"), 0o644); err != nil {
		panic(err)
	}
	files := fnconfig.Files{Dir: dir}
	b, err := files.ReadFile("patch.yaml")
	fmt.Printf("%q %v\n", b, err)
	_, err = files.ReadFile("../outside.yaml")
	fmt.Println(err)
	// Output:
	// "spec: {replicas: 2}\n" <nil>
	// file "../outside.yaml" is outside the config's directory
}
