package redact

import (
	"sort"
	"strings"

	"github.com/piexport/piexport/internal/termtext"
)

// Tool output written for a terminal carries escape sequences, and they
// can fall inside a secret: `grep --color=always` prints
// DB_\e[01;31m\e[KPASSWORD\e[m\e[K=…, and a page or a Markdown file shows
// DB_PASSWORD=… once the sequences are gone. A text that holds an escape
// is therefore also searched as it is shown, with every escape sequence
// taken out (termtext knows where one ends), and what is found there is
// masked in the text as it is, over the sequences it spans.

// esc starts every escape sequence.
const esc = 0x1b

// view is a text as a terminal shows it, as far as escape sequences go,
// and where each of its bytes is in the text.
type view struct {
	text string
	// runs start where the view's bytes stop following the text's one
	// for one: at is where a run starts in the view, raw in the text.
	runs []viewRun
}

type viewRun struct{ at, raw int }

// viewOf returns s without its escape sequences, or nil when s has none.
// Sequences end at the end of a line, as termtext reads them.
func viewOf(s string) *view {
	if strings.IndexByte(s, esc) < 0 {
		return nil
	}
	v := &view{}
	var b strings.Builder
	b.Grow(len(s))
	next := -1 // the offset in s that follows the last byte kept
	keep := func(from, to int) {
		if from == to {
			return
		}
		if from != next {
			v.runs = append(v.runs, viewRun{b.Len(), from})
		}
		b.WriteString(s[from:to])
		next = to
	}
	for lineStart := 0; lineStart <= len(s); {
		lineEnd := len(s)
		if nl := strings.IndexByte(s[lineStart:], '\n'); nl >= 0 {
			lineEnd = lineStart + nl
		}
		line := s[lineStart:lineEnd]
		for i := 0; i < len(line); {
			k := strings.IndexByte(line[i:], esc)
			if k < 0 {
				keep(lineStart+i, lineEnd)
				break
			}
			keep(lineStart+i, lineStart+i+k)
			i = termtext.Next(line, i+k).End
		}
		if lineEnd == len(s) {
			break
		}
		keep(lineEnd, lineEnd+1)
		lineStart = lineEnd + 1
	}
	v.text = b.String()
	return v
}

// raw returns where the view's bytes [start, end) are in the text: from
// the first to the last, with the sequences between them.
func (v *view) raw(start, end int) (int, int) {
	return v.rawAt(start), v.rawAt(end-1) + 1
}

func (v *view) rawAt(p int) int {
	i := sort.Search(len(v.runs), func(i int) bool { return v.runs[i].at > p }) - 1
	return v.runs[i].raw + p - v.runs[i].at
}

// shown returns s as its view shows it: s itself when it holds no escape.
func shown(s string) string {
	if v := viewOf(s); v != nil {
		return v.text
	}
	return s
}

// colours returns the CSI sequences in s (colours, erasures), which the
// placeholder of a value they were inside of keeps, so that the text
// after it looks as it did. Other sequences (OSC strings, which can carry
// a link's URL) are dropped with the value.
func colours(s string) string {
	var out strings.Builder
	for i := strings.IndexByte(s, esc); i >= 0 && i+1 < len(s); {
		end := i + 1
		if s[i+1] == '[' {
			seq := termtext.Next(s, i)
			if last := seq.End - 1; last > i+1 && s[last] >= 0x40 && s[last] <= 0x7e {
				out.WriteString(s[i:seq.End])
			}
			end = max(seq.End, end)
		}
		k := strings.IndexByte(s[end:], esc)
		if k < 0 {
			break
		}
		i = end + k
	}
	return out.String()
}
