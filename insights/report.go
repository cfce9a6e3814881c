package insights

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// The usage report of an index page: what many sessions cost over time,
// per project and per model, from the same report `piexport --usage`
// prints (package usage), so both say the same figures.

// Report is the usage report of an index: a line that sums it up and its
// charts, each with the table of its numbers.
type Report struct {
	Summary string
	Charts  []Chart
}

// How many periods the time charts draw: the latest of the history.
const (
	reportDays   = 31
	reportWeeks  = 26
	reportMonths = 36
	reportH      = 170
)

// NewReport charts the records: cost per day, week and month, tokens per
// month by kind, and cost per project and per model. Where no record has
// a cost (free or local models, old files), the bars are tokens. project
// names a working directory for people (home as ~); "" stands for none.
// It returns nil when there is no record.
func NewReport(records []usage.Record, project func(cwd string) string) *Report {
	if len(records) == 0 {
		return nil
	}
	months := usage.NewReport(records, usage.ByMonth)
	total := months.Total
	m := metricOf(total)
	r := &Report{}
	first, last := months.Groups[0].Key, months.Groups[len(months.Groups)-1].Key
	r.Summary = fmt.Sprintf("%s · %s tokens · %s", humanize.Cost(total.Cost), humanize.Tokens(total.Tokens()), monthName(first))
	if first != last {
		r.Summary += " to " + monthName(last)
	}
	for _, c := range []*Chart{
		periodChart(usage.NewReport(records, usage.ByDay), m, reportDays),
		periodChart(usage.NewReport(records, usage.ByWeek), m, reportWeeks),
		periodChart(months, m, reportMonths),
		tokensChart(months, reportMonths),
		groupChart(usage.NewReport(records, usage.ByProject), m, project),
		groupChart(usage.NewReport(records, usage.ByModel), m, nil),
	} {
		if c != nil {
			c.keepTextsInside()
			r.Charts = append(r.Charts, *c)
		}
	}
	return r
}

// metric is what a report's bars measure: cost, or tokens where nothing
// recorded a cost.
type metric struct{ cost bool }

func metricOf(total usage.Group) metric { return metric{cost: total.Cost > 0} }

func (m metric) of(g usage.Group) float64 {
	if m.cost {
		return g.Cost
	}
	return float64(g.Tokens())
}

// axis returns the labels of an axis in steps of step: tokens as
// 1.2k and 3.4M, costs as $1.2k or with the decimals the step needs
// ($0.05, $0.025), not the four of a small cost in a table.
func (m metric) axis(step float64) func(float64) string {
	if !m.cost {
		return func(v float64) string { return humanize.Tokens(int64(v)) }
	}
	decimals := 0
	for decimals < 6 && math.Abs(step*math.Pow10(decimals)-math.Round(step*math.Pow10(decimals))) > 1e-9 {
		decimals++
	}
	return func(v float64) string {
		if v >= 1000 {
			return humanize.CostShort(v)
		}
		return "$" + strconv.FormatFloat(v, 'f', decimals, 64)
	}
}

// say writes g's figures in words: "$12.34, 3.4M tokens, 5 sessions".
func say(g usage.Group) string {
	return fmt.Sprintf("%s, %s tokens, %s", humanize.Cost(g.Cost), humanize.Tokens(g.Tokens()), humanize.Sessions(g.Sessions, g.SubAgents))
}

// sessionsHead names a table's columns of sessions: sub-agents' transcripts
// have one of their own when the report has any (total is its total).
func sessionsHead(total usage.Group) []string {
	if total.SubAgents > 0 {
		return []string{"Sessions", "Sub-agents"}
	}
	return []string{"Sessions"}
}

// sessionsCells are g's cells under sessionsHead(total).
func sessionsCells(g, total usage.Group) []Cell {
	cells := []Cell{{Text: fmt.Sprint(g.Sessions), Num: true}}
	if total.SubAgents > 0 {
		cells = append(cells, Cell{Text: fmt.Sprint(g.SubAgents), Num: true})
	}
	return cells
}

func (m metric) word() string {
	if m.cost {
		return "Cost"
	}
	return "Tokens"
}

// period is one day, week or month of a time chart.
type period struct {
	key   string
	group usage.Group // zero when nothing was done in it
}

