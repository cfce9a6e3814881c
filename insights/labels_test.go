package insights

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// checkLabels fails the test for each text of c that passes an edge of
// its chart (the SVG clips it) or covers another text, by the widths
// DejaVu Sans gives them (textWidth). The browser tests check the same
// as drawn (internal/browsertest.ChartProblems).
func checkLabels(t *testing.T, what string, c Chart) {
	t.Helper()
	type rect struct{ x0, y0, x1, y1 float64 }
	var seen []rect
	for _, tx := range c.Texts {
		x0, y0, x1, y1 := tx.box()
		if x0 < 0 || y0 < 0 || x1 > float64(c.W) || y1 > float64(c.H) {
			t.Errorf("%s: %s: %q spans %.0f to %.0f across and %.0f to %.0f down a %dx%d chart", what, c.ID, tx.Text, x0, x1, y0, y1, c.W, c.H)
		}
		// Texts touch where one's line box meets the next's: what is
		// drawn reaches from the cap height (0.73 em) above the baseline
		// to the descent below it.
		y0 = float64(tx.Y) - 0.73*fontSize(tx.Class)
		for j, r := range seen {
			if x0 < r.x1 && r.x0 < x1 && y0 < r.y1 && r.y0 < y1 {
				t.Errorf("%s: %s: %q covers %q", what, c.ID, tx.Text, c.Texts[j].Text)
			}
		}
		seen = append(seen, rect{x0, y0, x1, y1})
	}
}

// TestLabelsInside: every label of every chart lies whole inside its
// chart, apart from the others, in the corpus, in a session whose
// labels are at their longest and nearest the edges (a tool called 210
// times, 16 of them failed; a timeline whose last span is narrow at its
// right edge; a context that reaches its model's window; long names),
// and in usage reports of long and hostile names.
func TestLabelsInside(t *testing.T) {
	labels, err := session.Read(bytes.NewReader(sessiongen.LongLabels()), "long-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../testdata/corpus/*.jsonl")
	sessions := []*session.Session{labels}
	for _, f := range files {
		if s, err := session.Load(f); err == nil {
			sessions = append(sessions, s)
		}
	}
	for _, s := range sessions {
		sec := leafSection(t, s)
		if sec == nil {
			continue
		}
		for _, c := range sec.Charts {
			checkLabels(t, filepath.Base(s.File), c)
		}
	}
	if sec := leafSection(t, labels); sec == nil || len(sec.Charts) != 5 {
		t.Fatalf("the long labels' session has %d charts, want 5", len(sec.Charts))
	}

	var records []usage.Record
	projects := []string{"/home/dev/Documents/clients/acme-corporation/quarterly-billing-reconciliation",
		`E:\003Resources\Projects\long-windows-project-name\src`, hostile.Cwd, "/srv/x"}
	models := []string{"amazon-bedrock/eu.anthropic.claude-sonnet-4-5-20250929-v1:0", "openrouter/anthropic/claude-3.7-sonnet:thinking",
		hostile.Model, "/", "openai/gpt-5"}
	for i := range 400 {
		records = append(records, usage.Record{Session: fmt.Sprint("s", i%9), Project: projects[i%len(projects)],
			Day: fmt.Sprintf("2026-%02d-%02d", 1+i/31%12, 1+i%28), Model: models[i%len(models)], Messages: 3,
			Usage: session.Usage{Input: int64(1_000_000 * (i + 1)), Output: 300, Cost: 1234.5 * float64(i+1)}})
	}
	rep := NewReport(records, homeName)
	if rep == nil || len(rep.Charts) != 6 {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Charts {
		checkLabels(t, "report", c)
	}
	corpus := NewReport(corpusRecords(t), homeName)
	for _, c := range corpus.Charts {
		checkLabels(t, "corpus report", c)
	}
}

// TestUnknownModel: the cost by model names a message's model that
// names no provider and no model "(unknown model)", not "/".
func TestUnknownModel(t *testing.T) {
	s, err := session.Read(bytes.NewReader(sessiongen.LongLabels()), "long-labels.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range leafSection(t, s).Charts {
		if c.ID != "ins-models" {
			continue
		}
		var labels []string
		for _, tx := range c.Texts {
			if tx.Class == "label" {
				labels = append(labels, tx.Text)
			}
		}
		if !slices.Contains(labels, "(unknown model)") || slices.Contains(labels, "/") {
			t.Errorf("the models are %q", labels)
		}
		return
	}
	t.Error("no cost by model")
}
