package budget

// MaxDepth is how deep the tables and arrays of a TOML value may nest, and
// how many segments a field path may have (pkg/fieldpath): merging,
// creating and writing what nests that deep takes work that grows with
// the square of the depth and more (a TOML header of fifty thousand dotted
// parts ran for minutes; a replacement creating a path of a hundred
// thousand segments wrote gigabytes of indentation), and no real
// configuration nests a tenth as deep.
const MaxDepth = 200
