package catalog

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The index's words are made here, not by FTS5's tokenizer: a word is a
// run of letters and digits (as FTS5's unicode61 has it), folded to lower
// case with its accents removed, and the commonest English words are left
// out. The index is fed these words, one space apart, and FTS5's ascii
// tokenizer only splits them again; queries and snippets use the same
// functions, so what is searched, found and marked always agree.
//
// Doing it in Go lets the reading goroutines do it, on every core, while
// FTS5 works on one; and the stopwords are a fifth of the words of a
// generated history ("the" alone a tenth), so leaving them out makes the
// index smaller and phrase searches much cheaper: FTS5 checks a phrase
// against the position lists of all its words, and those of "the" are
// the longest of all.

// Stopwords (isStopword) are not indexed. A phrase is matched without
// them: "the lock iterator" finds "lock iterator" and "lock the iterator"
// alike.

// maxWord bounds a word's bytes in the index: longer ones (base64, hashes)
// are kept by their start, which is what a prefix search needs.
const maxWord = 64

// appendIndexText appends the index's words of text to dst, each followed
// by a space. It is forWords and appendFolded in one pass, since it runs
// over every byte of the history: ASCII, most of it, takes a table look-up
// per byte.
func appendIndexText(dst []byte, text string) []byte {
	n := -1 // where the word under way starts in dst
	end := func() {
		if n < 0 {
			return
		}
		w := dst[n:]
		if len(w) > maxWord {
			dst = dst[:n+truncLen(w, maxWord)]
			w = dst[n:]
		}
		if isStopword(w) {
			dst = dst[:n]
		} else {
			dst = append(dst, ' ')
		}
		n = -1
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiFold[c] == 0 {
				end()
				i++
				continue
			}
			// A run of ASCII word bytes is copied whole and folded in
			// place.
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && asciiFold[text[j]] != 0 {
				j++
			}
			if n < 0 {
				n = len(dst)
			}
			k := len(dst)
			dst = append(dst, text[i:j]...)
			for ; k < len(dst); k++ {
				dst[k] = asciiFold[dst[k]]
			}
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if !isWordRune(r) {
			end()
			continue
		}
		if n < 0 {
			n = len(dst)
		}
		dst = utf8.AppendRune(dst, foldRune(r))
	}
	end()
	return dst
}

// asciiFold maps an ASCII letter or digit to its folded form, anything
// else to 0.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c] = c
		t[c-'a'+'A'] = c
	}
	return t
}()

// isStopword says whether w is one of stopwords, without a map look-up
// per word of the history.
func isStopword(w []byte) bool {
	switch len(w) {
	case 1, 2, 3, 4, 5:
		switch string(w) {
		case "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from",
			"has", "have", "i", "if", "in", "is", "it", "its", "of", "on", "or",
			"so", "that", "the", "this", "to", "was", "we", "were", "will", "with":
			return true
		}
	}
	return false
}

// indexWords returns the index's words of text, stopwords left out.
func indexWords(text string) []string {
	var out []string
	forWords(text, func(start, end int) {
		if w := foldWord(text[start:end]); !isStopword([]byte(w)) {
			out = append(out, w)
		}
	})
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

// foldCache keeps the folded form of runes met outside ASCII.
var foldCache sync.Map // rune → rune

func foldRune(r rune) rune {
	if f, ok := foldCache.Load(r); ok {
		return f.(rune)
	}
	f := unicode.ToLower(r)
	if d := norm.NFD.String(string(f)); d != "" {
		base, _ := utf8.DecodeRuneInString(d)
		if base != utf8.RuneError && isWordRune(base) {
			f = base
		}
	}
	foldCache.Store(r, f)
	return f
}

// forWords calls f with the byte range of each word of text.
func forWords(text string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i)
			start = -1
		}
		i += n
	}
	if start >= 0 {
		f(start, len(text))
	}
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
// lower case with accents removed, the commonest English words left out.
// A word's order and repeats are kept.
func Words(text string) []string { return indexWords(text) }
