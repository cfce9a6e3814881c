package insights

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// The two charts along a path's turns: the context the model was sent,
// and the tokens each turn used.

const (
	// turnsH is the height of both charts.
	turnsH = 180
	// linePoints bounds the points of the context's line, linkedPoints
	// its focusable points and maxBars the bars of the tokens chart.
	linePoints   = 80
	linkedPoints = 20
	maxBars      = 24
	// maxMarks bounds the compactions and branch points marked.
	maxMarks = 24
	// windowLabelRoom is the room above the plot for the label of the
	// context window's line.
	windowLabelRoom = 12
)

// turnX places turn k (from 1; fractions fall between turns) across f.
func turnX(f frame, k float64, n int) float64 {
	const pad = 6
	if n <= 1 {
		return (f.x0 + f.x1) / 2
	}
	return f.x0 + pad + (k-1)/float64(n-1)*(f.w()-2*pad)
}

// turnTicks labels the x axis with turn numbers: 1 and round numbers up
// to n, placed by x.
func (c *Chart) turnTicks(f frame, n int, x func(turn int) float64) {
	step, _ := integerScale(float64(n), 6)
	s := int(step)
	last := -1e9
	for t := 0; t <= n; t += s {
		turn := max(t, 1)
		label := fmt.Sprint(turn)
		if turn == 1 {
			label = "turn 1"
		}
		px := x(turn)
		if px-last < 34 {
			continue
		}
		last = px
		c.Rules = append(c.Rules, Rule{Class: "axis", X1: Num(px), Y1: Num(f.y1), X2: Num(px), Y2: Num(f.y1 + tickLength)})
		c.Texts = append(c.Texts, Text{Class: "tick", Anchor: "middle", X: Num(px), Y: Num(f.y1 + 16), Text: label})
	}
}

