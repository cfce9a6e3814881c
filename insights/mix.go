package insights

import (
	"fmt"
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// maxRows bounds the rows of a horizontal bar chart; the rest are summed
// in a last row.
const maxRows = 10

// modelsChart draws the file's cost by model, pi's breakdown, when more
// than one model (or tools and summaries) did work.
func (s *Session) modelsChart() *Chart {
	if len(s.Breakdown) < 2 {
		return nil
	}
	var total session.ModelCost
	for _, m := range s.Breakdown {
		total.Tokens += m.Tokens
		total.Cost += m.Cost
	}
	byCost := total.Cost > 0
	c := &Chart{ID: "ins-models", Class: "models", Title: "Cost by model"}
	var rows []hbar
	var table []Row
	for _, m := range s.Breakdown {
		m.Key = humanize.Model(m.Key)
		v, share := m.Cost, m.Cost/total.Cost
		if !byCost {
			v, share = float64(m.Tokens), float64(m.Tokens)/float64(total.Tokens)
		}
		pct := fmt.Sprintf("%.0f%%", 100*share)
		rows = append(rows, hbar{Label: m.Key, Short: modelShort(m.Key), Segments: []float64{v}, Value: humanize.Cost(m.Cost),
			Title: fmt.Sprintf("%s: %s, %s tokens (%s)", m.Key, humanize.Cost(m.Cost), humanize.Tokens(m.Tokens), pct)})
		table = append(table, Row{Cells: []Cell{{Text: m.Key}, {Text: humanize.Tokens(m.Tokens), Num: true}, {Text: humanize.Cost(m.Cost), Num: true}, {Text: pct, Num: true}}})
	}
	if len(rows) > maxRows {
		rest := hbar{Label: humanize.Count(len(rows)-maxRows+1, "other model", "other models"), Segments: []float64{0}}
		cost := 0.0
		for i, r := range rows[maxRows-1:] {
			rest.Segments[0] += r.Segments[0]
			cost += s.Breakdown[maxRows-1+i].Cost
		}
		rest.Value = humanize.Cost(cost)
		rest.Title = rest.Label + ": " + rest.Value
		rows = append(rows[:maxRows-1], rest)
	}
	c.hbars(rows, []string{"s-cost"})
	c.Table = Table{Caption: "Cost by model", Head: []string{"Model", "Tokens", "Cost", "Share"}, Rows: table,
		Foot: &Row{Cells: []Cell{{Text: "File"}, {Text: humanize.Tokens(total.Tokens), Num: true}, {Text: humanize.Cost(total.Cost), Num: true}, {Text: "100%", Num: true}}}}
	c.Desc = fmt.Sprintf("What each model cost over the whole file, as pi counts it (%s in all); %q is the work done for tool results, compactions and branch summaries.",
		humanize.Cost(total.Cost), session.ToolsAndSummaries)
	if !byCost {
		c.Desc = fmt.Sprintf("The file records no cost: the bars are each model's tokens (%s in all).", humanize.Tokens(total.Tokens))
	}
	return c
}

// toolsChart draws the calls of each tool along the path, errors apart.
func (s *Session) toolsChart() *Chart {
	if len(s.Tools) == 0 {
		return nil
	}
	var all ToolStat
	for _, t := range s.Tools {
		all.add(t)
	}
	// Calls the user stopped (pi 1.6) are neither done nor failed: they
	// get a segment and a column of their own where there are any.
	aborted := all.Aborted > 0
	c := &Chart{ID: "ins-tools", Class: "tools", Title: "Tool mix",
		Legend: []Legend{{Class: "s-ok", Label: "calls"}, {Class: "s-err", Label: "errors"}}}
	classes := []string{"s-ok", "s-err"}
	head := []string{"Tool", "Calls", "Errors", "Time", "Output"}
	if aborted {
		c.Legend = append(c.Legend, Legend{Class: "s-abort", Label: "aborted"})
		classes = append(classes, "s-abort")
		head = []string{"Tool", "Calls", "Errors", "Aborted", "Time", "Output"}
	}
	var rows []hbar
	var table []Row
	for i, t := range s.Tools {
		table = append(table, Row{Cells: toolCells(t, aborted)})
		if i < maxRows-1 || len(s.Tools) == maxRows {
			rows = append(rows, toolBar(t, aborted))
		}
	}
	if len(s.Tools) > maxRows {
		var rest ToolStat
		for _, t := range s.Tools[maxRows-1:] {
			rest.add(t)
		}
		rest.Name = humanize.Count(len(s.Tools)-maxRows+1, "other tool", "other tools")
		rows = append(rows, toolBar(rest, aborted))
	}
	c.hbars(rows, classes)
	all.Name = "All"
	c.Table = Table{Caption: "Tool calls", Head: head, Rows: table, Foot: &Row{Cells: toolCells(all, aborted)}}
	var top []string
	for _, t := range s.Tools[:min(3, len(s.Tools))] {
		top = append(top, fmt.Sprintf("%s %d", t.Name, t.Calls))
	}
	outcome := humanize.Count(all.Errors, "error", "errors")
	if aborted {
		outcome += ", " + humanize.Count(all.Aborted, "aborted by the user", "aborted by the user")
	}
	c.Desc = fmt.Sprintf("%s along the path, %s, by tool: %s.",
		humanize.Count(all.Calls, "tool call", "tool calls"), outcome, strings.Join(top, ", "))
	if len(s.Tools) > 3 {
		c.Desc = strings.TrimSuffix(c.Desc, ".") + fmt.Sprintf(" and %d more.", len(s.Tools)-3)
	}
	return c
}

// add sums t's counts into st.
func (st *ToolStat) add(t ToolStat) {
	st.Calls += t.Calls
	st.Errors += t.Errors
	st.Aborted += t.Aborted
	st.Time += t.Time
	st.Bytes += t.Bytes
}

// toolBar is a tool's bar: calls that ran, errors, and with aborted the
// calls the user stopped.
func toolBar(t ToolStat, aborted bool) hbar {
	value := fmt.Sprint(t.Calls)
	if t.Errors > 0 {
		value += fmt.Sprintf(" · %d failed", t.Errors)
	}
	if t.Aborted > 0 {
		value += fmt.Sprintf(" · %d aborted", t.Aborted)
	}
	title := fmt.Sprintf("%s: %s, %s", t.Name, humanize.Count(t.Calls, "call", "calls"), humanize.Count(t.Errors, "error", "errors"))
	if t.Aborted > 0 {
		title += fmt.Sprintf(", %d aborted by the user", t.Aborted)
	}
	if t.Time > 0 {
		title += ", " + humanize.Duration(t.Time) + " in all"
	}
	if t.Bytes > 0 {
		title += ", " + humanize.Bytes(t.Bytes) + " of output"
	}
	segments := []float64{float64(t.Calls - t.Errors - t.Aborted), float64(t.Errors)}
	if aborted {
		segments = append(segments, float64(t.Aborted))
	}
	return hbar{Label: t.Name, Segments: segments, Value: value, Title: title}
}

func toolCells(t ToolStat, aborted bool) []Cell {
	d := ""
	if t.Time > 0 {
		d = humanize.Duration(t.Time)
	}
	cells := []Cell{{Text: t.Name}, {Text: fmt.Sprint(t.Calls), Num: true}, {Text: fmt.Sprint(t.Errors), Num: true}}
	if aborted {
		cells = append(cells, Cell{Text: fmt.Sprint(t.Aborted), Num: true})
	}
	return append(cells, Cell{Text: d, Num: true}, Cell{Text: humanize.Bytes(t.Bytes), Num: true})
}
