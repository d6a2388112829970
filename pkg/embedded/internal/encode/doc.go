// Package encode spells values for the document they are written into:
// JSON scalars and strings, YAML scalars in the style of the one they
// replace when it can hold the new text (plain only where package scalar
// says a string may be plain), new keys, and new maps and lists laid out
// as the document lays out its own (JSONLayout, YAMLLayout). ReadBack
// says what a reader will take each spelling for, which is what the
// edit's verification expects to find.
//
// It knows values and styles, not where they go: package write works out
// the byte spans and hands this package the layout it found there.
package encode
