package session

import (
	"bufio"
	"io"
	"strings"
)

// WriteTree writes the tree as pi's /tree shows it: one line per entry,
// indented only where the conversation branches, with each entry's role and
// a one-line preview, its label, and the leaf marked.
func (s *Session) WriteTree(w io.Writer) error {
	bw := bufio.NewWriter(w)
	onPath := map[*Entry]bool{}
	for _, e := range s.Path(s.Leaf) {
		onPath[e] = true
	}
	for _, n := range s.Flatten() {
		e := n.Entry
		bw.WriteString(strings.Repeat("  ", n.Depth))
		switch {
		case e == s.Leaf:
			bw.WriteString("* ")
		case onPath[e]:
			bw.WriteString("• ")
		default:
			bw.WriteString("  ")
		}
		if e.Label != "" {
			bw.WriteString("[" + e.Label + "] ")
		}
		p := s.Preview(e, "")
		bw.WriteString(p.Role)
		if p.Role != "" {
			bw.WriteString(" ")
		}
		bw.WriteString(p.Text)
		if e == s.Leaf {
			bw.WriteString("  ← leaf")
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}
