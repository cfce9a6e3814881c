// Package termtext reads terminal output: the escape sequences in it, the
// hyperlinks it carries (OSC 8), and the text a terminal would show. Tool
// output in a session is often written for a terminal. pi 1.6 shows OSC 8
// hyperlinks in it as links (http, https and mailto only) and drops every
// other escape sequence; the page (render.Terminal), the Markdown export
// and the plain text of previews and search read it through this package,
// so that they agree on where a sequence ends and which links are kept.
//
// Everything here works on one line at a time (terminal output without
// its \n): a sequence cut off by the end of its line ends there, as it
// does on a terminal that is sent the next line.
package termtext

import (
	"strings"
)

// Seq is the escape sequence at the start of a line's s[i:] (see Next).
type Seq struct {
	// End is the index just after the sequence.
	End int
	// SGR is set for a Select Graphic Rendition sequence (CSI … m) with
	// plain parameters, Params.
	SGR    bool
	Params string
	// Link is set for an OSC 8 hyperlink sequence. URL is the link's
	// target as the sequence has it; "" ends the link.
	Link bool
	URL  string
}

// Next reads the escape sequence that starts at line[i], an ESC. Only
// SGR and OSC 8 carry meaning; every other sequence (cursor moves, OSC 0
// titles, OSC 52 clipboard writes, DCS, APC…) is only skipped. An OSC 8
// sequence counts only when it is terminated (BEL or ST): one cut off by
// the end of the line is skipped.
func Next(line string, i int) Seq {
	i++
	if i >= len(line) {
		return Seq{End: i}
	}
	switch b := line[i]; {
	case b == '[': // CSI: parameters, intermediates, one final byte
		i++
		start := i
		for i < len(line) && line[i] >= 0x30 && line[i] <= 0x3f {
			i++
		}
		params := line[start:i]
		for i < len(line) && line[i] >= 0x20 && line[i] <= 0x2f {
			i++
		}
		if i < len(line) && line[i] >= 0x40 && line[i] <= 0x7e {
			sgr := line[i] == 'm' && i == start+len(params) && !strings.ContainsAny(params, "<=>?")
			return Seq{End: i + 1, SGR: sgr, Params: params}
		}
		return Seq{End: i}
	case b == ']' || b == 'P' || b == 'X' || b == '^' || b == '_':
		// OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \).
		// An ESC that does not start ST ends the string there, and
		// starts the next sequence.
		start := i + 1
		for i = start; i < len(line); i++ {
			switch {
			case line[i] == 0x07:
				return stringSeq(b, line[start:i], i+1, true)
			case line[i] == 0x1b && i+1 < len(line) && line[i+1] == '\\':
				return stringSeq(b, line[start:i], i+2, true)
			case line[i] == 0x1b:
				return stringSeq(b, line[start:i], i, false)
			}
		}
		return Seq{End: i}
	case b >= 0x20 && b <= 0x2f: // ESC ( B and other designations
		for i < len(line) && line[i] >= 0x20 && line[i] <= 0x2f {
			i++
		}
		if i < len(line) && line[i] >= 0x30 && line[i] <= 0x7e {
			i++
		}
		return Seq{End: i}
	case b >= 0x30 && b <= 0x7e: // ESC 7, ESC =, ESC c, …
		return Seq{End: i + 1}
	}
	return Seq{End: i}
}

// stringSeq is a control string ended at end; kind is its introducer
// (']' for OSC). An OSC 8 hyperlink is "8;params;URL".
func stringSeq(kind byte, body string, end int, terminated bool) Seq {
	if kind != ']' || !terminated {
		return Seq{End: end}
	}
	rest, ok := strings.CutPrefix(body, "8;")
	if !ok {
		return Seq{End: end}
	}
	_, url, ok := strings.Cut(rest, ";")
	if !ok {
		return Seq{End: end}
	}
	return Seq{End: end, Link: true, URL: url}
}

// LinkTarget returns the target an OSC 8 link may lead to in a page or a
// document, and whether it may lead anywhere: an http, https or mailto
// URL, as pi 1.6 allows, without the spaces and control characters a
// browser would drop from it (so that "java\tscript:" is not taken for
// anything but javascript:). Any other scheme, a relative URL and an
// empty one lead nowhere: the link's text stays, the link goes.
func LinkTarget(url string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, url)
	clean = strings.TrimSpace(clean)
	scheme, _, ok := strings.Cut(clean, ":")
	if !ok {
		return "", false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "mailto":
		return clean, true
	}
	return "", false
}

// Link is a hyperlink in terminal output: its text, as Plain writes it,
// and its target, already checked by LinkTarget.
type Link struct {
	Text, URL string
}

// Plain returns terminal output as the text a terminal shows: escape
// sequences dropped (a hyperlink keeps its text), control characters
// other than tab and newline dropped, and where a line was redrawn with
// \r (progress bars) only the text after its last \r. Text without escape
// sequences, \r or other controls is returned as it is.
func Plain(s string) string {
	text, _ := read(s, false)
	return text
}

// PlainLinks is Plain, and the hyperlinks in s whose targets LinkTarget
// allows, in order. A link whose text is empty, or was overwritten by a
// \r redraw, is left out.
func PlainLinks(s string) (string, []Link) {
	return read(s, true)
}

func read(s string, withLinks bool) (string, []Link) {
	if !needsReading(s) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	var links []Link
	url, linkStart := "", -1 // the open link, and where its text starts in b
	closeLink := func() {
		if linkStart >= 0 {
			if text := strings.TrimSpace(b.String()[linkStart:]); text != "" && withLinks {
				links = append(links, Link{Text: text, URL: url})
			}
		}
		url, linkStart = "", -1
	}
	text := func(t string) { b.WriteString(t) }
	seq := func(seq Seq) {
		if seq.Link {
			closeLink()
			if target, ok := LinkTarget(seq.URL); ok {
				url, linkStart = target, b.Len()
			}
		}
	}
	first := true
	for line := range strings.SplitSeq(s, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		Line(line, text, seq)
	}
	closeLink()
	return b.String(), links
}

// Line walks one line of terminal output (without its \n) as a terminal
// reads it: seq gets each escape sequence (Next), text each run of text
// the terminal shows, control characters other than tab left out. Text
// before the line's last \r is overwritten on a terminal, so it is left
// out too; the sequences in it still reach seq, since the colours and
// links they set carry on. A \r that ends the line is a CRLF line end,
// not a redraw. It runs in one pass with no backtracking.
func Line(line string, text func(string), seq func(Seq)) {
	line = strings.TrimRight(line, "\r")
	cut := strings.LastIndexByte(line, '\r')
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == 0x1b:
			s := Next(line, i)
			seq(s)
			i = s.End
		case c < ' ' && c != '\t' || c == 0x7f:
			i++
		default:
			j := i + 1
			for j < len(line) && !(line[j] < ' ' && line[j] != '\t' || line[j] == 0x7f) {
				j++
			}
			if i > cut {
				text(line[i:j])
			}
			i = j
		}
	}
}

// needsReading reports whether s holds an escape, a carriage return or
// another control character that Plain would act on.
func needsReading(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}
