// Package fnconfig reads a function's config the way its user wrote it:
// strictly, with every message placed on a line of the user's own file,
// and the files it names read only below its directory.
//
//   - Decode and DecodeFile decode a config (or a file it names) into a
//     struct with json tags. An unknown field, or a value of the wrong
//     kind, is an error naming its path, its line in the user's file
//     (which the client may have rewritten on the way: kpt fn render, kpt
//     fn eval, kustomize and standalone each differ, see lines.go) and the
//     field probably meant. CheckShape refuses a config that is not an
//     object at all.
//   - Files reads what a config names (ReadFile, ReadTree, InlineOrFile):
//     relative paths, below the config's directory once every symbolic
//     link is resolved, regular files of bounded size (MaxFileSizeEnv). A
//     config may come from an author the person running the function does
//     not control. PackageDir decides that directory from what kpt fn
//     render claims, confirmed by the file system.
//   - SyntaxError places a YAML syntax error in an entry's text (an inline
//     patch) on the line of the user's file where the text breaks.
//
// The runner, pkg/fnrun, hands a transform its config and a Files value
// (Request.Files); the transforms decode with Decode and pass Files to
// whatever reads files for them (mergemeta.Load).
package fnconfig
