package insights

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// corpusRecords are the usage records of every corpus file, as the
// catalog keeps them.
func corpusRecords(t testing.TB) []usage.Record {
	t.Helper()
	c, err := catalog.New(context.Background(), []string{"../testdata/corpus"}, catalog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	records, err := c.Usage(context.Background(), "")
	if err != nil || len(records) == 0 {
		t.Fatalf("%d records, %v", len(records), err)
	}
	return records
}

func homeName(cwd string) string { return session.ShortenHome(cwd, session.HomeOf(cwd, "")) }

// TestReportGoldenSVG compares the usage report of the corpus with
// testdata/golden/usage-*.svg (go test ./insights -update rewrites them).
func TestReportGoldenSVG(t *testing.T) {
	rep := NewReport(corpusRecords(t), homeName)
	var ids []string
	for _, c := range rep.Charts {
		ids = append(ids, c.ID)
		t.Run(c.ID, func(t *testing.T) {
			svg := execute(t, "svg", c) + "\n"
			checkXML(t, svg)
			path := filepath.Join("../testdata/golden", c.ID+".svg")
			if *update {
				if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./insights -update)", err)
			}
			if diff := cmp.Diff(string(want), svg); diff != "" {
				t.Errorf("SVG differs (-want +got):\n%s", diff)
			}
		})
	}
	want := []string{"usage-day", "usage-week", "usage-month", "usage-tokens", "usage-projects", "usage-models"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("charts (-want +got):\n%s", diff)
	}
}

// TestReportAgreesWithUsage checks that the charts' tables say what
// `piexport --usage` prints from the same records: the totals of the
// month, project and model tables are the report's to the cent, and each
// project's and model's row is its group's.
func TestReportAgreesWithUsage(t *testing.T) {
	records := corpusRecords(t)
	rep := NewReport(records, homeName)
	total := usage.NewReport(records, usage.ByMonth).Total
	byID := map[string]Chart{}
	for _, c := range rep.Charts {
		byID[c.ID] = c
	}
	foot := func(id string, col int) string {
		c, ok := byID[id]
		if !ok || c.Table.Foot == nil {
			t.Fatalf("no chart %s with a total", id)
		}
		cells := c.Table.Foot.Cells
		if col < 0 { // from the end
			col += len(cells)
		}
		return cells[col].Text
	}
	cost := humanize.Cost(total.Cost)
	for _, tc := range []struct {
		id   string
		col  int
		want string
	}{
		{"usage-month", -1, cost}, {"usage-month", -2, humanize.Tokens(total.Tokens())},
		{"usage-tokens", 5, cost}, {"usage-projects", -2, cost}, {"usage-models", -2, cost},
		{"usage-models", 1, fmt.Sprint(total.Sessions)}, {"usage-models", 2, fmt.Sprint(total.SubAgents)},
	} {
		if got := foot(tc.id, tc.col); got != tc.want {
			t.Errorf("%s: total %q, want %q", tc.id, got, tc.want)
		}
	}
	if !strings.HasPrefix(rep.Summary, cost+" · ") {
		t.Errorf("summary %q does not start with the total cost %s", rep.Summary, cost)
	}
	for _, by := range []usage.By{usage.ByProject, usage.ByModel} {
		groups := usage.NewReport(records, by).Groups
		rows := byID["usage-"+string(by)+"s"].Table.Rows
		if len(rows) != len(groups) {
			t.Fatalf("%s: %d rows, %d groups", by, len(rows), len(groups))
		}
		for i, g := range groups {
			name := humanize.Model(g.Key)
			if by == usage.ByProject {
				name = homeName(g.Key)
				if g.Key == "" {
					name = "(no working directory)"
				}
			}
			// name, sessions, sub-agents, tokens, cost, share
			if r := rows[i].Cells; r[0].Text != name || r[1].Text != fmt.Sprint(g.Sessions) || r[2].Text != fmt.Sprint(g.SubAgents) ||
				r[4].Text != humanize.Cost(g.Cost) || r[3].Text != humanize.Tokens(g.Tokens()) {
				t.Errorf("%s row %d: %q %q %q, want %q %q %q", by, i, r[0].Text, r[3].Text, r[4].Text, name, humanize.Tokens(g.Tokens()), humanize.Cost(g.Cost))
			}
		}
	}
}

