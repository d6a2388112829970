package budget

// MaxDepth is how deep the tables and arrays of a TOML value may nest:
// merging and writing it takes work that grows with the square of the
// depth and more (a header of fifty thousand dotted parts ran for minutes),
// and no real configuration nests a tenth as deep.
const MaxDepth = 200
