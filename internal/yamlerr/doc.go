// Package yamlerr explains YAML syntax errors to the person who wrote the
// YAML: which line of their text is the first that is not YAML any more,
// that line as they wrote it, and what is wrong in words.
//
// yaml.v3 reports the line of the enclosing block ("yaml: line 5: did not
// find expected key" for a key misindented on line 9). Locate asks yaml.v3
// itself where the text breaks: it parses ever longer runs of the text's
// first lines (a binary search) and takes the first line at which yaml.v3
// fails for a reason other than the text ending early. Nothing here reads
// YAML structure on its own.
package yamlerr
