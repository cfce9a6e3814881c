package site

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// usageRecords are a few months of work in two projects (one hostile),
// with three models, and a sub-agent's transcript the list does not show.
func usageRecords() []usage.Record {
	var out []usage.Record
	for i := range 90 {
		day := fmt.Sprintf("2026-%02d-%02d", 1+i/30, 1+i%28)
		model := []string{"anthropic/claude-sonnet-4-5", "openai/gpt-5", hostile.Model}[i%3]
		cwd := []string{"/home/alice/web", hostile.Cwd}[i%2]
		out = append(out, usage.Record{Session: fmt.Sprint("s", i%7), Project: cwd, Day: day, Model: model, Messages: 3,
			Usage: session.Usage{Input: int64(1000 * (i + 1)), Output: 300, CacheRead: 20000, CacheWrite: 500, Cost: 0.01 * float64(i+1)}})
	}
	return out
}

// TestWriteIndexUsage: the report heads the list, collapsed, with its
// charts and their tables, and the page's total is the report's.
func TestWriteIndexUsage(t *testing.T) {
	records := usageRecords()
	total := usage.NewReport(records, usage.ByMonth).Total
	out := renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice", Usage: records})
	doc := parseIndexHTML(t, out)
	for _, want := range []string{
		`<details class="insights usage-report" id="usage">`,
		"Cost per day", "Cost per week", "Cost per month", "Tokens per month", "Cost per project", "Cost per model",
		"4 sessions in 3 projects · 6.0M tokens · $40.95 · 1 file could not be read",
		"<td class=\"num\">$40.95</td>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if got := fmt.Sprintf("%.2f", total.Cost); got != "40.95" {
		t.Fatalf("the records cost %s", got)
	}
	if strings.Index(out, `id="usage"`) > strings.Index(out, `class="project"`) {
		t.Error("the report is not above the list")
	}
	checkNoInjectedHTML(t, doc)
	checkIndexCSP(t, doc, "form-action 'none'")
	if strings.Contains(out, " style=") {
		t.Error("an inline style in the page")
	}

	without := renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice"})
	if strings.Contains(without, `id="usage"`) || !strings.Contains(without, "$1.51") {
		t.Error("without records: a report, or the total is not the list's")
	}
}