// periods lists the latest n periods of rep up to its last, those without
// work included, oldest first.
func periods(rep usage.Report, n int) []period {
	if len(rep.Groups) == 0 {
		return nil
	}
	byKey := map[string]usage.Group{}
	for _, g := range rep.Groups {
		byKey[g.Key] = g
	}
	firstKey := rep.Groups[0].Key
	t, ok := parsePeriod(rep.Groups[len(rep.Groups)-1].Key, rep.By)
	if !ok {
		return nil
	}
	var out []period
	for len(out) < n {
		k := formatPeriod(t, rep.By)
		out = append(out, period{key: k, group: byKey[k]})
		if k <= firstKey {
			break
		}
		t = stepPeriod(t, rep.By, -1)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func parsePeriod(key string, by usage.By) (time.Time, bool) {
	layout := time.DateOnly
	if by == usage.ByMonth {
		layout = "2006-01"
	}
	t, err := time.Parse(layout, key)
	return t, err == nil
}

func formatPeriod(t time.Time, by usage.By) string {
	if by == usage.ByMonth {
		return t.Format("2006-01")
	}
	return t.Format(time.DateOnly)
}

func stepPeriod(t time.Time, by usage.By, n int) time.Time {
	switch by {
	case usage.ByWeek:
		return t.AddDate(0, 0, 7*n)
	case usage.ByMonth:
		return t.AddDate(0, n, 0)
	}
	return t.AddDate(0, 0, n)
}

// periodName names a period for people: "Mon, Mar 2, 2026", "Week of Mar
// 2, 2026", "March 2026".
func periodName(key string, by usage.By) string {
	t, ok := parsePeriod(key, by)
	if !ok {
		return key
	}
	switch by {
	case usage.ByWeek:
		return "Week of " + t.Format("Jan 2, 2006")
	case usage.ByMonth:
		return t.Format("January 2006")
	}
	return t.Format("Mon, Jan 2, 2006")
}

// tick is a period's label on the x axis.
func tick(key string, by usage.By) string {
	t, ok := parsePeriod(key, by)
	if !ok {
		return key
	}
	if by == usage.ByMonth {
		return t.Format("Jan 2006")
	}
	return t.Format("Jan 2")
}

func monthName(key string) string {
	if t, err := time.Parse("2006-01", key); err == nil {
		return t.Format("Jan 2006")
	}
	return key
}

var unitOf = map[usage.By]string{usage.ByDay: "day", usage.ByWeek: "week", usage.ByMonth: "month"}

// periodChart draws m of the latest n periods of rep as bars; nil when
// rep covers a single period (the total says it all).
func periodChart(rep usage.Report, m metric, n int) *Chart {
	ps := periods(rep, n)
	if len(ps) < 2 {
		return nil
	}
	unit := unitOf[rep.By]
	c := &Chart{ID: "usage-" + unit, Class: "usage-period", OverTime: true, Title: m.word() + " per " + unit, W: chartW, H: reportH}
	f := newFrame(reportH)
	biggest, shown := 0.0, usage.Group{}
	var top period
	for _, p := range ps {
		v := m.of(p.group)
		if v > biggest {
			biggest, top = v, p
		}
		shown.Usage.Add(p.group.Usage)
		shown.Messages += p.group.Messages
	}
	step, ymax := niceScale(biggest, 4)
	c.yAxis(f, ymax, step, m.axis(step))
	slot := f.w() / float64(len(ps))
	barW := max(1, slot*0.78)
	var bars pathData
	var rows []Row
	lastTick := -1e9
	for i, p := range ps {
		x := f.x0 + slot*float64(i)
		h := m.of(p.group) / ymax * f.h()
		if ymax <= 0 {
			h = 0
		}
		bars.rect(x+(slot-barW)/2, f.y1-h, barW, h)
		name := periodName(p.key, rep.By)
		label := name + ": nothing"
		if p.group.Messages > 0 {
			label = name + ": " + say(p.group)
			cells := append([]Cell{{Text: name}}, sessionsCells(p.group, rep.Total)...)
			rows = append(rows, Row{Cells: append(cells, Cell{Text: humanize.Tokens(p.group.Tokens()), Num: true}, Cell{Text: humanize.Cost(p.group.Cost), Num: true})})
		}
		c.Points = append(c.Points, Point{Class: "hit", X: Num(x), Y: Num(f.y0), W: Num(slot), H: Num(f.h()), Label: label})
		// Labels at least 60 units apart, the first period's always.
		if cx := x + slot/2; cx-lastTick >= 60 {
			lastTick = cx
			c.Rules = append(c.Rules, Rule{Class: "axis", X1: Num(cx), Y1: Num(f.y1), X2: Num(cx), Y2: Num(f.y1 + tickLength)})
			c.Texts = append(c.Texts, Text{Class: "tick", Anchor: "middle", X: Num(cx), Y: Num(f.y1 + 16), Text: tick(p.key, rep.By)})
		}
	}
	c.Shapes = append(c.Shapes, shape("bar s-cost", &bars)...)
	span := inSentence(periodName(ps[0].key, rep.By)) + " to " + inSentence(periodName(ps[len(ps)-1].key, rep.By))
	caption := fmt.Sprintf("Usage per %s, %s (days in UTC)", unit, span)
	head := append(append([]string{strings.ToUpper(unit[:1]) + unit[1:]}, sessionsHead(rep.Total)...), "Tokens", "Cost")
	foot := []Cell{{Text: "Total"}}
	for range sessionsHead(rep.Total) {
		foot = append(foot, Cell{Text: "", Num: true})
	}
	c.Table = Table{Caption: caption, Head: head, Rows: rows,
		Foot: &Row{Cells: append(foot, Cell{Text: humanize.Tokens(shown.Tokens()), Num: true}, Cell{Text: humanize.Cost(shown.Cost), Num: true})}}
	// A session may work in several periods: the sessions of the
	// periods do not add up, and the total row leaves them out.
	c.Desc = fmt.Sprintf("%s of each %s from %s, in UTC days: %s tokens and %s in all",
		m.word(), unit, span, humanize.Tokens(shown.Tokens()), humanize.Cost(shown.Cost))
	if top.key != "" {
		c.Desc += fmt.Sprintf("; the most, %s, %s", m.say(top.group), inSentence(periodName(top.key, rep.By)))
	}
	c.Desc += "."
	if len(ps) == n && ps[0].key > rep.Groups[0].Key {
		c.Note = "The latest " + humanize.Count(n, unit, unit+"s") + " of the history; every one:"
		c.Command = "piexport --usage --by " + unit
	}
	return c
}

// inSentence writes a period's name as it reads inside a sentence:
// "week of Mar 2, 2026"; the names of days and months keep their
// capitals ("from Fri, Oct 23").
func inSentence(s string) string {
	if rest, ok := strings.CutPrefix(s, "Week "); ok {
		return "week " + rest
	}
	return s
}

// say names m's figure of g.
func (m metric) say(g usage.Group) string {
	if m.cost {
		return humanize.Cost(g.Cost)
	}
	return humanize.Tokens(g.Tokens()) + " tokens"
}

// tokensChart stacks the tokens of each month by kind.
func tokensChart(rep usage.Report, n int) *Chart {
	ps := periods(rep, n)
	if len(ps) < 2 {
		return nil
	}
	c := &Chart{ID: "usage-tokens", Class: "usage-tokens", OverTime: true, Title: "Tokens per month", W: chartW, H: reportH}
	for _, sr := range tokenSeries {
		c.Legend = append(c.Legend, Legend{Class: sr.class, Label: sr.label})
	}
	f := newFrame(reportH)
	biggest := 0.0
	var shown session.Usage
	for _, p := range ps {
		biggest = max(biggest, float64(p.group.Tokens()))
		shown.Add(p.group.Usage)
	}
	step, ymax := niceScale(biggest, 4)
	c.yAxis(f, ymax, step, func(v float64) string { return humanize.Tokens(int64(v)) })
	slot := f.w() / float64(len(ps))
	barW := max(1, slot*0.78)
	paths := make([]pathData, len(tokenSeries))
	var rows []Row
	lastTick := -1e9
	for i, p := range ps {
		x := f.x0 + slot*float64(i)
		y := f.y1
		for k, sr := range tokenSeries {
			h := float64(sr.of(p.group.Usage)) / ymax * f.h()
			paths[k].rect(x+(slot-barW)/2, y-h, barW, h)
			y -= h
		}
		name := periodName(p.key, rep.By)
		label := name + ": nothing"
		if p.group.Messages > 0 {
			label = name + ": " + strings.Join(humanize.Usage(p.group.Usage, "input", "output"), ", ")
			rows = append(rows, Row{Cells: append([]Cell{{Text: name}}, usageCells(p.group.Usage)...)})
		}
		c.Points = append(c.Points, Point{Class: "hit", X: Num(x), Y: Num(f.y0), W: Num(slot), H: Num(f.h()), Label: label})
		if cx := x + slot/2; cx-lastTick >= 60 {
			lastTick = cx
			c.Rules = append(c.Rules, Rule{Class: "axis", X1: Num(cx), Y1: Num(f.y1), X2: Num(cx), Y2: Num(f.y1 + tickLength)})
			c.Texts = append(c.Texts, Text{Class: "tick", Anchor: "middle", X: Num(cx), Y: Num(f.y1 + 16), Text: tick(p.key, rep.By)})
		}
	}
	for k, sr := range tokenSeries {
		c.Shapes = append(c.Shapes, shape("bar "+sr.class, &paths[k])...)
	}
	c.Table = Table{Caption: "Tokens per month, by kind (days in UTC)", Head: []string{"Month", "Input", "Output", "Cache read", "Cache write", "Cost"}, Rows: rows,
		Foot: &Row{Cells: append([]Cell{{Text: "Total"}}, usageCells(shown)...)}}
	c.Desc = fmt.Sprintf("Tokens of each month, stacked by kind: %s in all: %s.",
		humanize.Tokens(shown.Tokens()), strings.Join(humanize.Usage(shown, "input", "output"), ", "))
	return c
}
