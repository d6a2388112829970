// Package span reads a JSON or YAML document into a tree of nodes that
// know the byte span of their value in the text: where a value starts and
// ends, where a flow collection closes, how a block scalar's header and
// content are laid out. It is what lets package embedded change the bytes
// of one value and no others.
//
// A text is read as a Format, JSON or YAML (Parse), which the Tree
// records. JSON is read by a strict RFC 8259 tokenizer of its own (encoding/json
// does not tell where a value sits), which checks the whole text once and
// builds the entries of a map or list only when Open asks for them. YAML is
// parsed by yaml.v3, whose nodes tell where a value starts but not where it
// ends; ends are found by reading the text the way the node's style
// dictates. A span read wrongly is caught by the caller, which parses its
// result again and compares.
//
// The tree holds no editing state: a Tree is built once per text and may
// be shared by every edit of that text.
package span