// TestReportPeriods fills the periods without work and keeps the latest.
func TestReportPeriods(t *testing.T) {
	rec := func(day string, cost float64) usage.Record {
		return usage.Record{Session: day, Day: day, Model: "m", Messages: 1, Usage: session.Usage{Input: 10, Cost: cost}}
	}
	records := []usage.Record{rec("2025-12-30", 1), rec("2026-01-02", 2), rec("2026-03-01", 4)}
	var keys []string
	for _, p := range periods(usage.NewReport(records, usage.ByMonth), 36) {
		keys = append(keys, p.key)
	}
	if diff := cmp.Diff([]string{"2025-12", "2026-01", "2026-02", "2026-03"}, keys); diff != "" {
		t.Errorf("months (-want +got):\n%s", diff)
	}
	days := periods(usage.NewReport(records, usage.ByDay), 31)
	if len(days) != 31 || days[30].key != "2026-03-01" || days[0].key != "2026-01-30" {
		t.Errorf("%d days from %s to %s, want the 31 up to 2026-03-01", len(days), days[0].key, days[len(days)-1].key)
	}
	c := periodChart(usage.NewReport(records, usage.ByDay), metric{cost: true}, 31)
	if c.Note == "" || len(c.Table.Rows) != 1 || c.Table.Foot.Cells[3].Text != "$4.00" {
		t.Errorf("the latest 31 days: note %q, %d rows, total %q", c.Note, len(c.Table.Rows), c.Table.Foot.Cells[3].Text)
	}
	// Free models only: the bars are tokens.
	free := []usage.Record{rec("2026-01-02", 0), rec("2026-02-03", 0)}
	if c := periodChart(usage.NewReport(free, usage.ByMonth), metricOf(usage.NewReport(free, usage.ByMonth).Total), 36); c.Title != "Tokens per month" {
		t.Errorf("with no cost the chart is %q", c.Title)
	}
	// The latest days cost nothing, the history did: no bar stands out.
	paid := []usage.Record{rec("2026-01-02", 3), rec("2026-02-03", 0)}
	if c := periodChart(usage.NewReport(paid, usage.ByDay), metric{cost: true}, 31); c == nil || strings.Contains(c.Desc, "the most") {
		t.Errorf("days of no cost: %+v", c)
	}
	if NewReport(nil, homeName) != nil {
		t.Error("a report of nothing")
	}
}

// TestReportHostileNames puts markup in projects and models: the report
// is well-formed SVG of our own elements, the names shown as text.
func TestReportHostileNames(t *testing.T) {
	var records []usage.Record
	for i, name := range []string{hostile.Label, hostile.Title, hostile.Foot, `"><script>window.__xss=1</script>`} {
		records = append(records, usage.Record{Session: name, Project: "/home/dev/" + name, Day: "2026-0" + string(rune('1'+i)) + "-01",
			Model: name, Messages: 1, Usage: session.Usage{Input: int64(100 * (i + 1)), Cost: float64(i + 1)}})
	}
	rep := NewReport(records, homeName)
	if rep == nil || len(rep.Charts) < 4 {
		t.Fatalf("report %+v", rep)
	}
	var page strings.Builder
	for _, c := range rep.Charts {
		svg := execute(t, "svg", c)
		elements, _ := checkXML(t, svg)
		for e := range elements {
			switch e {
			case "svg", "title", "desc", "line", "path", "text", "g", "rect":
			default:
				t.Errorf("%s: element <%s> in the SVG", c.ID, e)
			}
		}
		page.WriteString(execute(t, "chart", c))
	}
	doc, err := html.Parse(strings.NewReader(page.String()))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for n := range doc.Descendants() {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
		case html.ElementNode:
			if n.Data == "script" || n.Data == "img" {
				t.Errorf("element <%s> in the report", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || a.Key == "href" || a.Key == "style" {
					t.Errorf("<%s %s=%q> in the report", n.Data, a.Key, a.Val)
				}
			}
		}
	}
	if !strings.Contains(text.String(), "window.__xss=1") {
		t.Error("the names are not shown as text")
	}
}

// TestReportCapitals: the names of days and months keep their capitals
// inside the charts' descriptions and captions ("from Sat, Oct 24", not
// "from sat, Oct 24"), and a week is "week of" there.
func TestReportCapitals(t *testing.T) {
	rep := NewReport(corpusRecords(t), homeName)
	lower := regexp.MustCompile(`\b(mon|tue|wed|thu|fri|sat|sun|january|february|march|april|may|june|july|august|september|october|november|december)\b|\bWeek of\b`)
	for _, c := range rep.Charts {
		for _, text := range []string{c.Desc, c.Table.Caption} {
			if m := lower.FindString(text); m != "" && !strings.HasPrefix(text, m) {
				t.Errorf("%s: %q inside %q", c.ID, m, text)
			}
		}
	}
	weeks := NewReport(corpusRecords(t), homeName).Charts[1]
	if weeks.ID != "usage-week" || !strings.Contains(weeks.Desc, "from week of ") {
		t.Errorf("%s: %q", weeks.ID, weeks.Desc)
	}
}
