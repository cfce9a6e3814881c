package session

import "strings"

// Rails draw a tree's structure to the left of each row, one mark per
// level of depth, outermost first:
//
//   - user: Add a /health endpoint
//     ├─ assistant: Let me look at the router.
//     │  ├─ [read: cmd/api/main.go]
//     │  │  assistant: I'll add the handler.
//     │  └─ [branch summary]: Goal · Add /health.
//     │     user: Use a http.ServeMux instead
//     └─ [model: gpt-5]
//     assistant: (alternative) I would start from chi.
//
// A row whose parent has several children starts a branch and gets a
// connector; the rows that follow it on the same branch stay at its depth,
// under a line that goes on while later branches of that parent follow. A
// long conversation without branches has no rails at all.
const (
	RailNone  = ' ' // nothing at this level
	RailLine  = '|' // a branch above goes on below this row
	RailTee   = '+' // this row starts a branch, and more follow (├─)
	RailElbow = '`' // this row starts its parent's last branch (└─)
)

// Row is one row of a drawn tree (see Layout).
type Row struct {
	Entry *Entry
	// Shown is false for a row the caller hides; its rails then continue
	// those of its nearest shown ancestor, so that it can still be drawn
	// where a reader sees every row.
	Shown bool
	// Rails holds one of RailNone, RailLine, RailTee or RailElbow per level
	// of depth, outermost first.
	Rails string
	// Forks counts the entry's shown children when there are several: it is
	// a branch point. 0 otherwise.
	Forks int
}

// Depth is how many levels deep the row is drawn.
func (r Row) Depth() int { return len(r.Rails) }

// RailGlyphs draws rails as box-drawing text, two columns per level.
func RailGlyphs(rails string) string {
	var b strings.Builder
	for i := 0; i < len(rails); i++ {
		switch rails[i] {
		case RailLine:
			b.WriteString("│  ")
		case RailTee:
			b.WriteString("├─ ")
		case RailElbow:
			b.WriteString("└─ ")
		default:
			b.WriteString("   ")
		}
	}
	return b.String()
}

// Layout lays out the tree of nodes (from Flatten) as drawn rows, counting
// only the entries shown reports true for (nil: all of them): a hidden
// entry's children hang from its nearest shown ancestor, and branch points
// are where a shown entry has several shown children (several roots make
// one too). assets/treelayout.js lays out a filtered tree the same way
// (page/js_test.go holds the two to the same cases).
func (s *Session) Layout(nodes []Node, shown func(*Entry) bool) []Row {
	n := len(nodes)
	pos := make(map[*Entry]int, n)
	for i, nd := range nodes {
		pos[nd.Entry] = i
	}
	rows := make([]Row, n)
	// up[i] is the nearest shown ancestor of node i, or n (a virtual root
	// above the roots); nodes come parents first.
	up := make([]int, n)
	kids := make([]int, n+1)
	last := make([]int, n+1)
	for i, nd := range nodes {
		rows[i] = Row{Entry: nd.Entry, Shown: shown == nil || shown(nd.Entry)}
		a := n
		if p := nd.Entry.Parent; p != nil {
			if k, ok := pos[p]; ok {
				a = k
				if !rows[k].Shown {
					a = up[k]
				}
			}
		}
		up[i] = a
		if rows[i].Shown {
			kids[a]++
			last[a] = i
		}
	}
	// lane[k] is the rails the rows below shown node k continue.
	lane := make([]string, n+1)
	for i := range rows {
		a := up[i]
		base := lane[a]
		switch {
		case !rows[i].Shown:
			rows[i].Rails = base
		case kids[a] > 1 && last[a] == i:
			rows[i].Rails = base + string(RailElbow)
			lane[i] = base + string(RailNone)
		case kids[a] > 1:
			rows[i].Rails = base + string(RailTee)
			lane[i] = base + string(RailLine)
		default:
			rows[i].Rails = base
			lane[i] = base
		}
		if rows[i].Shown && kids[i] > 1 {
			rows[i].Forks = kids[i]
		}
	}
	return rows
}
