// Package fnrun is the one runner behind every patchwork binary: it reads a
// ResourceList, decodes the function's config, runs the transform, and
// writes the ResourceList back with the transform's results.
//
// It keeps the promises every function makes: a failed run exits 1 with
// error results and the items exactly as they came in (all-or-nothing); the
// annotations kpt and kustomize rely on (internal.config.kubernetes.io/*,
// config.kubernetes.io/*) survive; the same code serves kpt, kustomize and
// the standalone command line.
//
// A function is a Function value: its name, the config kinds it accepts and
// its Transform, which works on a Request (the items, the config, the
// results). Main is a binary's whole main; Command is its command line (a
// ResourceList on stdin, or standalone: a config file and YAML streams);
// RunResourceList and RunBytes run a ResourceList held in a stream or in
// memory. A Transform decodes its config with Decode (unknown fields are
// errors, with their line and the field meant), reads the files a config
// names with Request.ReadFile, or Request.ReadTree for a file or a
// directory's files (relative, below the config's directory, regular files
// of bounded size: a config may come from an author the user does not
// control), and reports with Errorf and Warningf, whose messages
// name the config entry, the resource and the field.
package fnrun
