// Package locate finds where a path leads in a document read by package
// span: the values it names (following wildcards and [key=value] matchers,
// through aliases when only reading), the strings it continues into, and
// the maps, lists and nulls where an edit would create what is missing.
// Keys are found as YAML readers find them: a key spelled otherwise that
// readers take for the same one is a duplicate, and a new key may not
// clash with one.
//
// It also says what went wrong in words: Error, which names the path's
// segment and the place holding the text, and Document's descriptions of
// nodes ("JSON object at line 3, column 5"), which never show a secret
// value. Nothing here edits: planning and writing an edit build on it.
package locate
