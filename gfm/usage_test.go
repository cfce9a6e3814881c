package gfm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// TestWriteMarkdownUsage: the tables of the report, their totals, and
// names from sessions written as text, never as markup or a table cell
// break.
func TestWriteMarkdownUsage(t *testing.T) {
	records := []usage.Record{
		{Session: "a", Project: "/home/dev/web", Day: "2026-03-01", Model: "anthropic/claude-sonnet-4-5", Messages: 2, Usage: session.Usage{Input: 1500, Cost: 1.25}},
		{Session: "b", Project: "/home/dev/" + hostile.Label, Day: "2026-04-02", Model: "x|y <b>z</b>", Messages: 1, Usage: session.Usage{Output: 500, Cost: 0.5}},
	}
	var b bytes.Buffer
	if err := WriteMarkdownUsage(&b, records, func(cwd string) string { return strings.Replace(cwd, "/home/dev", "~", 1) }); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"## Usage", "### Per month", "| 2026-03 | 1 | 1.5k | $1.25 |", "| **Total** | 2 | 2.0k | $1.75 |",
		"### Per project", "| ~/web | 1 | 1.5k | $1.25 |", "### Per model", "x&#124;y &lt;b&gt;z&lt;/b&gt;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<") {
		t.Errorf("an unescaped < from a session:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(line, "|") != 5 {
			t.Errorf("a row of other than four cells: %q", line)
		}
	}
	b.Reset()
	if err := WriteMarkdownUsage(&b, nil, nil); err != nil || b.Len() != 0 {
		t.Errorf("no records: %q, %v", b.String(), err)
	}
}
