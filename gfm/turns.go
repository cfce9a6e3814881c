package gfm

import (
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// Turns and anchors: each turn is a numbered heading that says what it
// is ("3. User: Why does Vec<String> fail?… · 10:42"), all at one level,
// so that an engine's table of contents lists the conversation; each
// entry has its id as an anchor, as on the page (page.html#d0c5a006 and
// session.md#d0c5a006 name the same entry).

// maxHeading is the deepest Markdown heading.
const maxHeading = 6

// headingPreview is how much of a turn's text its heading shows.
const headingPreview = 64

// startEntry notes e's anchor, for the first thing written of it.
func (m *mdWriter) startEntry(e *session.Entry) {
	m.setAnchor(e.ID, entryLabel(e))
}

// setAnchor makes id (an entry's id, or a key of the page's) the anchor
// of what is written next; an anchor still unwritten is written first.
func (m *mdWriter) setAnchor(id, label string) {
	m.flushAnchor()
	m.anchor, m.anchorLabel = m.anchorID(m.idPrefix+id), label
}

// flushAnchor writes the pending anchor, if any, as a block of its own:
// an anchor element, or a heading naming the entry where only headings
// carry ids.
func (m *mdWriter) flushAnchor() {
	id := m.takeAnchor()
	if id == "" {
		return
	}
	if a := m.t.anchor(id); a != "" {
		m.writeBlock(a)
	} else {
		m.writeBlock(m.labelHeading(m.anchorLabel, id))
	}
}

// takeAnchor returns the pending anchor, now written, or "".
func (m *mdWriter) takeAnchor() string {
	id := m.anchor
	m.anchor = ""
	return id
}

// anchorID is the element id for key, unique in the document. Ids come
// from the session file: a character an attribute or Hugo's "{#id}"
// would not hold as it is becomes "-" (Hugo's keeps letters, digits,
// "_", "-", ":" and "."; the others "~", "'" and "/" too, which pi's
// derived ids use), and one given before gets "-2", "-3"...
func (m *mdWriter) anchorID(key string) string {
	extra := "~'/"
	if m.headingIDs {
		extra = ""
	}
	b := []byte(key)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_-:."+extra, c) >= 0) {
			b[i] = '-'
		}
	}
	id := string(b)
	if id == "" {
		id = "entry"
	}
	for n := 2; m.ids[id]; n++ {
		id = string(b) + "-" + strconv.Itoa(n)
	}
	m.ids[id] = true
	return id
}

// heading starts a turn of kind (User, Assistant…) at entry e, unless the
// turn being written is of that kind: a numbered heading with what the
// turn says (detail, Markdown) and when it started. The entry's anchor
// goes with it.
func (m *mdWriter) heading(kind string, e *session.Entry, detail string) {
	if m.resume == kind {
		m.continueTurn(m.takeAnchor())
		return
	}
	m.resume = ""
	if m.turn == kind {
		return
	}
	m.turn = kind
	m.turns++
	h := strconv.Itoa(m.turns) + ". " + kind
	if detail != "" {
		h += ": " + detail
	}
	if w := m.when(e); w != "" {
		h += " · " + w
	}
	id := m.takeAnchor()
	if id != "" {
		if a := m.t.anchor(id); a != "" {
			m.block(a)
		}
	}
	m.block(strings.Repeat("#", m.level) + " " + h + m.t.headingID(id))
}

// continueTurn writes the heading of the turn a transcript interrupted,
// which goes on; id, if any, is the anchor it carries.
func (m *mdWriter) continueTurn(id string) {
	m.turn, m.resume = m.resume, ""
	if id != "" {
		if a := m.t.anchor(id); a != "" {
			m.writeBlock(a)
		}
	}
	m.writeBlock(strings.Repeat("#", m.level) + " " + strconv.Itoa(m.resumeTurn) + ". " + m.turn + ", continued" + m.t.headingID(id))
}

// endTurn makes what follows start a turn of its own.
func (m *mdWriter) endTurn() { m.turn = "" }

// preview is what a turn's heading says of e: the start of its text.
func (m *mdWriter) preview(e *session.Entry) string {
	p := m.s.Preview(e, m.home).Text
	if strings.HasPrefix(p, "[") && strings.HasSuffix(p, "]") && strings.Count(p, "[") == 1 {
		p = p[1 : len(p)-1] // "[read: ~/p/f.go]", as the tree shows a call
	}
	return mdInline(humanize.OneLine(p, headingPreview))
}

// when is the time of e, in UTC (as the document's date is): the hour,
// or the day and the hour on a path that runs over several days.
func (m *mdWriter) when(e *session.Entry) string {
	if e == nil || e.Time.IsZero() {
		return ""
	}
	if m.dated {
		return e.Time.UTC().Format("2006-01-02 15:04")
	}
	return e.Time.UTC().Format("15:04")
}

// spansDays says whether the entries of path were written on more than
// one day (UTC).
func spansDays(path []*session.Entry) bool {
	var first time.Time
	for _, e := range path {
		if e.Time.IsZero() {
			continue
		}
		if first.IsZero() {
			first = e.Time.UTC()
		} else if e.Time.UTC().Format("2006-01-02") != first.Format("2006-01-02") {
			return true
		}
	}
	return false
}

// entryLabel names an entry in a heading that carries its anchor where
// nothing else it writes can (Hugo): an assistant's next message in a
// turn, a summary.
func entryLabel(e *session.Entry) string {
	switch e.Type {
	case "compaction":
		return "Context compacted"
	case "branch_summary":
		return "Summary of an abandoned branch"
	case "message":
		switch e.Role() {
		case "assistant":
			return "Assistant"
		case "user", "bashExecution", "jsExecution", "pythonExecution", "fileMention":
			return "User"
		case "toolResult":
			return "Tool result"
		case "branchSummary":
			return "Summary of an abandoned branch"
		case "compactionSummary":
			return "Summary of the compacted context"
		}
		return mdInline(e.Role()) + " message"
	}
	return mdInline(strings.ReplaceAll(e.Type, "_", " "))
}
