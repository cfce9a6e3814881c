package insights

import (
	"fmt"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
)

// Section is the Insights section of a session page: a line that sums
// the session up, the charts, and the slowest and largest tool calls.
type Section struct {
	Summary string
	Charts  []Chart
	// Slowest and Largest link the tool calls that took longest and
	// those whose results were longest.
	Slowest, Largest []CallLink
}

// CallLink is one tool call of a list, linked to its card.
type CallLink struct {
	Href, Name, Args string
	// Figure is what the list is sorted by: "2m 5s", "48 KB".
	Figure string
	// Error marks a call that failed, Aborted one the user stopped.
	Error, Aborted bool
}

// Link returns the URL of an entry of the page: "#" and its element id.
type Link func(entryID string) string

// Section returns the charts of s, with links to entries made by link;
// nil when the path has nothing to chart (no turn, no tool call, no
// time).
func (s *Session) Section(link Link) *Section {
	sec := &Section{}
	for _, c := range []*Chart{
		s.contextChart(link), s.turnsChart(link), s.modelsChart(), s.toolsChart(), s.timelineChart(link),
	} {
		if c != nil {
			c.keepTextsInside()
			sec.Charts = append(sec.Charts, *c)
		}
	}
	if len(sec.Charts) == 0 {
		return nil
	}
	for _, c := range s.Slowest {
		sec.Slowest = append(sec.Slowest, callLink(c, link, humanize.Duration(c.Time)))
	}
	for _, c := range s.Largest {
		sec.Largest = append(sec.Largest, callLink(c, link, humanize.Bytes(int64(c.Bytes))))
	}
	sec.Summary = s.summary()
	return sec
}

func callLink(c ToolCall, link Link, figure string) CallLink {
	return CallLink{Href: link(c.ID), Name: c.Name, Args: c.Args, Figure: figure, Error: c.Error, Aborted: c.Aborted}
}

// summary sums the path up in one line, for the section's summary.
func (s *Session) summary() string {
	var parts []string
	if n := len(s.Turns); n > 0 {
		parts = append(parts, humanize.Count(n, "turn", "turns"))
	}
	if peak := s.peak(); peak.Context() > 0 {
		parts = append(parts, "context up to "+humanize.Tokens(peak.Context()))
	}
	calls := 0
	for _, t := range s.Tools {
		calls += t.Calls
	}
	if calls > 0 {
		parts = append(parts, humanize.Count(calls, "tool call", "tool calls"))
	}
	if a := s.Activity; a.End.After(a.Start) {
		parts = append(parts, a.span())
	}
	return strings.Join(parts, " · ")
}

// peak is the turn with the largest context, the first of equals.
func (s *Session) peak() Turn {
	var p Turn
	for _, t := range s.Turns {
		if t.Context() > p.Context() {
			p = t
		}
	}
	return p
}

// turnRange names the turns of a bucket: "12" or "12–15".
func turnRange(first, last int) string {
	if first == last {
		return fmt.Sprint(first)
	}
	return fmt.Sprintf("%d–%d", first, last)
}

// clock shows a time of day in UTC, with the date when the chart spans
// several days.
func clock(t time.Time, withDate bool) string {
	if withDate {
		return t.UTC().Format("Jan 2 15:04")
	}
	return t.UTC().Format("15:04")
}

// shorten cuts a label to n characters, taking out its middle: the end
// of a model's or a project's name tells it from its neighbours as often
// as its start does.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}
