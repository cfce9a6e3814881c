// Package usage sums the model work of many sessions into a report: tokens
// and cost per day, week and month, per project and per model, with
// totals. It is what `piexport --usage` prints and what the index of an
// archive or of the server charts, so that both say the same figures.
//
// It is handed records (package catalog keeps them, one per session file,
// UTC day and model) and knows nothing of where they came from, nor of how
// a report is shown.
package usage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/session"
)

// Record is the model work of one session file on one UTC day under one
// key of pi's cost breakdown.
type Record struct {
	// Session identifies the file the work is recorded in: a catalog id,
	// a path; sessions are counted by it. Session and Project are left
	// out of JSON: whoever keeps records per file knows them.
	Session string `json:"-"`
	// SubAgent says the file is a sub-agent's transcript (omp's): its
	// work counts as any other's, and it is counted apart from sessions.
	SubAgent bool `json:"-"`
	// Project is the session's working directory, "" when it has none.
	Project string `json:"-"`
	// Person is who pushed the session to a shared catalog (its
	// PostgreSQL role); "" for this machine's sessions.
	Person string `json:"-"`
	// Day is the UTC date, "2006-01-02".
	Day string `json:"day"`
	// Model is "provider/model" of the model that answered, or
	// session.ToolsAndSummaries (see session.Entry.UsageRecord).
	Model string `json:"model"`
	// Messages counts the records summed (turns, usage entries,
	// summaries).
	Messages int `json:"messages"`
	session.Usage
}

// By is how a report groups its records.
type By string

// The groupings of a report. A week starts on Monday and is named by that
// day's date.
const (
	ByDay     By = "day"
	ByWeek    By = "week"
	ByMonth   By = "month"
	ByProject By = "project"
	ByModel   By = "model"
	// ByPerson groups a shared catalog's records by who pushed them.
	ByPerson By = "person"
)

// Groupings lists every By, in the order a report shows them.
var Groupings = []By{ByDay, ByWeek, ByMonth, ByProject, ByModel, ByPerson}

// IsPeriod says whether b groups by time.
func (b By) IsPeriod() bool { return b == ByDay || b == ByWeek || b == ByMonth }

// Heading names the groups of b as a table's column does.
func (b By) Heading() string {
	switch b {
	case ByWeek:
		return "Week of"
	case ByProject:
		return "Project"
	case ByModel:
		return "Model"
	}
	return strings.ToUpper(string(b[:1])) + string(b[1:])
}

// Group is the sum of the records that fall in one day, week, month,
// project or model.
type Group struct {
	// Key names the group: "2026-03-02" (a day, or the Monday of a week),
	// "2026-03", a working directory ("" for none), a model.
	Key string
	// Sessions counts the distinct sessions with work in the group, and
	// SubAgents the sub-agents' transcripts apart from them.
	Sessions, SubAgents int
	Messages            int
	session.Usage
}

// Report is the records' sums grouped one way, with their total.
type Report struct {
	By     By
	Groups []Group
	Total  Group
}

// NewReport groups records by b: periods oldest first, projects and
// models by cost, largest first (then by tokens, then by name).
func NewReport(records []Record, b By) Report {
	type acc struct {
		g                   Group
		sessions, subAgents map[string]struct{}
	}
	newAcc := func(k string) *acc {
		return &acc{g: Group{Key: k}, sessions: map[string]struct{}{}, subAgents: map[string]struct{}{}}
	}
	groups := map[string]*acc{}
	total := newAcc("")
	// A history has a few hundred days and many records on each: the
	// week of a day is worked out once.
	weeks := map[string]string{}
	for _, r := range records {
		k := key(r, b)
		if b == ByWeek {
			w, ok := weeks[r.Day]
			if !ok {
				w = WeekOf(r.Day)
				weeks[r.Day] = w
			}
			k = w
		}
		a := groups[k]
		if a == nil {
			a = newAcc(k)
			groups[k] = a
		}
		for _, x := range []*acc{a, total} {
			x.g.Messages += r.Messages
			x.g.Usage.Add(r.Usage)
			if r.SubAgent {
				x.subAgents[r.Session] = struct{}{}
			} else {
				x.sessions[r.Session] = struct{}{}
			}
		}
	}
	rep := Report{By: b, Groups: make([]Group, 0, len(groups))}
	for _, a := range groups {
		a.g.Sessions, a.g.SubAgents = len(a.sessions), len(a.subAgents)
		rep.Groups = append(rep.Groups, a.g)
	}
	total.g.Sessions, total.g.SubAgents = len(total.sessions), len(total.subAgents)
	rep.Total = total.g
	if b.IsPeriod() {
		slices.SortFunc(rep.Groups, func(x, y Group) int { return strings.Compare(x.Key, y.Key) })
	} else {
		slices.SortFunc(rep.Groups, func(x, y Group) int {
			if c := cmp.Compare(y.Cost, x.Cost); c != 0 {
				return c
			}
			if c := cmp.Compare(y.Tokens(), x.Tokens()); c != 0 {
				return c
			}
			return strings.Compare(x.Key, y.Key)
		})
	}
	return rep
}

// key is the group of r under b.
func key(r Record, b By) string {
	switch b {
	case ByWeek:
		return r.Day // NewReport turns it into its week
	case ByMonth:
		if len(r.Day) >= 7 {
			return r.Day[:7]
		}
	case ByProject:
		return r.Project
	case ByModel:
		return r.Model
	case ByPerson:
		return r.Person
	}
	return r.Day
}

// WeekOf returns the date of the Monday of day's week; day itself when it
// is not a date.
func WeekOf(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	back := (int(t.Weekday()) + 6) % 7 // days since Monday
	return t.AddDate(0, 0, -back).Format(time.DateOnly)
}

// Since keeps the records from day on (a "2006-01-02" date, UTC); all of
// them when day is "".
func Since(records []Record, day string) []Record {
	if day == "" {
		return records
	}
	out := records[:0:0]
	for _, r := range records {
		if r.Day >= day {
			out = append(out, r)
		}
	}
	return out
}

// ParseDate reads a date as --since takes it: 2026-03-01, 20260301,
// 2026-03 (its first day) or 2026 (its first day), and returns it as
// "2006-01-02".
func ParseDate(s string) (string, error) {
	for _, layout := range []string{time.DateOnly, "20060102", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(time.DateOnly), nil
		}
	}
	return "", fmt.Errorf("%q is not a date: give it as 2026-03-01, 2026-03 or 2026", s)
}
