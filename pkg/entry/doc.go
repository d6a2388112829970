// Package entry is what the transforms share about running the entries of
// a config and reporting on them, so that every function says the same
// thing the same way:
//
//   - Header, the fields a patch function's config starts with (apiVersion,
//     kind, metadata, strict, the merge metadata of package mergemeta),
//     and Require, a config's "no patches" error;
//   - Results and Split: several joined errors reported as one result each;
//   - Names: up to five resources named in a message, "and N more";
//   - Run: the errors of a run so far, findings about a patch itself that
//     are warnings or, with strict: true, errors, the keyed list elements a
//     strategic patch added in some resources and merged in others
//     (smp.Tally), and the summary line of an entry;
//   - Checks and Watch: a config's explain: and validate:, what every
//     transform tells of the changes it makes: before an entry applies to a
//     resource the Watch copies it, after it compares (package treediff),
//     says what changed, field by field, and checks what changed against
//     the resource's schema (package validate).
//
// The results themselves are package fnrun's (Errorf, Warningf,
// Request.Summarize).
package entry
