package insights

import (
	"cmp"
	"slices"
	"time"

	"github.com/piexport/piexport/session"
)

// ToolStat sums the calls of one tool.
type ToolStat struct {
	Name string
	// Calls counts the calls, Errors those whose result was an error, and
	// Aborted those the user stopped (pi 1.6's "Operation aborted"), which
	// are not counted as errors.
	Calls, Errors, Aborted int
	// Time sums how long the calls took, where that is known; Bytes the
	// length of their results' text.
	Time  time.Duration
	Bytes int64
}

// ToolCall is one call, as the lists of the slowest and largest name it.
type ToolCall struct {
	Name string
	// Args says what the call was for, in one line: a path, a command.
	Args string
	// ID is the entry of the call's result (its card on the page), or of
	// the message that made the call when it has no result.
	ID string
	// Time is how long the call took: from the message that made it to
	// its result; 0 when either has no time.
	Time  time.Duration
	Bytes int
	// Error is set for a call whose result was an error, Aborted instead
	// for one the user stopped.
	Error, Aborted bool
}

// listed is how many calls the lists of the slowest and largest hold.
const listed = 5

// ArgsFunc returns the summary of the arguments of the tool call b of the
// assistant message e (session.ToolArgsSummary): a caller that has read
// the calls already passes one, so that a lean session's messages are not
// read again for it.
type ArgsFunc func(e *session.Entry, b *session.Block) string

// toolsOf sums the tool calls of the path's assistant messages.
func toolsOf(s *session.Session, path []*session.Entry, home string, argsOf ArgsFunc) (stats []ToolStat, slowest, largest []ToolCall) {
	byName := map[string]*ToolStat{}
	var calls []ToolCall
	if argsOf == nil {
		argsOf = func(e *session.Entry, b *session.Block) string {
			if full := session.FullBlock(s.Full(e), b.ToolCallID); full != nil {
				b = full // the arguments, in a lean session too
			}
			return session.ToolArgsSummary(b.Name, b.Arguments, home)
		}
	}
	for _, e := range path {
		if e.Role() != "assistant" {
			continue
		}
		for i := range e.Message.Content {
			b := &e.Message.Content[i]
			if b.Type != "toolCall" {
				continue
			}
			c := ToolCall{Name: b.Name, Args: argsOf(e, b), ID: e.ID}
			if c.Name == "" {
				c.Name = "(unnamed)"
			}
			if r := s.ToolResult(e, b.ToolCallID); r != nil && r.Message != nil {
				c.ID = r.ID
				c.Aborted = r.Message.Aborted()
				c.Error = r.Message.IsError && !c.Aborted
				c.Bytes = r.Message.ResultBytes()
				if !e.Time.IsZero() && r.Time.After(e.Time) {
					c.Time = r.Time.Sub(e.Time)
				}
			}
			st := byName[c.Name]
			if st == nil {
				st = &ToolStat{Name: c.Name}
				byName[c.Name] = st
			}
			st.Calls++
			if c.Error {
				st.Errors++
			}
			if c.Aborted {
				st.Aborted++
			}
			st.Time += c.Time
			st.Bytes += int64(c.Bytes)
			calls = append(calls, c)
		}
	}
	for _, st := range byName {
		stats = append(stats, *st)
	}
	slices.SortFunc(stats, func(a, b ToolStat) int {
		if c := cmp.Compare(b.Calls, a.Calls); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	// Stable sorts keep equal calls in the order they were made.
	slowest = slices.Clone(calls)
	slices.SortStableFunc(slowest, func(a, b ToolCall) int { return cmp.Compare(b.Time, a.Time) })
	slowest = trimZero(slowest, func(c ToolCall) bool { return c.Time > 0 })
	largest = slices.Clone(calls)
	slices.SortStableFunc(largest, func(a, b ToolCall) int { return cmp.Compare(b.Bytes, a.Bytes) })
	largest = trimZero(largest, func(c ToolCall) bool { return c.Bytes > 0 })
	return stats, slowest, largest
}

// trimZero keeps the first few calls of a sorted list that have what it
// is sorted by.
func trimZero(calls []ToolCall, has func(ToolCall) bool) []ToolCall {
	calls = calls[:min(listed, len(calls))]
	for i, c := range calls {
		if !has(c) {
			return calls[:i]
		}
	}
	return calls
}
