package session

import (
	"bufio"
	"io"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/piexport/piexport/internal/termsafe"
)

// WriteTreeAt writes the tree as pi's /tree shows it: one line per entry,
// indented only where the conversation branches, with connectors from
// each branch point to its branches (see Layout), each entry's role and a
// one-line preview, its label, and the path to the leaf marked: • on the
// path, * the leaf. Each line starts with the entry's id (as much of it
// as FindEntry needs, at least 8 characters), for --leaf. A width above
// zero cuts each line to that many columns, with "…": a terminal's width.
// What the session holds is escaped (see termsafe), so a message cannot
// set the window title or clear the screen. The path marked is the one
// to at (the session's leaf, or another entry, said "← in view").
func (s *Session) WriteTreeAt(w io.Writer, width int, at *Entry) error {
	bw := bufio.NewWriter(w)
	onPath := map[*Entry]bool{}
	for _, e := range s.Path(at) {
		onPath[e] = true
	}
	ids := s.shortIDs(8)
	// Ids are padded by their width as escaped, since the line is
	// escaped whole below.
	widths := make(map[*Entry]int, len(ids))
	idWidth := 0
	for e, id := range ids {
		widths[e] = uniseg.StringWidth(termsafe.Escape(id))
		idWidth = max(idWidth, widths[e])
	}
	var line strings.Builder
	for _, r := range s.Layout(s.Flatten(), nil) {
		e := r.Entry
		line.Reset()
		line.WriteString(ids[e] + strings.Repeat(" ", idWidth-widths[e]+1))
		switch {
		case e == at:
			line.WriteString("* ")
		case onPath[e]:
			line.WriteString("• ")
		default:
			line.WriteString("  ")
		}
		line.WriteString(RailGlyphs(r.Rails))
		if e.Label != "" {
			line.WriteString("[" + e.Label + "] ")
		}
		p := s.Preview(e, "")
		line.WriteString(p.Role)
		if p.Role != "" {
			line.WriteString(" ")
		}
		line.WriteString(p.Text)
		switch {
		case e == s.Leaf:
			line.WriteString("  ← leaf")
		case e == at:
			line.WriteString("  ← in view")
		}
		bw.WriteString(fitWidth(termsafe.Escape(line.String()), width))
		bw.WriteString("\n")
	}
	return bw.Flush()
}

// fitWidth cuts s to at most width terminal columns (a wide character
// takes two), marking a cut with "…". width <= 0 leaves s as it is.
func fitWidth(s string, width int) string {
	if width <= 0 || len(s) <= width || uniseg.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	cols := 0
	state := -1
	rest := s
	for len(rest) > 0 {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if cols+w > width-1 {
			break
		}
		b.WriteString(cluster)
		cols += w
	}
	return b.String() + "…"
}
