// Package kv loads the key/value pairs of a ConfigMap or Secret generator
// the way kustomize does: env files first, then literals, then files; a key
// given twice is an error.
//
// Env files: a UTF-8 byte order mark at the start is dropped, lines are
// split on the first "=", leading white space is trimmed, empty lines and
// lines starting with "#" are skipped, a line without "=" gives the empty
// value (when all of it is a valid key; otherwise it is an error), and a
// line's "\r" ending is dropped. Literals are "key=value"; a
// value wrapped in matching single or double quotes loses them. Files are
// "path" (the key is the file's base name) or "key=path".
//
// Load reads a generator's Sources through a ReadFunc and checks every key
// (ValidKey: the API server's rule, which kustomize leaves to the cluster);
// ParseEnv, ParseLiteral and ParseFileSource read one source each. Every
// Pair says where it came from. No error quotes a value, nor an env file's
// line or key: a secretGenerator's env file holds passwords, and a line
// without "=" may be one.
package kv
