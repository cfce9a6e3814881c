package catalog

import (
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/session"
)

// usageRow sums the model work of one session of one UTC day under one
// key of pi's cost breakdown.
type usageRow struct {
	// Day is the UTC date, "2006-01-02".
	Day string
	// Model is the key session.Entry.UsageRecord gives: "provider/model"
	// of the model that answered, or session.ToolsAndSummaries.
	Model string
	// Messages counts the records summed.
	Messages int
	session.Usage
}

// tally sums the model work of entries per UTC day and breakdown key. It
// is the one place the catalog decides what counts, and it counts what
// session.Stats counts (Entry.UsageRecord), so that the catalog's sums
// agree with pi's own /session figures. entries are a whole session's, or
// those appended to it since it was read: sums of parts are the sum of the
// whole. fallback dates an entry that has no time of its own.
func tally(entries []*session.Entry, fallback time.Time) []usageRow {
	type key struct{ day, model string }
	rows := map[key]*usageRow{}
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
			r = &usageRow{Day: k.day, Model: k.model}
			rows[k] = r
		}
		r.Messages++
		r.Usage.Add(u)
	}
	out := make([]usageRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b usageRow) int {
		if c := strings.Compare(a.Day, b.Day); c != 0 {
			return c
		}
		return strings.Compare(a.Model, b.Model)
	})
	return out
}
