package redact

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The user's own words (Options.Literals) are masked in any case and in
// any script: "Müller" also where the text says MÜLLER, "Дмитрий" where
// it says ДМИТРИЙ, "Ångström" also where the text spells Å as an A and a
// combining ring. Both sides are compared folded: each character
// decomposed canonically (as NFD has it, so that the composed and the
// decomposed forms are one) and case-folded with Unicode's simple case
// folding (one character for one). Folding can change a character's
// length in bytes (the Kelvin sign is three bytes, its k one), so the
// text is folded as it is scanned, and every match is taken back to the
// characters of the text it covers.
//
// Literals that fold to ASCII are found by the keyword search every text
// gets, which ignores ASCII case; the folded search runs only on texts
// with a byte above ASCII, since only those can hold another case of a
// literal than the keyword search finds.

// foldLiteral returns s as literals are compared.
func foldLiteral(s string) string {
	var b []byte
	for i := 0; i < len(s); {
		var n int
		b, n = appendFolded(b, s[i:])
		i += n
	}
	return string(b)
}

// appendFolded appends the folded form of the character s starts with
// and returns how many bytes of s it took. A byte that is not UTF-8 is
// kept as it is.
func appendFolded(b []byte, s string) ([]byte, int) {
	if c := s[0]; c < utf8.RuneSelf {
		return append(b, lower(c)), 1
	}
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return append(b, s[0]), 1
	}
	if hangulFirst <= r && r <= hangulLast {
		for _, j := range decomposeHangul(r) {
			b = utf8.AppendRune(b, j)
		}
		return b, size
	}
	dec := norm.NFD.PropertiesString(s[:size]).Decomposition()
	if dec == nil {
		return utf8.AppendRune(b, foldRune(r)), size
	}
	for _, d := range string(dec) {
		b = utf8.AppendRune(b, foldRune(d))
	}
	return b, size
}

// foldRune is r's simple case folding: the same rune for every rune of
// its case orbit (k, K and the Kelvin sign; σ, ς and Σ).
func foldRune(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	if 'A' <= m && m <= 'Z' {
		m += 'a' - 'A' // ASCII letters fold as the keyword search folds them
	}
	return m
}

// Hangul syllables decompose by arithmetic, which the norm tables leave
// out of Properties.Decomposition.
const (
	hangulFirst = 0xAC00
	hangulLast  = 0xD7A3
)

func decomposeHangul(r rune) []rune {
	const lBase, vBase, tBase, vCount, tCount = 0x1100, 0x1161, 0x11A7, 21, 28
	s := r - hangulFirst
	out := []rune{lBase + s/(vCount*tCount), vBase + s%(vCount*tCount)/tCount}
	if t := s % tCount; t != 0 {
		out = append(out, tBase+t)
	}
	return out
}

// combining says whether s starts with a character that combines with
// the one before it (an accent written apart): a literal that ends before
// it does not end there.
func combining(s string) bool {
	return s != "" && s[0] >= utf8.RuneSelf && norm.NFD.PropertiesString(s).LeadCCC() != 0
}

// hasNonASCII says whether s holds a byte above ASCII.
func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// scanFolded calls found for every occurrence of a word of a, whose words
// are folded literals, in text folded as it is read: start and end are
// where it is in text, on whole characters. A match that begins or ends
// inside the folded form of one character of text (an A that is half of
// an Å), or that a combining character follows, is none.
func (a *automaton) scanFolded(text string, found func(word, start, end int)) {
	if len(a.words) == 0 {
		return
	}
	longest := 0
	for _, w := range a.words {
		longest = max(longest, len(w))
	}
	// For the last bytes fed: where in text the character they come from
	// starts, and whether the byte is the first of its folding.
	starts := make([]int, longest)
	firsts := make([]bool, longest)
	n := int32(a.nclass)
	next, class := a.next, &a.class
	state := int32(0)
	fed := 0
	var buf []byte
	type match struct{ word, length int }
	var matches []match
	for i := 0; i < len(text); {
		var size int
		buf, size = appendFolded(buf[:0], text[i:])
		matches = matches[:0]
		for k, c := range buf {
			starts[fed%longest], firsts[fed%longest] = i, k == 0
			fed++
			state = next[state+int32(class[c])]
			if state < 0 {
				state &^= ends
				if k == len(buf)-1 {
					for _, w := range a.out[state/n] {
						matches = append(matches, match{int(w), len(a.words[w])})
					}
				}
			}
		}
		i += size
		if len(matches) == 0 || combining(text[i:]) {
			continue
		}
		for _, m := range matches {
			first := (fed - m.length) % longest
			if firsts[first] {
				found(m.word, starts[first], i)
			}
		}
	}
}