// contextChart draws the context size of each turn as a line, with the
// path's compactions and branch points, and the model's context window
// where it fits.
func (s *Session) contextChart(link Link) *Chart {
	peak := s.peak()
	if peak.Context() == 0 {
		return nil
	}
	n := len(s.Turns)
	f := newFrame(turnsH)
	c := &Chart{ID: "ins-context", Class: "context", OverTime: true, Title: "Context over the session", W: chartW, H: turnsH}
	top := float64(peak.Context())
	windowShown := s.Window > 0 && float64(s.Window) <= 2.5*top
	if windowShown {
		top = max(top, float64(s.Window))
		// The window's line may be the axis's top: its label, above
		// it, needs the room.
		f.y0 += windowLabelRoom
	}
	step, top := niceScale(top, 4)
	c.yAxis(f, top, step, tokenTick)
	x := func(k float64) float64 { return turnX(f, k, n) }
	c.turnTicks(f, n, func(t int) float64 { return x(float64(t)) })

	// The line and the area under it, from the turns that report usage;
	// on a long path, the largest context of each stretch of turns.
	var reported []Turn
	for _, t := range s.Turns {
		if t.Context() > 0 {
			reported = append(reported, t)
		}
	}
	var line, area pathData
	for i, b := range buckets(len(reported), linePoints) {
		t := maxContext(reported[b.from:b.to])
		px, py := x(float64(t.N)), f.y(float64(t.Context()), top)
		if i == 0 {
			line.M(px, py)
			area.M(px, f.y1)
		} else {
			line.L(px, py)
		}
		area.L(px, py)
		if b.to == len(reported) {
			area.L(px, f.y1)
		}
	}
	c.Shapes = append(c.Shapes, shape("area", &area)...)
	c.Shapes = append(c.Shapes, shape("line", &line)...)

	if windowShown {
		wy := f.y(float64(s.Window), top)
		c.Rules = append(c.Rules, Rule{Class: "window", X1: Num(f.x0), Y1: Num(wy), X2: Num(f.x1), Y2: Num(wy)})
		c.Texts = append(c.Texts, Text{Class: "cap", Anchor: "end", X: Num(f.x1 - 2), Y: Num(wy - 4),
			Text: "context window " + humanize.Tokens(s.Window)})
	}

	// Compactions as dashed lines, branch points on the axis; each with
	// a focusable mark that links to its entry.
	var compactions pathData
	marks := s.Marks[:min(len(s.Marks), maxMarks)]
	for _, m := range marks {
		mx := x(float64(m.After) + 0.5)
		if m.After == 0 {
			mx = f.x0
		}
		if m.After >= n {
			mx = x(float64(n))
		}
		switch m.Kind {
		case "compaction":
			compactions.M(mx, f.y0)
			compactions.V(f.y1)
			c.Points = append(c.Points, Point{Class: "pt mark-compaction", Href: link(m.ID), X: Num(mx - 4), Y: Num(f.y0 - 4), W: 8, H: 8,
				Label: markLabel(m)})
		case "branch":
			c.Points = append(c.Points, Point{Class: "pt mark-branch", Href: link(m.ID), X: Num(mx), Y: Num(f.y1), R: 4,
				Label: markLabel(m)})
		}
	}
	c.Shapes = append(c.Shapes, shape("compaction", &compactions)...)

	// Focusable points: the largest context of each stretch of turns.
	models := s.modelCount()
	var rows []Row
	var firsts []int // the first turn of each row
	for _, b := range buckets(len(reported), linkedPoints) {
		t := maxContext(reported[b.from:b.to])
		label := fmt.Sprintf("Turn %d: %s context", t.N, humanize.Tokens(t.Context()))
		if !t.Time.IsZero() {
			label += ", " + t.Time.UTC().Format("15:04 UTC")
		}
		if models > 1 {
			label += ", " + t.Model
		}
		c.Points = append(c.Points, Point{Class: "pt", Href: link(t.ID), X: Num(x(float64(t.N))), Y: Num(f.y(float64(t.Context()), top)), R: 3, Label: label})
		turns := turnRange(reported[b.from].N, reported[b.to-1].N)
		firsts = append(firsts, reported[b.from].N)
		row := Row{Cells: []Cell{{Text: turns, Href: link(t.ID)}, {Text: humanize.Tokens(t.Context()), Num: true}}}
		if models > 1 {
			row.Cells = append(row.Cells, Cell{Text: t.Model})
		}
		rows = append(rows, row)
	}
	// The marks, in the table too, after the turn they follow.
	for _, m := range marks {
		pos := slices.IndexFunc(firsts, func(first int) bool { return first > m.After })
		if pos < 0 {
			pos = len(rows)
		}
		figure := ""
		if m.Kind == "compaction" && m.TokensBefore > 0 {
			figure = humanize.Tokens(m.TokensBefore) + " before"
		}
		row := Row{Cells: []Cell{{Text: markName(m), Href: link(m.ID)}, {Text: figure, Num: true}}}
		if models > 1 {
			row.Cells = append(row.Cells, Cell{})
		}
		rows = slices.Insert(rows, pos, row)
		firsts = slices.Insert(firsts, pos, m.After)
	}
	// The keyboard visits the marks and the turns from left to right.
	slices.SortStableFunc(c.Points, func(a, b Point) int { return cmp.Compare(a.X, b.X) })
	c.Table = Table{Caption: "Context per turn", Head: []string{"Turn", "Context"}, Rows: rows}
	if models > 1 {
		c.Table.Head = append(c.Table.Head, "Model")
	}
	if len(reported) > linkedPoints {
		c.Table.Caption = fmt.Sprintf("Largest context in each stretch of turns (%s in %s)", humanize.Count(len(reported), "turn", "turns"), humanize.Count(len(rows)-len(marks), "row", "rows"))
	}

	desc := fmt.Sprintf("The context the model was sent at %s of the path, from %s at the first to %s at its largest (turn %d).",
		humanize.EachOf(n, "turn", "turns"), humanize.TokenCount(reported[0].Context()), humanize.Tokens(peak.Context()), peak.N)
	if k := s.countMarks("compaction"); k > 0 {
		desc += " " + humanize.Count(k, "compaction", "compactions") + " (dashed lines)."
	}
	if k := s.countMarks("branch"); k > 0 {
		desc += " " + humanize.Count(k, "branch point", "branch points") + " (dots on the axis)."
	}
	switch {
	case windowShown:
		desc += fmt.Sprintf(" The model's context window (%s): %s.", s.WindowModel, humanize.TokenCount(s.Window))
	case s.Window > 0:
		c.Note = fmt.Sprintf("The context window of %s, %s tokens, is above the chart: the largest context was %.0f%% of it.",
			s.WindowModel, humanize.Tokens(s.Window), 100*float64(peak.Context())/float64(s.Window))
	}
	c.Desc = desc
	return c
}

func maxContext(turns []Turn) Turn {
	best := turns[0]
	for _, t := range turns[1:] {
		if t.Context() > best.Context() {
			best = t
		}
	}
	return best
}

func (s *Session) countMarks(kind string) int {
	n := 0
	for _, m := range s.Marks {
		if m.Kind == kind {
			n++
		}
	}
	return n
}

func (s *Session) modelCount() int {
	seen := map[string]bool{}
	for _, t := range s.Turns {
		seen[t.Model] = true
	}
	return len(seen)
}

func markName(m Mark) string {
	if m.Kind == "compaction" {
		return fmt.Sprintf("Compaction after turn %d", m.After)
	}
	return fmt.Sprintf("Branch point after turn %d", m.After)
}

func markLabel(m Mark) string {
	switch {
	case m.Kind == "compaction" && m.TokensBefore > 0:
		return markName(m) + ": " + humanize.Tokens(m.TokensBefore) + " tokens before"
	case m.Kind == "branch":
		return markName(m) + ": " + humanize.Count(m.Branches, "branch", "branches")
	}
	return markName(m)
}

