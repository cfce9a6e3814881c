// Package insights turns a session's figures into what people would
// rather look at than read: SVG charts with the tables of their numbers
// (Of, Section): the context the model saw turn after turn, where the
// tokens went, the cost by model, the tool mix, and when the work
// happened.
//
// The charts are drawn by a small renderer of its own (chart.go) and
// written by templates/insights.html: no Go charting library writes SVG
// that is styled by classes alone, and the pages' Content-Security-Policy
// allows no inline style. The package counts nothing itself: figures come
// from session.Entry.UsageRecord and session.Stats, so they agree with
// pi's own /session figures. It knows nothing of files, nor of the pages
// the charts go in beyond the links it is given.
package insights

import (
	"time"

	"github.com/piexport/piexport/session"
)

// Session is what the figures of one session along one path are.
type Session struct {
	// Turns are the assistant messages of the path, in order.
	Turns []Turn
	// Marks are the compactions and branch points of the path.
	Marks []Mark
	// Window is the context window of the model of the path's last turn
	// (as pi's model registry has it), 0 when unknown; WindowModel names
	// that model.
	Window      int64
	WindowModel string
	// Breakdown is the whole file's cost by model (session.Stats).
	Breakdown []session.ModelCost
	// Tools are the calls of the path per tool, most used first; Slowest
	// and Largest are the calls that took longest and those whose
	// results were longest.
	Tools            []ToolStat
	Slowest, Largest []ToolCall
	// Activity is when the path's entries were written.
	Activity Activity
}

// Turn is one assistant message: one call of the model.
type Turn struct {
	// N counts the turns of the path from 1.
	N int
	// ID is the entry's id in the session.
	ID    string
	Time  time.Time
	Model string
	Usage session.Usage
}

// Context is the size of the context the model was sent in the turn:
// every input token, cached or not.
func (t Turn) Context() int64 { return t.Usage.Input + t.Usage.CacheRead + t.Usage.CacheWrite }

// Mark is an entry of the path that changed the context's course.
type Mark struct {
	// Kind is "compaction" or "branch" (an entry the conversation left
	// from in several directions).
	Kind string
	ID   string
	// After counts the turns before it.
	After int
	// TokensBefore is a compaction's context size before it; Branches
	// counts a branch point's children.
	TokensBefore int64
	Branches     int
}

// Of returns the figures of s along path (root first), which is usually
// the path to the leaf the page opens at. argsOf, when set, gives the
// summary of a tool call's arguments (see ArgsFunc).
func Of(s *session.Session, path []*session.Entry, home string, argsOf ArgsFunc) *Session {
	out := &Session{Breakdown: s.Stats().Breakdown}
	var last *session.Message
	for _, e := range path {
		switch {
		case e.Role() == "assistant":
			last = e.Message
			u, key, _ := e.UsageRecord()
			t := e.Time
			if t.IsZero() {
				t = e.Message.Time
			}
			out.Turns = append(out.Turns, Turn{N: len(out.Turns) + 1, ID: e.ID, Time: t, Model: key, Usage: u})
		case e.Type == "compaction":
			out.Marks = append(out.Marks, Mark{Kind: "compaction", ID: e.ID, After: len(out.Turns), TokensBefore: e.TokensBefore})
		}
		if len(e.Children) > 1 {
			out.Marks = append(out.Marks, Mark{Kind: "branch", ID: e.ID, After: len(out.Turns), Branches: len(e.Children)})
		}
	}
	if last != nil {
		out.Window = ContextWindow(last.Provider, last.Model)
		out.WindowModel = last.Provider + "/" + last.Model
	}
	out.Tools, out.Slowest, out.Largest = toolsOf(s, path, home, argsOf)
	out.Activity = activityOf(path)
	return out
}
