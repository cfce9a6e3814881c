package usage

import (
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/session"
)

// Tally sums the model work of entries per UTC day and breakdown key, as
// records of no session and no project (the caller knows those). It is
// the one place piexport decides what a report counts, and it counts what
// session.Stats counts (session.Entry.UsageRecord), so that a report over
// files agrees with pi's own /session figures for them. entries may be a
// whole session's or those appended to it since it was read: sums of
// parts are the sum of the whole. fallback dates an entry that has no
// time of its own.
func Tally(entries []*session.Entry, fallback time.Time) []Record {
	type key struct{ day, model string }
	rows := map[key]*Record{}
	for _, e := range entries {
		u, model, ok := e.UsageRecord()
		if !ok {
			continue
		}
		t := e.Time
		if t.IsZero() && e.Message != nil {
			t = e.Message.Time
		}
		if t.IsZero() {
			t = fallback
		}
		k := key{t.UTC().Format(time.DateOnly), model}
		r := rows[k]
		if r == nil {
			r = &Record{Day: k.day, Model: k.model}
			rows[k] = r
		}
		r.Messages++
		r.Usage.Add(u)
	}
	out := make([]Record, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b Record) int {
		if c := strings.Compare(a.Day, b.Day); c != 0 {
			return c
		}
		return strings.Compare(a.Model, b.Model)
	})
	return out
}