// tokenSeries are the stacked series of the tokens chart, bottom first:
// cache reads, usually most of the tokens and the cheapest, at the foot.
var tokenSeries = []struct {
	class, label string
	of           func(session.Usage) int64
}{
	{"s-cache-read", "cache read", func(u session.Usage) int64 { return u.CacheRead }},
	{"s-input", "input", func(u session.Usage) int64 { return u.Input }},
	{"s-cache-write", "cache write", func(u session.Usage) int64 { return u.CacheWrite }},
	{"s-output", "output", func(u session.Usage) int64 { return u.Output }},
}

// turnsChart stacks each turn's input, output, cache read and cache write
// tokens; a long path is drawn in stretches of turns, summed.
func (s *Session) turnsChart(link Link) *Chart {
	n := len(s.Turns)
	var total session.Usage
	for _, t := range s.Turns {
		total.Add(t.Usage)
	}
	if total.Tokens() == 0 {
		return nil
	}
	f := newFrame(turnsH)
	c := &Chart{ID: "ins-turns", Class: "turns", OverTime: true, Title: "Where the tokens went", W: chartW, H: turnsH}
	for _, sr := range tokenSeries {
		c.Legend = append(c.Legend, Legend{Class: sr.class, Label: sr.label})
	}
	// A long path is drawn in stretches of turns, each bar the mean of
	// its stretch: stretches differ in length by one turn, and their sums
	// would make a saw of a steady session.
	bs := buckets(n, maxBars)
	sums := make([]session.Usage, len(bs))
	biggest := 0.0
	for i, b := range bs {
		for _, t := range s.Turns[b.from:b.to] {
			sums[i].Add(t.Usage)
		}
		biggest = max(biggest, float64(sums[i].Tokens())/float64(b.to-b.from))
	}
	step, top := niceScale(biggest, 4)
	c.yAxis(f, top, step, tokenTick)
	slot := f.w() / float64(len(bs))
	barW := max(1, slot*0.78)
	center := func(i int) float64 { return f.x0 + slot*(float64(i)+0.5) }
	c.turnTicks(f, n, func(turn int) float64 {
		i := slices.IndexFunc(bs, func(b bucket) bool { return turn-1 < b.to })
		return center(i)
	})
	paths := make([]pathData, len(tokenSeries))
	var rows []Row
	for i, b := range bs {
		u := sums[i]
		y := f.y1
		for k, sr := range tokenSeries {
			h := float64(sr.of(u)) / float64(b.to-b.from) / top * f.h()
			paths[k].rect(center(i)-barW/2, y-h, barW, h)
			y -= h
		}
		first, last := s.Turns[b.from], s.Turns[b.to-1]
		turns := turnRange(first.N, last.N)
		word := "Turn "
		if first.N != last.N {
			word = "Turns "
		}
		label := word + turns + ": " + strings.Join(humanize.Usage(u, "input", "output"), ", ")
		if first.N != last.N {
			label += " in all"
		}
		c.Points = append(c.Points, Point{Class: "hit", Href: link(first.ID), X: Num(f.x0 + slot*float64(i)), Y: Num(f.y0), W: Num(slot), H: Num(f.h()), Label: label})
		rows = append(rows, Row{Cells: append([]Cell{{Text: turns, Href: link(first.ID)}}, usageCells(u)...)})
	}
	for k, sr := range tokenSeries {
		c.Shapes = append(c.Shapes, shape("bar "+sr.class, &paths[k])...)
	}
	c.Table = Table{Caption: "Tokens per turn", Head: []string{"Turn", "Input", "Output", "Cache read", "Cache write", "Cost"}, Rows: rows,
		Foot: &Row{Cells: append([]Cell{{Text: "Path"}}, usageCells(total)...)}}
	if len(bs) < n {
		c.Table.Caption = fmt.Sprintf("Tokens of each stretch of turns (%s in %s)", humanize.Count(n, "turn", "turns"), humanize.Count(len(bs), "row", "rows"))
	}
	c.Desc = fmt.Sprintf("Tokens of %s of the path, stacked: %s in all: %s.",
		humanize.EachOf(n, "turn", "turns"), humanize.Tokens(total.Tokens()), strings.Join(humanize.Usage(total, "input", "output"), ", "))
	if len(bs) < n {
		c.Desc += fmt.Sprintf(" Each bar is the mean of a stretch of %d or %s; the table sums each stretch.", n/len(bs), humanize.Count((n+len(bs)-1)/len(bs), "turn", "turns"))
	}
	return c
}

// usageCells are a usage's figures as table cells: input, output, cache
// read, cache write, cost.
func usageCells(u session.Usage) []Cell {
	return []Cell{
		{Text: humanize.Tokens(u.Input), Num: true}, {Text: humanize.Tokens(u.Output), Num: true},
		{Text: humanize.Tokens(u.CacheRead), Num: true}, {Text: humanize.Tokens(u.CacheWrite), Num: true},
		{Text: humanize.Cost(u.Cost), Num: true},
	}
}
