package gfm

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Edits that change the shape of session text, not what it says: a code
// span folded onto one line, a heading made a bold line.

// foldCodeSpan puts a code span that runs over several lines on one: each
// line end, with the container markers and indentation after it, becomes
// one space, which is what a renderer makes of a line end in a code span.
// segs are the span's text, as goldmark read it from src. A line of a
// span that starts with "<" could start an HTML block for a renderer that
// reads the lines otherwise (cmark-gfm, Python-Markdown, which looks for
// block HTML before it looks for code): on one line, nothing starts
// there. A line end whose gap holds anything but white space and ">" is
// left alone.
func foldCodeSpan(src []byte, segs []text.Segment) []mdEdit {
	// goldmark marks where a span's first line ends with an empty piece.
	for len(segs) > 0 && segs[0].Len() == 0 {
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return nil
	}
	// The span runs from its opening backticks' end to its closing
	// backticks, past any line end and markers around its text.
	open := segs[0].Start
	for open > 0 && isFoldGap(src[open-1]) {
		open--
	}
	close := segs[len(segs)-1].Stop
	for close < len(src) && isFoldGap(src[close]) {
		close++
	}
	if open == 0 || src[open-1] != '`' || close >= len(src) || src[close] != '`' {
		return nil
	}
	var edits []mdEdit
	k := 0 // segs[k] is the first piece of text that may start after q
	for q := open; q < close; q++ {
		if src[q] != '\n' {
			continue
		}
		// The text goes on where the next piece of text starts.
		for k < len(segs) && segs[k].Start <= q {
			k++
		}
		next := close
		if k < len(segs) {
			next = min(next, segs[k].Start)
		}
		gap := true
		for _, c := range src[q:next] {
			gap = gap && isFoldGap(c)
		}
		if gap {
			edits = append(edits, mdEdit{at: q, end: next, text: " "})
			q = next - 1
		}
	}
	return edits
}

// isFoldGap says whether c may lie between a code span's lines: a line
// end, indentation, a blockquote's marker.
func isFoldGap(c byte) bool { return c == '\n' || c == ' ' || c == '\t' || c == '>' }

// boldHeading makes a heading of session text a bold line (an empty one
// goes): a message's "## Rules" or a summary's "# Context" must not rank
// with the document's own headings, nor reach a table of contents. An ATX
// heading ("## Rules ##") loses its marks, and a blank line follows it
// where a line of text would run on into it; a setext heading loses its
// underline, which leaves a blank line. The text stays as it is, between
// "**". ok is false when the heading is not where goldmark says.
func boldHeading(src []byte, h *ast.Heading) (edits []mdEdit, ok bool) {
	p := h.Pos()
	if p < 0 || p >= len(src) {
		return nil, false
	}
	lines := h.Lines()
	lineStart := bytes.LastIndexByte(src[:p], '\n') + 1
	lineEnd := lineEndAt(src, p)
	if src[p] == '#' {
		prefix := src[lineStart:p]
		if prev := bytes.LastIndexByte(src[:max(lineStart-1, 0)], '\n') + 1; lineStart > 0 && len(bytes.Trim(prefix, " >")) == 0 &&
			len(bytes.Trim(src[prev:lineStart-1], " \t>")) > 0 {
			// The bold line would be read into the paragraph before it,
			// which a heading ends (unless it starts a list item).
			edits = append(edits, mdEdit{at: lineStart, end: lineStart, text: continuation(prefix) + "\n"})
		}
		if lines.Len() == 0 || lines.At(0).Stop <= lines.At(0).Start {
			edits = append(edits, mdEdit{at: p, end: lineEnd})
		} else {
			c := lines.At(0)
			if c.Start < p || c.Stop > lineEnd {
				return nil, false
			}
			edits = append(edits, mdEdit{at: p, end: c.Start, text: "**"}, mdEdit{at: c.Stop, end: lineEnd, text: "**"})
		}
		if next := lineEnd + 1; next < len(src) && runsOn(src[next:lineEndAt(src, next)]) {
			// The next line would be read into the bold line's paragraph.
			edits = append(edits, mdEdit{at: lineEnd, end: lineEnd, text: "\n" + continuation(src[lineStart:p])})
		}
		return edits, true
	}
	// Setext: the text's lines, then the underline.
	if lines.Len() == 0 {
		return nil, false
	}
	first, last := lines.At(0), lines.At(lines.Len()-1)
	under := lineEndAt(src, last.Start) + 1
	if under >= len(src) {
		return nil, false
	}
	end := lineEndAt(src, under)
	mark := under
	for mark < end && (src[mark] == ' ' || src[mark] == '\t' || src[mark] == '>') {
		mark++
	}
	if mark == end || src[mark] != '=' && src[mark] != '-' {
		return nil, false
	}
	stop := last.Stop
	for stop > last.Start && (src[stop-1] == ' ' || src[stop-1] == '\t' || src[stop-1] == '\n') {
		stop--
	}
	return []mdEdit{
		{at: first.Start, end: first.Start, text: "**"},
		{at: stop, end: stop, text: "**"},
		{at: mark, end: end},
	}, true
}

// lineEndAt is the index of the line end at or after i, or len(src).
func lineEndAt(src []byte, i int) int {
	if nl := bytes.IndexByte(src[i:], '\n'); nl >= 0 {
		return i + nl
	}
	return len(src)
}

// runsOn reports whether a line after a paragraph's line would be read
// into the paragraph: it holds text, after any blockquote markers and
// indentation, and starts no block that ends a paragraph (a list item,
// quote, fence, heading or tag).
func runsOn(line []byte) bool {
	rest := bytes.TrimLeft(line, " \t>")
	if len(rest) == 0 {
		return false
	}
	for _, start := range []string{"- ", "* ", "+ ", "```", "~~~", "#", "<"} {
		if bytes.HasPrefix(rest, []byte(start)) || bytes.Equal(rest, []byte(start[:1])) {
			return false
		}
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	return !(digits > 0 && digits < len(rest) && (rest[digits] == '.' || rest[digits] == ')'))
}

// continuation is the start of a blank line in the containers a line
// starting with prefix is in: its blockquote markers; a list item's
// marker is indentation on the lines after its first.
func continuation(prefix []byte) string {
	out := make([]byte, 0, len(prefix))
	for _, c := range prefix {
		if c == '>' {
			out = append(out, '>')
		} else {
			out = append(out, ' ')
		}
	}
	return string(bytes.TrimRight(out, " "))
}
