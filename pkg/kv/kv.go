package kv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation"
)

// Pair is one key and its value, with where it came from for messages
// ("literals[2]", "envs[0] (db.env) line 4", "files[1]").
type Pair struct {
	Key, Value string
	Source     string
	// FromEnv marks a pair read from an env file, whose lines messages
	// never quote, key included: a line without "=" is all key, and may
	// be a password.
	FromEnv bool
}

// Sources are a generator's inputs. Literals are already split into key and
// value (ParseLiteral does it for the "key=value" form).
type Sources struct {
	Envs     []string
	Literals []Pair
	Files    []string
}

// ReadFunc reads a file named in a generator, relative to the config.
type ReadFunc func(path string) ([]byte, error)

// Load returns the pairs in kustomize's order: envs, literals, files.
// Every file is read and every key checked: the error joins all that is
// wrong (errors.Join), and the pairs are those that loaded, so that a run
// reports every problem at once.
func Load(src Sources, read ReadFunc) ([]Pair, error) {
	envs, envErr := loadEnvs(src.Envs, read)
	files, fileErr := loadFiles(src.Files, read)
	all := append(append(envs, src.Literals...), files...)
	return all, errors.Join(envErr, fileErr, checkKeys(all))
}

// loadEnvs reads the env files, in order.
func loadEnvs(envs []string, read ReadFunc) ([]Pair, error) {
	var all []Pair
	var errs []error
	for i, p := range envs {
		where := fmt.Sprintf("envs[%d]", i)
		b, err := read(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		pairs, err := ParseEnv(b, fmt.Sprintf("%s (%s)", where, p))
		errs = append(errs, err)
		all = append(all, pairs...)
	}
	return all, errors.Join(errs...)
}

// loadFiles reads the files, each a pair.
func loadFiles(files []string, read ReadFunc) ([]Pair, error) {
	var all []Pair
	var errs []error
	for i, s := range files {
		where := fmt.Sprintf("files[%d]", i)
		key, p, err := ParseFileSource(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		b, err := read(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
			continue
		}
		// a value from a file is told by the file's name (the user's own),
		// not only by its place in the config
		all = append(all, Pair{Key: key, Value: string(b), Source: fmt.Sprintf("%s, file %s", where, p)})
	}
	return all, errors.Join(errs...)
}

// checkKeys refuses keys the API server refuses, and keys given twice.
func checkKeys(all []Pair) error {
	var errs []error
	seen := make(map[string]string, len(all))
	for _, p := range all {
		first, dup := seen[p.Key]
		errs = append(errs, p.checkKey(first, dup))
		if !dup {
			seen[p.Key] = p.Source
		}
	}
	return errors.Join(errs...)
}

// checkKey checks the pair's key, given already by first when dup. The key
// of an env file's line is never quoted (see Pair.FromEnv).
func (p Pair) checkKey(first string, dup bool) error {
	if p.FromEnv {
		if errs := validation.IsConfigMapKey(p.Key); len(errs) > 0 {
			return fmt.Errorf("%s: the key before '=' is not valid: %s", p.Source, keyProblem(p.Key, errs))
		}
		if dup {
			return fmt.Errorf("%s: the key is already given by %s", p.Source, first)
		}
		return nil
	}
	if err := ValidKey(p.Key); err != nil {
		return fmt.Errorf("%s: %w", p.Source, err)
	}
	if dup {
		return fmt.Errorf("%s: key %q is already given by %s", p.Source, p.Key, first)
	}
	return nil
}

// ValidKey rejects keys the API server rejects in a ConfigMap or Secret:
// only letters, digits, '-', '_' and '.', at most 253 characters, not "."
// or "..", not starting with "..". (kustomize itself does not check, and
// leaves the error to the cluster.)
func ValidKey(k string) error {
	if errs := validation.IsConfigMapKey(k); len(errs) > 0 {
		return fmt.Errorf("invalid key %q: %s", k, strings.Join(errs, "; "))
	}
	return nil
}

// keyProblem says what is wrong with an env file's key without quoting it:
// the first character a key may not hold, by its code point (a byte order
// mark or a no-break space is invisible anyway), or the validator's words.
func keyProblem(key string, errs []string) string {
	for _, r := range key {
		if !keyRune(r) {
			return fmt.Sprintf("it holds the character U+%04X, and a key holds only letters, digits, '-', '_' and '.'", r)
		}
	}
	return strings.Join(errs, "; ")
}

// keyRune tells whether a key may hold r: an ASCII letter or digit, '-',
// '_' or '.'.
func keyRune(r rune) bool {
	return r < utf8.RuneSelf && (r == '-' || r == '.' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// ParseEnv reads an env file. where names the file in errors, which name
// a line by its number and never quote it: an env file of a
// secretGenerator holds passwords.
func ParseEnv(content []byte, where string) ([]Pair, error) {
	var pairs []Pair
	sc := bufio.NewScanner(bytes.NewReader(content))
	sc.Buffer(make([]byte, 0, 64*1024), len(content)+1)
	for n := 1; sc.Scan(); n++ {
		p, ok, err := envLine(sc.Bytes(), n, where)
		if err != nil {
			return nil, err
		}
		if ok {
			pairs = append(pairs, p)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return pairs, nil
}

// envLine reads line n of an env file: its pair, or none (ok false) for a
// blank line or a comment. The first line may start with a byte order mark.
func envLine(line []byte, n int, where string) (Pair, bool, error) {
	at := fmt.Sprintf("%s line %d", where, n)
	if !utf8.Valid(line) {
		return Pair{}, false, fmt.Errorf("%s: not valid UTF-8", at)
	}
	if n == 1 {
		line = bytes.TrimPrefix(line, bom)
	}
	line = bytes.TrimLeftFunc(line, unicode.IsSpace)
	if len(line) == 0 || line[0] == '#' {
		return Pair{}, false, nil
	}
	p, err := envPair(string(line), at)
	return p, err == nil, err
}

// envPair splits an env line (at, for messages) into key and value: on its
// first "=", or all of it a key.
func envPair(line, at string) (Pair, error) {
	key, value, hasEq := strings.Cut(line, "=")
	if key == "" {
		return Pair{}, fmt.Errorf("%s: no key before '='", at)
	}
	if !hasEq && ValidKey(key) != nil {
		return Pair{}, fmt.Errorf("%s: the line has no '=' (KEY=value expected), and all of it is no valid key "+
			"(a key holds only letters, digits, '-', '_' and '.'); the line is not shown, since it may hold a secret", at)
	}
	return Pair{Key: key, Value: value, Source: at, FromEnv: true}, nil
}

// ParseLiteral splits a "key=value" literal on its first "=". A value
// wrapped in matching quotes (single or double) loses them. Errors do not
// quote the literal: it may hold a secret.
func ParseLiteral(s string) (key, value string, err error) {
	key, value, ok := strings.Cut(s, "=")
	if !ok {
		return "", "", fmt.Errorf("invalid literal: expected key=value, found no '='")
	}
	if key == "" {
		return "", "", fmt.Errorf("invalid literal: expected key=value, found no key before '='")
	}
	if len(value) >= 2 && value[0] == value[len(value)-1] && (value[0] == '"' || value[0] == '\'') {
		value = value[1 : len(value)-1]
	}
	return key, value, nil
}

// ParseFileSource splits a file source: "path" (key = the file's base
// name) or "key=path". Neither part may contain another "=".
func ParseFileSource(s string) (key, file string, err error) {
	switch n := strings.Count(s, "="); {
	case n == 0:
		return path.Base(s), s, nil
	case n > 1:
		return "", "", fmt.Errorf("file source %q: the key or the path contains '='", s)
	case strings.HasPrefix(s, "="):
		return "", "", fmt.Errorf("file source %q: missing key before '='", s)
	case strings.HasSuffix(s, "="):
		return "", "", fmt.Errorf("file source %q: missing path after '='", s)
	}
	key, file, _ = strings.Cut(s, "=")
	return key, file, nil
}