// TestIndexUsageBrowser opens the report as a reader does, on a wide
// screen and on a phone, in both themes and in print: every chart is
// drawn, fits and is legible (browsertest.ChartProblems).
func TestIndexUsageBrowser(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(path, []byte(renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice", Usage: usageRecords()})), 0o644); err != nil {
		t.Fatal(err)
	}
	const charts = 6
	for _, tc := range []struct {
		name, media, scheme string
		width               int64
	}{
		{"light-wide", "screen", "light", 1400},
		{"dark-wide", "screen", "dark", 1400},
		{"light-phone", "screen", "light", 390},
		{"dark-phone", "screen", "dark", 390},
		{"print", "print", "dark", 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			if tc.width < 600 {
				tb.Do(chromedp.EmulateViewport(tc.width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
			} else {
				tb.Do(chromedp.EmulateViewport(tc.width, 1000))
			}
			tb.EmulateMedia("screen", tc.scheme)
			tb.Navigate("file://" + filepath.ToSlash(path))
			if browsertest.Eval[bool](tb, `document.getElementById('usage').open`) {
				t.Error("the report is open before the reader asks")
			}
			tb.Click(`#usage > summary`)
			tb.EmulateMedia(tc.media, tc.scheme)
			problems, n := browsertest.ChartProblems(tb)
			if n != charts {
				t.Errorf("%d charts drawn, want %d", n, charts)
			}
			for _, p := range problems {
				t.Error(p)
			}
			// The note under a chart names a command, which is never
			// broken at its hyphens ("- -by").
			if lines := browsertest.Eval[[]int](tb, `Array.from(document.querySelectorAll('.chart-note')).filter(n => n.textContent.includes('--by')).map(n => { const c = n.querySelector('code'); return c ? c.getClientRects().length : 0; })`); len(lines) == 0 || slices.ContainsFunc(lines, func(n int) bool { return n != 1 }) {
				t.Errorf("the notes' commands take %v lines, want 1 each", lines)
			}
			if sw := browsertest.Eval[int64](tb, `document.documentElement.scrollWidth`); sw > tc.width {
				t.Errorf("the page is %d px wide in a %d px window", sw, tc.width)
			}
			if browsertest.Eval[bool](tb, `typeof window.__xss !== 'undefined'`) {
				t.Fatal("session text ran as script")
			}
			tb.FullShot("index-usage-" + tc.name)
		})
	}
}

// TestIndexFilters narrows the list by figures, dates, models and
// projects, as the filter box's hint says it can; each project counts
// the sessions it shows; a filter written wrongly says what is wrong.
// Dates are read in the reader's time zone: the tab runs in UTC. The
// filters of figures have no copy in Go (the server's search has
// none); the dates are catalog's parseDate (see catalog/js_test.go).
func TestIndexFilters(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(path, []byte(renderIndex(t, indexItems(), IndexOptions{Home: "/home/alice"})), 0o644); err != nil {
		t.Fatal(err)
	}
	tb := browsertest.OpenTab(t, browser)
	tb.SetTimeZone("UTC")
	tb.Navigate("file://" + filepath.ToSlash(path))
	if tz := browsertest.Eval[string](tb, `Intl.DateTimeFormat().resolvedOptions().timeZone`); tz != "UTC" && tz != "Etc/UTC" {
		t.Fatalf("the tab runs in %s, not UTC", tz)
	}
	for _, tc := range []struct {
		filter string
		want   []string
		// problem is what the status says after the count, for a
		// filter written wrongly (which then filters nothing).
		problem string
	}{
		{"cost>1", []string{"Fix the login form"}, ""},
		{"cost<=0.0123", []string{"Add a health endpoint", "Release script", hostile.Title}, ""},
		{"tokens>1k tokens<2k", []string{"Add a health endpoint"}, ""},
		{"tokens>=1.1M", []string{"Fix the login form"}, ""},
		{"duration>1h", []string{"Fix the login form"}, ""},
		{"length<10m", []string{"Release script", hostile.Title}, ""},
		{"messages<5", []string{"Release script", hostile.Title}, ""},
		{"after:2026-03-02", []string{"Fix the login form", "Release script"}, ""},
		// before: includes its day, month or year, as the server's search.
		{"before:2026-02-28", []string{hostile.Title}, ""},
		{"before:2026-03-01", []string{"Add a health endpoint", hostile.Title}, ""},
		{"before:2026-01", nil, ""},
		{"after:2026-03 before:2026-03-02", []string{"Add a health endpoint", "Release script"}, ""},
		{"model:gpt-5", []string{"Fix the login form"}, ""},
		{"model:anthropic/claude", []string{"Fix the login form", "Add a health endpoint"}, ""},
		{"project:cli", []string{"Release script"}, ""},
		{"login cost>1", []string{"Fix the login form"}, ""},
		{"cost>lots", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "cost>lots is not a filter: cost> takes a figure, as cost>1.5 or cost>$2"},
		{"cost>>10", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "cost>>10 is not a filter: cost> takes a figure, as cost>1.5 or cost>$2"},
		{"login after:yesterday", []string{"Fix the login form"}, "after:yesterday is not a filter: after: takes a date, as after:2026-03-01, after:2026-03 or after:2026"},
		// Dates as the server's search reads them (catalog's parseDate):
		// no month 13, no February 30, two figures for a month or day.
		{"after:2026-13", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "after:2026-13 is not a filter: after: takes a date, as after:2026-03-01, after:2026-03 or after:2026"},
		{"before:2026-02-30", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "before:2026-02-30 is not a filter: before: takes a date, as before:2026-03-01, before:2026-03 or before:2026"},
		{"after:2026-3-2", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "after:2026-3-2 is not a filter: after: takes a date, as after:2026-03-01, after:2026-03 or after:2026"},
		{"before:", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "before: is not a filter: before: takes a date, as before:2026-03-01, before:2026-03 or before:2026"},
		{"before:2027", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, ""},
		{"duration>1w", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "duration>1w is not a filter: duration> takes a duration, as duration>30m or duration>2h"},
		{"duration>=90", []string{"Fix the login form"}, ""}, // minutes
		{"tokens<2x", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "tokens<2x is not a filter: tokens< takes a figure, as tokens<50 or tokens<2k"},
		{"messages=", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "messages= is not a filter: messages= takes a figure, as messages=50 or messages=2k"},
		{"cost>1.5.2", []string{"Fix the login form", "Add a health endpoint", "Release script", hostile.Title}, "cost>1.5.2 is not a filter: cost> takes a figure, as cost>1.5 or cost>$2"},
		{"branches>1", []string{"Add a health endpoint"}, ""},
		{"messages=14", []string{"Add a health endpoint"}, ""},
		{"COST>$1", []string{"Fix the login form"}, ""},
		// Words that only look like filters are looked for in the text.
		{"date>2026", nil, ""},
		{"speed>10", nil, ""},
		{"model:", nil, ""},
		{"cost>1 cost>>10", []string{"Fix the login form"}, "cost>>10 is not a filter: cost> takes a figure, as cost>1.5 or cost>$2"},
	} {
		tb.Do(chromedp.Evaluate[chromedp.Void](`(() => { document.getElementById('filter-status').textContent = ''; const f = document.getElementById('filter'); f.value = ` +
			browsertest.JSString(tc.filter) + `; f.dispatchEvent(new Event('input')); })()`))
		tb.WaitJS(`document.getElementById('filter-status').textContent !== ''`)
		want := fmt.Sprintf("%d of 4 sessions", len(tc.want))
		if tc.problem != "" {
			want += " · " + tc.problem
		}
		if status := browsertest.Eval[string](tb, `document.getElementById('filter-status').textContent`); status != want {
			t.Errorf("%q: status %q, want %q", tc.filter, status, want)
		}
		// Each project shown counts the sessions it shows.
		shown := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('section.project')).filter(s => s.checkVisibility()).map(s => s.querySelector('.count').textContent + '=' + Array.from(s.querySelectorAll('tbody tr')).filter(r => r.checkVisibility()).length)`)
		for _, c := range shown {
			if n, rows, _ := strings.Cut(c, "="); n != rows {
				t.Errorf("%q: a project shows %s sessions and says %s", tc.filter, rows, n)
			}
		}
		got := browsertest.Eval[[]string](tb, `Array.from(document.querySelectorAll('table.sessions tbody tr')).filter(r => r.checkVisibility()).map(r => r.cells[0].textContent)`)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("%q shows %q, want %q", tc.filter, got, tc.want)
		}
	}
	// The status counts as every message of piexport does.
	for _, n := range []int{-2, -1, 0, 1, 2, 1000} {
		got := browsertest.Eval[string](tb, fmt.Sprintf(`sessionList.count(%d, 'session', 'sessions')`, n))
		if want := session.Count(n, "session", "sessions"); got != want {
			t.Errorf("count(%d): index.js says %q, session.Count %q", n, got, want)
		}
	}
}
