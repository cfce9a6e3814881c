package catalog

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Snippet lengths, in bytes: context before the first match, and the
// whole snippet.
const (
	snippetBefore = 60
	snippetLen    = 220
)

type word struct {
	start, end int
	folded     string
}

// snippet cuts the part of text around the first match of terms, on one
// line, and marks every match in it: byte ranges [start, end) of the
// snippet, in order.
func snippet(text string, terms []queryTerm) (string, [][2]int) {
	// The words as the index has them: stopwords are not there, so a
	// phrase matches across them.
	var words []word
	forWords(text, func(s, e int) {
		if w := foldWord(text[s:e]); !isStopword([]byte(w)) {
			words = append(words, word{s, e, w})
		}
	})
	// matches are word index ranges [i, j).
	var matches [][2]int
	for i := range words {
		for _, t := range terms {
			if j := matchAt(words, i, t); j > i {
				matches = append(matches, [2]int{i, j})
			}
		}
	}
	first := 0
	if len(matches) > 0 {
		first = words[matches[0][0]].start
	}
	start := max(0, first-snippetBefore)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	if start > 0 {
		if k := strings.IndexAny(text[start:first], " \n\t"); k >= 0 {
			start += k + 1
		}
	}
	end := min(len(text), start+snippetLen)
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}

	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	// White space runs become one space, so marks shift as they go.
	var marks [][2]int
	m := 0
	prevSpace := true // no space at the start
	for i := start; i < end; {
		for m < len(matches) && words[matches[m][0]].start < i {
			m++
		}
		if m < len(matches) && words[matches[m][0]].start == i {
			s := b.Len()
			stop := min(end, words[matches[m][1]-1].end)
			b.WriteString(oneLineText(text[i:stop]))
			if n := len(marks); n > 0 && marks[n-1][1] >= s {
				marks[n-1][1] = b.Len()
			} else {
				marks = append(marks, [2]int{s, b.Len()})
			}
			i = stop
			prevSpace = false
			m++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			if !prevSpace {
				b.WriteByte(' ')
			}
			prevSpace = true
		} else {
			b.WriteString(text[i : i+n])
			prevSpace = false
		}
		i += n
	}
	if end < len(text) {
		b.WriteString("…")
	}
	return b.String(), marks
}

// matchAt returns the end of t's match starting at word i, or i.
func matchAt(words []word, i int, t queryTerm) int {
	if i+len(t.words) > len(words) {
		return i
	}
	for k, w := range t.words {
		got := words[i+k].folded
		last := k == len(t.words)-1
		if got != w && !(last && t.prefix && strings.HasPrefix(got, w)) {
			return i
		}
	}
	return i + len(t.words)
}

// oneLineText folds runs of white space into one space.
func oneLineText(s string) string {
	if !strings.ContainsAny(s, "\n\t\r\v\f") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
