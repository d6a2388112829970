package suggest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Nearest returns the candidate closest to word, or "" when none is close
// enough to be a likely typo. Closeness is the optimal-string-alignment edit
// distance (insertions, deletions, substitutions and swaps of neighbours
// each cost one) between the lower-cased strings; a candidate equal but for
// case is always close. The allowed distance grows with the word: one edit
// for up to four characters, then one more per four characters, at most
// three, and fewer than the word has characters. Ties go to the earlier candidate, so callers pass them in a
// stable order.
//
// When no candidate is that close, a camelCase name that lacks, or adds,
// one whole word of a candidate is still a likely slip: storageClass for
// storageClassName, imagePolicy for imagePullPolicy. Such a word is four
// or more edits away, past any limit that keeps unrelated short names
// apart, so it is matched word by word instead; only a candidate that is
// the one such match is suggested.
func Nearest(word string, candidates []string) string {
	if near := nearestByEdits(word, candidates); near != "" {
		return near
	}
	return oneWordApart(word, candidates)
}

func nearestByEdits(word string, candidates []string) string {
	best, bestDist := "", -1
	limit := Limit(word)
	lw := strings.ToLower(word)
	for _, c := range candidates {
		if c == word {
			continue
		}
		d := Distance(lw, strings.ToLower(c), limit)
		if !nearEnough(d, limit, word) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// nearEnough reports whether a candidate d edits away from word is a
// likely typo of it: within limit, and not so far that nothing of the
// word is left.
func nearEnough(d, limit int, word string) bool {
	return d <= limit && (d == 0 || d < utf8.RuneCountInString(word))
}

// Limit is the largest edit distance Nearest accepts for word.
func Limit(word string) int {
	n := utf8.RuneCountInString(word)
	return max(min(1+(n-1)/4, 3), 1)
}

// Distance is the optimal-string-alignment distance between a and b,
// counted in runes. It stops early and returns a value above max once the
// distance is known to exceed max.
func Distance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	// three rows: two back (for swaps), previous, current
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		if distanceRow(ra, rb, i, prev2, prev, cur) > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// distanceRow fills cur, row i of Distance's table (ra[:i] against each
// prefix of rb), from the two rows before it, and returns its smallest
// value.
func distanceRow(ra, rb []rune, i int, prev2, prev, cur []int) int {
	cur[0] = i
	rowMin := cur[0]
	for j := 1; j <= len(rb); j++ {
		cost := 1
		if ra[i-1] == rb[j-1] {
			cost = 0
		}
		v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		if swapped(ra, rb, i, j) {
			v = min(v, prev2[j-2]+1)
		}
		cur[j] = v
		rowMin = min(rowMin, v)
	}
	return rowMin
}

// swapped reports whether ra[:i] and rb[:j] end in the same two runes,
// swapped.
func swapped(ra, rb []rune, i, j int) bool {
	return i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1]
}

// oneWordApart returns the one candidate whose camelCase words are word's
// with a single word more or less (compared without regard to case), or ""
// when there is none or more than one. Both must have two words or more:
// a lone word (name, image) says too little to guess from.
func oneWordApart(word string, candidates []string) string {
	ws := camelWords(word)
	if len(ws) < 2 {
		return ""
	}
	found := ""
	for _, c := range candidates {
		if c == word || !oneWordMoreOrLess(camelWords(c), ws) {
			continue
		}
		if found != "" && found != c {
			return "" // two such candidates: no guess
		}
		found = c
	}
	return found
}

// oneWordMoreOrLess reports whether the words cs, two or more, are ws
// with one word more or one less.
func oneWordMoreOrLess(cs, ws []string) bool {
	return len(cs) >= 2 && (dropsOne(cs, ws) || dropsOne(ws, cs))
}

// dropsOne reports whether short is long without one of its words.
func dropsOne(long, short []string) bool {
	if len(long) != len(short)+1 {
		return false
	}
	i := 0
	for i < len(short) && long[i] == short[i] {
		i++
	}
	for ; i < len(short); i++ {
		if long[i+1] != short[i] {
			return false
		}
	}
	return true
}

// camelWords splits a camelCase name into its lower-cased words:
// storageClassName → storage, class, name. A run of capitals is one word
// (podIP → pod, ip); digits stay with the word before them.
func camelWords(s string) []string {
	var words []string
	start := 0
	rs := []rune(s)
	for i := 1; i < len(rs); i++ {
		if wordStart(rs, i) {
			words = append(words, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	if start < len(rs) {
		words = append(words, strings.ToLower(string(rs[start:])))
	}
	return words
}

// wordStart reports whether rs[i] starts a camelCase word: a capital after
// anything but a capital, or a capital between one and a small letter
// (the second P of podIPPool: pod, ip, pool).
func wordStart(rs []rune, i int) bool {
	return unicode.IsUpper(rs[i]) && (!unicode.IsUpper(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]))
}
