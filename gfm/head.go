package gfm

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// The head of a document: its title and a list of what the path holds.

func (m *mdWriter) head(path []*session.Entry, leaf *session.Entry) {
	s := m.s
	sum := s.Summarize()
	title := sum.Title
	if title == "" {
		title = "pi session"
	}
	m.block("# " + mdInline(title))

	var meta []string
	if h := s.Header; h != nil {
		if h.Cwd != "" {
			meta = append(meta, "**Directory:** "+codeSpan(session.ShortenHome(h.Cwd, m.home)))
		}
		if h.ID != "" {
			meta = append(meta, "**Session:** "+codeSpan(h.ID))
		}
		if name, role := m.s.ParentOf(m.home); name != "" {
			meta = append(meta, "**"+role+":** "+codeSpan(name))
		}
	}
	var start, end time.Time
	var models []string
	var usage session.Usage
	messages, calls := 0, 0
	addModel := func(provider, model string) {
		name := model
		if provider != "" && model != "" {
			name = provider + "/" + model
		}
		if name != "" && !slices.Contains(models, name) {
			models = append(models, name)
		}
	}
	for _, e := range path {
		if !e.Time.IsZero() {
			if start.IsZero() || e.Time.Before(start) {
				start = e.Time
			}
			if e.Time.After(end) {
				end = e.Time
			}
		}
		if e.Type == "model_change" {
			addModel(e.Provider, e.ModelID)
		}
		switch e.Role() {
		case "user", "toolResult":
			messages++
		case "assistant":
			messages++
			addModel(e.Message.Provider, e.Message.Model)
			for _, b := range e.Message.Content {
				if b.Type == "toolCall" {
					calls++
				}
			}
		}
	}
	// The same kinds of usage as pi's totals: assistant turns, usage
	// entries, summaries and tools' own work.
	usage = session.PathUsage(path)
	if start.IsZero() && s.Header != nil {
		start, end = s.Header.Time, s.Header.Time
	}
	if !start.IsZero() {
		meta = append(meta, "**Date:** "+mdDates(start, end))
	}
	if len(models) > 0 {
		for i, name := range models {
			models[i] = mdInline(name)
		}
		meta = append(meta, "**Models:** "+strings.Join(models, ", "))
	}
	count := fmt.Sprintf("**Messages:** %d", messages)
	if calls > 0 {
		count += ", with " + humanize.Count(calls, "tool call", "tool calls")
	}
	meta = append(meta, count)
	if usage != (session.Usage{}) {
		meta = append(meta, "**Tokens:** "+mdUsage(usage))
	}
	if sum.Leaves > 1 && sum.Usage != usage {
		// Each figure's line holds one "$": two on a line can read as
		// TeX math on GitHub.
		meta = append(meta, "**All branches:** "+mdUsage(sum.Usage))
	}
	if st := s.Stats(); len(st.Breakdown) > 1 {
		rows := []string{"**Cost by model:**"}
		for _, row := range st.Breakdown {
			// One "$" per line, as above.
			rows = append(rows, "  - "+codeSpan(humanize.Model(row.Key))+": "+humanize.Tokens(row.Tokens)+" tokens, "+humanize.Cost(row.Cost))
		}
		meta = append(meta, strings.Join(rows, "\n"))
	}
	if leaf != nil && (sum.Leaves > 1 || leaf != s.Leaf) {
		b := "**Branch:** the path to entry " + codeSpan(leaf.ID)
		if leaf == s.Leaf {
			b += " (the latest)"
		}
		if sum.Leaves > 1 {
			b += ", one of " + humanize.Count(sum.Leaves, "branch", "branches")
		}
		meta = append(meta, b)
	}
	if s.Redaction != nil {
		meta = append(meta, "**Redacted:** "+mdInline(s.Redaction.Summary()))
	}
	m.block("- " + strings.Join(meta, "\n- "))
}

// mdDates shows when a path ran, in UTC so that exports do not depend on
// the machine they are made on.
func mdDates(start, end time.Time) string {
	start, end = start.UTC(), end.UTC()
	out := start.Format("2006-01-02 15:04:05")
	switch {
	case !end.After(start):
		return out + " UTC"
	case end.Format("2006-01-02") == start.Format("2006-01-02"):
		out += " – " + end.Format("15:04:05") + " UTC"
	default:
		out += " UTC – " + end.Format("2006-01-02 15:04:05") + " UTC"
	}
	return out + " (" + humanize.Duration(end.Sub(start)) + ")"
}

func mdUsage(u session.Usage) string {
	return strings.Join(humanize.Usage(u, "input", "output"), ", ")
}
