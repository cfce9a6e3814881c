package insights

import (
	"fmt"
	"time"

	"github.com/piexport/piexport/humanize"
)

// The timeline: when a path's entries were written. Spans of work are
// drawn as bands, each as wide as it lasted (and wide enough to see);
// idle pauses as breaks of one width, named by their length, so that a
// session resumed the next day still shows its work.

const (
	timelineH = 88
	bandTop   = 26
	bandH     = 24
	breakW    = 44 // the width of a pause
	minSpanW  = 6
)

// timelineChart draws the path's spans of work and its pauses.
func (s *Session) timelineChart(link Link) *Chart {
	a := s.Activity
	if !a.End.After(a.Start) {
		return nil
	}
	c := &Chart{ID: "ins-time", Class: "timeline", OverTime: true, Title: "Timeline", W: chartW, H: timelineH,
		Legend: []Legend{{Class: "s-span", Label: "work"}, {Class: "s-prompt", Label: "your prompts"}}}
	const x0, x1 = 12.0, chartW - 12.0
	k := len(a.Spans)
	avail := x1 - x0 - float64(k-1)*breakW
	total := a.Active()
	width := func(sp Span) float64 {
		extra := avail - float64(k)*minSpanW
		if total <= 0 {
			return minSpanW + extra/float64(k)
		}
		return minSpanW + extra*float64(sp.End.Sub(sp.Start))/float64(total)
	}
	days := a.Start.UTC().YearDay() != a.End.UTC().YearDay() || a.End.Sub(a.Start) > 24*time.Hour

	c.Texts = append(c.Texts,
		Text{Class: "cap", Anchor: "start", X: Num(x0), Y: 14, Text: a.Start.UTC().Format("Monday, January 2, 2006") + " (UTC)"},
		Text{Class: "cap", Anchor: "end", X: Num(x1), Y: 14, Text: a.span()})
	var prompts, breaks pathData
	var rows []Row
	// Each span's start is written under it, and the path's end under
	// the last one's end; a time goes in whole, inside the chart, and
	// clear of the one before, or not at all.
	lastRight := -1e9
	tick := func(x float64, anchor, label string) {
		const gap = 8
		w := textWidth(label, fontSize("tick"))
		left := x
		if anchor == "end" {
			left -= w
		}
		left = min(max(left, x0), x1-w)
		if left < lastRight+gap {
			return
		}
		c.Texts = append(c.Texts, Text{Class: "tick", Anchor: "start", X: Num(left), Y: bandTop + bandH + 16, Text: label})
		lastRight = left + w
	}
	x := x0
	for i, sp := range a.Spans {
		w := width(sp)
		d := sp.End.Sub(sp.Start)
		label := fmt.Sprintf("%s–%s UTC: %s, %s", clock(sp.Start, days), clock(sp.End, days), humanize.Duration(d), humanize.Count(sp.Turns, "turn", "turns"))
		if len(sp.Prompts) > 0 {
			label += ", " + humanize.Count(len(sp.Prompts), "prompt", "prompts")
		}
		c.Points = append(c.Points, Point{Class: "span", Href: link(sp.ID), X: Num(x), Y: bandTop, W: Num(w), H: bandH, Label: label})
		last := -1.0
		for _, t := range sp.Prompts {
			px := x + w/2
			if d > 0 {
				px = x + w*float64(t.Sub(sp.Start))/float64(d)
			}
			if px-last >= 1.5 { // one tick per unit of width is all one sees
				prompts.M(px, bandTop-4)
				prompts.cmd('v', bandH+8)
				last = px
			}
		}
		tick(x, "start", clock(sp.Start, days))
		idle := ""
		if i+1 < k {
			gap := a.Spans[i+1].Start.Sub(sp.End)
			idle = humanize.Duration(gap)
			cx := x + w + breakW/2
			breaks.M(cx-5, bandTop+bandH/2+6)
			breaks.cmd('l', 4, -12)
			breaks.M(cx+1, bandTop+bandH/2+6)
			breaks.cmd('l', 4, -12)
			c.Texts = append(c.Texts, Text{Class: "gap", Anchor: "middle", X: Num(cx), Y: bandTop + bandH + 30, Text: idle})
		}
		rows = append(rows, Row{Cells: []Cell{
			{Text: fmt.Sprint(i + 1), Href: link(sp.ID)}, {Time: sp.Start}, {Time: sp.End},
			{Text: humanize.Duration(d), Num: true}, {Text: fmt.Sprint(sp.Turns), Num: true}, {Text: fmt.Sprint(len(sp.Prompts)), Num: true},
			{Text: idle, Num: true},
		}})
		x += w + breakW
	}
	tick(x-breakW, "end", clock(a.End, days))
	c.Shapes = append(c.Shapes, shape("prompt", &prompts)...)
	c.Shapes = append(c.Shapes, shape("break", &breaks)...)
	c.Table = Table{Caption: "Spans of work", Head: []string{"Span", "From", "To", "Active", "Turns", "Prompts", "Then idle"}, Rows: rows}

	c.Desc = fmt.Sprintf("When the path's entries were written, in UTC: %s of work in %s over %s.",
		humanize.Duration(a.Active()), humanize.Count(k, "span", "spans"), humanize.Duration(a.End.Sub(a.Start)))
	if k > 1 {
		c.Desc += fmt.Sprintf(" Pauses of %s or more are drawn as breaks, named by their length.", roughly(a.Idle))
	}
	return c
}

// roughly shows a duration as a threshold is said: "10 min", "2h 5m".
func roughly(d time.Duration) string {
	if d < time.Hour && d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return humanize.Duration(d)
}
