package insights

import (
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// The usage report's charts of projects and models: one horizontal bar
// each.

// groupChart draws m per project (name set) or per model as horizontal
// bars, the largest first, those past maxRows summed in a last bar; nil
// when there is a single group.
func groupChart(rep usage.Report, m metric, name func(string) string) *Chart {
	if len(rep.Groups) < 2 {
		return nil
	}
	what, whats, id := "model", "models", "usage-models"
	if rep.By == usage.ByProject {
		what, whats, id = "project", "projects", "usage-projects"
	}
	label := func(key string) string {
		switch {
		case name == nil:
			return humanize.Model(key)
		case key == "":
			return "(no working directory)"
		}
		return name(key)
	}
	c := &Chart{ID: id, Class: "usage-" + whats, Title: m.word() + " per " + what}
	total := rep.Total
	var rows []hbar
	var table []Row
	share := func(g usage.Group) string {
		if m.of(total) <= 0 {
			return "0%"
		}
		return fmt.Sprintf("%.0f%%", 100*m.of(g)/m.of(total))
	}
	for i, g := range rep.Groups {
		l := label(g.Key)
		cells := append([]Cell{{Text: l}}, sessionsCells(g, total)...)
		table = append(table, Row{Cells: append(cells, Cell{Text: humanize.Tokens(g.Tokens()), Num: true}, Cell{Text: humanize.Cost(g.Cost), Num: true}, Cell{Text: share(g), Num: true})})
		if i < maxRows-1 || len(rep.Groups) == maxRows {
			row := hbar{Label: l, Segments: []float64{m.of(g)}, Value: m.say(g), Title: l + ": " + say(g) + " (" + share(g) + ")"}
			if rep.By == usage.ByModel {
				row.Short = modelShort(l)
			}
			rows = append(rows, row)
		}
	}
	if len(rep.Groups) > maxRows {
		var rest usage.Group
		for _, g := range rep.Groups[maxRows-1:] {
			rest.Usage.Add(g.Usage)
		}
		l := fmt.Sprintf("%d other %s", len(rep.Groups)-maxRows+1, whats)
		rows = append(rows, hbar{Label: l, Segments: []float64{m.of(rest)}, Value: m.say(rest),
			Title: fmt.Sprintf("%s: %s, %s tokens (%s)", l, humanize.Cost(rest.Cost), humanize.Tokens(rest.Tokens()), share(rest))})
	}
	c.hbars(rows, []string{"s-cost"})
	head := strings.ToUpper(what[:1]) + what[1:]
	foot := append([]Cell{{Text: "Total"}}, sessionsCells(total, total)...)
	c.Table = Table{Caption: "Usage per " + what, Head: append(append([]string{head}, sessionsHead(total)...), "Tokens", "Cost", "Share"), Rows: table,
		Foot: &Row{Cells: append(foot, Cell{Text: humanize.Tokens(total.Tokens()), Num: true}, Cell{Text: humanize.Cost(total.Cost), Num: true}, Cell{Text: "100%", Num: true})}}
	c.Desc = fmt.Sprintf("%s of each of the %d %s, the largest first: %s and %s in all.",
		m.word(), len(rep.Groups), whats, humanize.TokenCount(total.Tokens()), humanize.Cost(total.Cost))
	if rep.By == usage.ByModel {
		c.Desc += fmt.Sprintf(" %q is the work done for tool results, compactions and branch summaries.", session.ToolsAndSummaries)
	}
	return c
}
