package embedded

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	yaml "go.yaml.in/yaml/v3"
)

// KeptTag is the type rule for any document, kyaml nodes included: the
// tag (!!str, !!int, !!float, !!bool, !!null) a scalar v takes when it is
// written where a scalar tagged oldTag was. oldTag is "" when nothing, or a
// map or list, was there. A number or boolean keeps its type when v's text
// reads as one (a JSON number; true, True, TRUE, false, ...); anything else
// becomes a string; where no type was, v's own counts.
func KeptTag(oldTag string, v *yaml.Node) string { return scalartype.Kept(oldTag, v) }
