package usage

import (
	"testing"

	"github.com/piexport/piexport/session"
)

func rec(sess, project, day, model string, tokens int64, cost float64) Record {
	return Record{Session: sess, Project: project, Day: day, Model: model, Messages: 1,
		Usage: session.Usage{Input: tokens, Cost: cost}}
}

func TestNewReport(t *testing.T) {
	records := []Record{
		rec("a", "/p/one", "2026-03-01", "x/big", 100, 1.5), // a Sunday
		rec("a", "/p/one", "2026-03-02", "x/big", 50, 0.5),  // the Monday after
		rec("b", "/p/two", "2026-03-02", "x/small", 10, 0.25),
		rec("b", "/p/two", "2026-04-30", "x/small", 10, 0.25),
		rec("c", "", "2026-04-30", "x/free", 1000, 0),
	}
	for _, tc := range []struct {
		by       By
		keys     []string
		sessions []int
	}{
		{ByDay, []string{"2026-03-01", "2026-03-02", "2026-04-30"}, []int{1, 2, 2}},
		{ByWeek, []string{"2026-02-23", "2026-03-02", "2026-04-27"}, []int{1, 2, 2}},
		{ByMonth, []string{"2026-03", "2026-04"}, []int{2, 2}},
		// By cost, largest first; equal cost by tokens.
		{ByProject, []string{"/p/one", "/p/two", ""}, []int{1, 1, 1}},
		{ByModel, []string{"x/big", "x/small", "x/free"}, []int{1, 1, 1}},
	} {
		t.Run(string(tc.by), func(t *testing.T) {
			rep := NewReport(records, tc.by)
			if len(rep.Groups) != len(tc.keys) {
				t.Fatalf("%d groups %+v, want %v", len(rep.Groups), rep.Groups, tc.keys)
			}
			for i, g := range rep.Groups {
				if g.Key != tc.keys[i] || g.Sessions != tc.sessions[i] {
					t.Errorf("group %d is %q of %d sessions, want %q of %d", i, g.Key, g.Sessions, tc.keys[i], tc.sessions[i])
				}
			}
			if tot := rep.Total; tot.Sessions != 3 || tot.Messages != 5 || tot.Input != 1170 || tot.Cost != 2.5 {
				t.Errorf("total %+v", tot)
			}
		})
	}
	if got := Since(records, "2026-03-02"); len(got) != 4 {
		t.Errorf("since 2026-03-02: %d records, want 4", len(got))
	}
}

func TestParseDate(t *testing.T) {
	for in, want := range map[string]string{
		"2026-03-05": "2026-03-05", "20260305": "2026-03-05", "2026-03": "2026-03-01", "2026": "2026-01-01",
	} {
		if got, err := ParseDate(in); err != nil || got != want {
			t.Errorf("ParseDate(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2026-13-01", "03/05/2026"} {
		if _, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) took it", bad)
		}
	}
}

// TestSubAgentsApart: sub-agents' transcripts are counted apart from
// the sessions, in each group and in the total; their work is summed
// with the rest.
func TestSubAgentsApart(t *testing.T) {
	records := []Record{
		{Session: "a", Day: "2026-03-02", Model: "m", Messages: 1, Usage: session.Usage{Input: 1}},
		{Session: "a/x", SubAgent: true, Day: "2026-03-02", Model: "m", Messages: 1, Usage: session.Usage{Input: 2}},
		{Session: "a/y", SubAgent: true, Day: "2026-03-03", Model: "m", Messages: 1, Usage: session.Usage{Input: 4}},
	}
	rep := NewReport(records, ByDay)
	if g := rep.Groups[0]; g.Sessions != 1 || g.SubAgents != 1 || g.Input != 3 {
		t.Errorf("first day: %+v", g)
	}
	if tot := rep.Total; tot.Sessions != 1 || tot.SubAgents != 2 || tot.Input != 7 {
		t.Errorf("total: %+v", tot)
	}
}
