package insights

import (
	"cmp"
	"slices"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// Activity is when a path's entries were written: spans of work and the
// idle pauses between them.
type Activity struct {
	Start, End time.Time
	Spans      []Span
	// Idle is the shortest pause counted as idle: pauses at least this
	// long separate spans.
	Idle time.Duration
}

// Active sums the spans' lengths.
func (a Activity) Active() time.Duration {
	var d time.Duration
	for _, s := range a.Spans {
		d += s.End.Sub(s.Start)
	}
	return d
}

// span says how long the work took: "2h 5m", or "2h 5m active over 1d
// 3h" when it paused.
func (a Activity) span() string {
	all := humanize.Duration(a.End.Sub(a.Start))
	if len(a.Spans) < 2 {
		return all
	}
	return humanize.Duration(a.Active()) + " active over " + all
}

// Span is a stretch of work without an idle pause.
type Span struct {
	Start, End time.Time
	// ID is the span's first entry.
	ID string
	// Entries counts the entries written in it, Turns the assistant
	// messages among them; Prompts are the times of its user messages.
	Entries, Turns int
	Prompts        []time.Time
}

const (
	// minIdle is the shortest pause a timeline shows as idle.
	minIdle = 10 * time.Minute
	// maxSpans bounds the spans of a timeline: a session resumed many
	// times shows only its longest pauses, and the spans stay wide
	// enough to see.
	maxSpans = 8
)

// activityOf groups the timed entries of path into spans.
func activityOf(path []*session.Entry) Activity {
	var timed []*session.Entry
	for _, e := range path {
		if !e.Time.IsZero() {
			timed = append(timed, e)
		}
	}
	if len(timed) == 0 {
		return Activity{}
	}
	// Clocks and branches can put an entry before its parent.
	slices.SortStableFunc(timed, func(a, b *session.Entry) int { return a.Time.Compare(b.Time) })
	idle := idleThreshold(timed)
	a := Activity{Start: timed[0].Time, End: timed[len(timed)-1].Time, Idle: idle}
	var cur *Span
	for i, e := range timed {
		if i == 0 || e.Time.Sub(timed[i-1].Time) >= idle {
			a.Spans = append(a.Spans, Span{Start: e.Time, ID: e.ID})
			cur = &a.Spans[len(a.Spans)-1]
		}
		cur.End = e.Time
		cur.Entries++
		switch e.Role() {
		case "assistant":
			cur.Turns++
		case "user":
			cur.Prompts = append(cur.Prompts, e.Time)
		}
	}
	return a
}

// idleThreshold is minIdle, or longer where that would make more than
// maxSpans spans: then only the longest pauses separate them.
func idleThreshold(timed []*session.Entry) time.Duration {
	var gaps []time.Duration
	for i := 1; i < len(timed); i++ {
		if g := timed[i].Time.Sub(timed[i-1].Time); g >= minIdle {
			gaps = append(gaps, g)
		}
	}
	if len(gaps) < maxSpans {
		return minIdle
	}
	slices.SortFunc(gaps, func(a, b time.Duration) int { return cmp.Compare(b, a) })
	// The longest maxSpans-1 pauses; a pause as long as the next one
	// left out would tie with it, so the threshold goes just above that.
	t := gaps[maxSpans-2]
	if next := gaps[maxSpans-1]; next == t {
		t++
	}
	return t
}
