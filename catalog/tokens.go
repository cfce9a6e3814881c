package catalog

import (
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The index's words are made here, not by FTS5's tokenizer: a word is a
// run of letters and digits (as FTS5's unicode61 has it), folded to lower
// case with its accents removed. The index is fed these words, one space
// apart, and FTS5's ascii tokenizer only splits them again; queries and
// snippets use the same functions, so what is searched, found and marked
// always agree.
//
// Doing it in Go lets the reading goroutines do it, on every core, while
// FTS5 works on one. Every word is indexed, the commonest English ones
// ("the", "on", "will") too: ranking is done in Go (rank.go) from figures
// kept at indexing time, so a common word costs a search no more than a
// rare one, and a phrase keeps all its words.

// maxWord bounds a word's bytes in the index: longer ones (base64, hashes)
// are kept by their start, which is what a prefix search needs.
const maxWord = 64

// appendIndexText appends the index's words of text to dst, each followed
// by a space. It is forWords and appendFolded in one pass, since it runs
// over every byte of the history: ASCII, most of it, takes a table look-up
// per byte.
func appendIndexText(dst []byte, text string) []byte {
	dst, _ = indexText(dst, nil, text)
	return dst
}

// indexText is appendIndexText that also appends to ends where each word
// ends in dst (at its space), when ends is not nil.
func indexText(dst []byte, ends []int32, text string) ([]byte, []int32) {
	// Folded ASCII is as long as its source, and a space ends each word:
	// with room for both, ASCII is written by index, without append's
	// checks.
	dst = slices.Grow(dst, len(text)+1)
	out := dst[:cap(dst)]
	n := len(dst)
	start := -1 // where the word under way starts in out
	for i := 0; i < len(text); {
		// A run of ASCII word bytes, folded as it is copied.
		j := i
		for ; j < len(text); j++ {
			f := asciiFold[text[j]]
			if f == 0 {
				break
			}
			out[n] = f
			n++
		}
		if j > i {
			if start < 0 {
				start = n - (j - i)
			}
			i = j
			if i == len(text) {
				break
			}
		}
		if c := text[i]; c < utf8.RuneSelf {
			// Not a word byte.
			if start >= 0 {
				n, start = endWord(out, n, start), -1
				if ends != nil {
					ends = append(ends, int32(n-1))
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !isWordRune(r) {
			if start >= 0 {
				n, start = endWord(out, n, start), -1
				if ends != nil {
					ends = append(ends, int32(n-1))
				}
			}
			continue
		}
		if start < 0 {
			start = n
		}
		// A folded rune may be longer than its source: append.
		dst = utf8.AppendRune(out[:n], foldRune(r))
		n = len(dst)
		dst = slices.Grow(dst, len(text)-i+1)
		out = dst[:cap(dst)]
	}
	if start >= 0 {
		n = endWord(out, n, start)
		if ends != nil {
			ends = append(ends, int32(n-1))
		}
	}
	return out[:n], ends
}

// endWord ends the word that starts at start of out[:n]: cut to
// maxWord, and followed by a space. It returns the new length.
func endWord(out []byte, n, start int) int {
	if n-start > maxWord {
		n = start + truncLen(out[start:n], maxWord)
	}
	out[n] = ' '
	return n + 1
}

// asciiFold maps an ASCII letter or digit to its folded form, any other
// byte to 0.
var asciiFold = func() (t [256]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

// indexWords returns the index's words of text, in order, repeats kept.
func indexWords(text string) []string {
	var out []string
	forWords(text, func(start, end int) { out = append(out, foldWord(text[start:end])) })
	return out
}

// foldWord folds one word as the index does.
func foldWord(w string) string {
	b := appendFolded(make([]byte, 0, len(w)), w)
	return string(b[:truncLen(b, maxWord)])
}

// truncLen is how much of b fits in max bytes without cutting a rune.
func truncLen(b []byte, max int) int {
	if len(b) <= max {
		return len(b)
	}
	n := max
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// appendFolded appends w in lower case, accents removed.
func appendFolded(dst []byte, w string) []byte {
	for i := 0; i < len(w); {
		c := w[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(w[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += n
	}
	return dst
}

// foldCache keeps the folded form of runes met outside ASCII; those
// below 0x800 (Latin, Greek, Cyrillic, Hebrew, Arabic…), the commonest,
// are in a table made on first use.
var (
	foldCache     sync.Map // rune → rune
	foldTableOnce sync.Once
	foldTable     [0x800]rune
)

func foldRune(r rune) rune {
	if r < 0x800 {
		foldTableOnce.Do(func() {
			for c := rune(0x80); c < 0x800; c++ {
				foldTable[c] = foldSlow(c)
			}
		})
		return foldTable[r]
	}
	if f, ok := foldCache.Load(r); ok {
		return f.(rune)
	}
	f := foldSlow(r)
	foldCache.Store(r, f)
	return f
}

// foldSlow folds r to lower case without its accent: to the first
// character of its canonical decomposition when the rest are marks.
// A Hangul syllable decomposes into letters (its jamo), not marks, and
// stays whole: it is no accented form of its first consonant.
func foldSlow(r rune) rune {
	f := unicode.ToLower(r)
	d := norm.NFD.String(string(f))
	base, n := utf8.DecodeRuneInString(d)
	if base == utf8.RuneError || !isWordRune(base) {
		return f
	}
	for _, c := range d[n:] {
		if !unicode.Is(unicode.M, c) {
			return f
		}
	}
	return base
}

// forWords calls f with the byte range of each word of text.
func forWords(text string, f func(start, end int)) {
	for s, e := nextWord(text, 0); s >= 0; s, e = nextWord(text, e) {
		f(s, e)
	}
}

// nextWord returns the byte range of the first word of text at or after
// from, or -1, -1 when there is none.
func nextWord(text string, from int) (start, end int) {
	start = -1
	for i := from; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			return start, i
		}
		i += n
	}
	if start >= 0 {
		return start, len(text)
	}
	return -1, -1
}

// isWordRune says whether r belongs in a word: letters, numbers and
// private-use characters, as for FTS5's unicode61 tokenizer.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// Words returns the words of text as the index holds them: folded to
// lower case with accents removed. A word's order and repeats are kept.
func Words(text string) []string { return indexWords(text) }
