package catalog

import (
	"cmp"
	"slices"
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

// word is a word of a text and where its folded form is in a buffer.
type word struct {
	start, end int
	fs, fe     int
}

// snippet cuts the part of text around the first match of terms, on one
// line, and marks every match in it: byte ranges [start, end) of the
// snippet, in order. Words are folded only as far as the snippet reaches:
// an entry can be long, and a page of hits cuts fifty snippets.
func snippet(text string, terms []queryTerm) (string, [][2]int) {
	var words []word
	var fold []byte
	// matches are word index ranges [i, j).
	var matches [][2]int
	stop := len(text) // words that start past it are not needed
	for s, e := nextWord(text, 0); s >= 0; s, e = nextWord(text, e) {
		if s >= stop {
			break
		}
		fs := len(fold)
		fold = appendFolded(fold, text[s:e])
		fold = fold[:fs+truncLen(fold[fs:], maxWord)]
		words = append(words, word{s, e, fs, len(fold)})
		for _, t := range terms {
			if i := len(words) - len(t.words); i >= 0 && matchAt(words, fold, i, t) {
				if len(matches) == 0 {
					// The snippet ends about snippetLen past the first
					// match; a little more for a phrase that began
					// before it.
					stop = min(len(text), words[i].start+snippetLen+64)
				}
				matches = append(matches, [2]int{i, len(words)})
			}
		}
	}
	slices.SortStableFunc(matches, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
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

// matchAt says whether t matches the words from i on (all there are).
func matchAt(words []word, fold []byte, i int, t queryTerm) bool {
	for k, w := range t.words {
		got := fold[words[i+k].fs:words[i+k].fe]
		last := k == len(t.words)-1
		if string(got) != w && !(last && t.prefix && strings.HasPrefix(string(got), w)) {
			return false
		}
	}
	return true
}

// oneLineText folds runs of white space into one space.
func oneLineText(s string) string {
	if !strings.ContainsAny(s, "\n\t\r\v\f") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// hitSnippetSafely is hitSnippet where a panic (reading the line, or
// loading the session to mask it) would end the program: the hit is
// listed without a snippet.
func (c *Catalog) hitSnippetSafely(r *record, k candidate, terms []queryTerm) (text string, marks [][2]int) {
	defer func() {
		if recover() != nil {
			text, marks = "", nil
		}
	}()
	return c.hitSnippet(r, k, terms)
}
