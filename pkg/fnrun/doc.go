// Package fnrun is the one runner behind every patchwork binary: it reads a
// ResourceList, checks its input, runs the transform, and writes the
// ResourceList back with the transform's results; and it is the binaries'
// command line.
//
// It keeps the promises every function makes: a failed run exits 1 with
// error results and the items exactly as they came in (all-or-nothing); the
// annotations kpt and kustomize rely on (internal.config.kubernetes.io/*,
// config.kubernetes.io/*) survive; no result shows a Secret's value
// (package redact); the same code serves kpt, kustomize and the standalone
// command line.
//
// A function is a Function value: its name, the config kinds it accepts, the
// table of the kinds its sibling functions take (TakenBy, handed over by
// the function: the runner names none) and its Transform, which works on a
// Request (the items, the config, the results). Main is a binary's whole
// main; Command is its command line (a ResourceList on stdin, or
// standalone: a config file and YAML streams); RunResourceList and RunBytes
// run a ResourceList held in a stream or in memory. Before the transform
// runs, the runner refuses a config of another kind, malformed metadata
// and keys given twice (package dupkeys). A Transform decodes its config
// and reads the files it names through package fnconfig (Request.Files:
// the config's directory, as the client gave it), and reports with Errorf
// and Warningf, whose messages name the config entry, the resource and the
// field.
package fnrun
