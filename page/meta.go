package page

import (
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// descriptionMax is how long the description of a link preview (<meta
// name="description">, og:description) may be, in characters: chat apps
// and search engines show about this much.
const descriptionMax = 200

// description is what a link preview says of s: its first user message
// as a reader sees it, on one line, cut at a word; else its figures. It
// is text: the template escapes it into its attributes. A session masked
// with --redact is masked before the page is made, so the description
// is too.
func description(s *session.Session, sum session.Summary) string {
	for _, e := range s.Entries {
		if e.Role() != "user" {
			continue
		}
		if text := session.ReaderText(textBlocks(s.Full(e).Message, 4*descriptionMax), descriptionMax); text != "" {
			return text
		}
	}
	return "A pi session: " + humanize.Count(sum.Entries, "entry", "entries") + ", " + humanize.Count(sum.ToolCalls, "tool call", "tool calls") + "."
}

// textBlocks is the text of m's text blocks, blank lines between them,
// up to about limit bytes: a description needs no more of a long
// message.
func textBlocks(m *session.Message, limit int) string {
	var b strings.Builder
	for _, c := range m.Content {
		if c.Type != "text" || b.Len() >= limit {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		t := c.Text
		if len(t) > limit {
			n := limit
			for n > 0 && !utf8.RuneStart(t[n]) {
				n--
			}
			t = t[:n]
		}
		b.WriteString(t)
	}
	return b.String()
}

// excerptView is what the header says of a page that holds part of a
// path (session.Cut): "entries 3 to 9 of 40", with links to its ends,
// which are in the page.
type excerptView struct {
	First, Last, Of int
	From, To        string
}

func excerptOf(s *session.Session) *excerptView {
	x := s.Excerpt
	if x == nil {
		return nil
	}
	return &excerptView{First: x.First, Last: x.Last, Of: x.Of, From: x.From, To: x.To}
}
