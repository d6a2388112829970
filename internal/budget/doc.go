// Package budget bounds the work of one run of a function. A config can
// ask for more than it says: JSON patch copies that each double what they
// copy, YAML aliases of aliases, a template repeating a large value, one
// patch merged into every resource of a large input, a regular expression
// of tens of thousands of instructions, TOML tables nested fifty thousand
// deep. Each of those, unchecked, ends in minutes of work or in a crash
// with the machine's memory gone.
//
// So every run gets one Budget, sized by its input (New, Measure), and
// every operation that can produce more than it reads charges it: the
// nodes and bytes it adds to the output (Budget.Nodes, Budget.Bytes,
// Budget.Tree). A charge over the limit fails with an Error that the
// transform reports under the config entry that asked for the work, and
// every later charge fails too (Budget.Spent), so the run stops there.
// The limits grow with the input (Factor times its size) and never fall
// below MinNodes and MinBytes; PATCHWORK_WORK_LIMIT multiplies them.
//
// What no input size excuses is checked when the config is read: a regular
// expression's program (Regexp, at most MaxProgram instructions: the time
// a match takes grows with it) and the nesting of a TOML value (MaxDepth).
//
// An engine called without a budget (nil) works within one of its own at
// the floors (Or): what one call may do is bounded either way.
package budget
