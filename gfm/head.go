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

// pathFacts are what the head and the front matter say of a path.
type pathFacts struct {
	sum             session.Summary
	title           string
	start, end      time.Time
	models          []string
	usage           session.Usage
	messages, calls int
	entries         int
}

// factsOf gathers the facts of path.
func (m *mdWriter) factsOf(path []*session.Entry) pathFacts {
	f := pathFacts{sum: m.s.Summarize(), entries: len(path)}
	f.title = f.sum.Title
	if f.title == "" {
		f.title = "pi session"
	}
	addModel := func(provider, model string) {
		name := model
		if provider != "" && model != "" {
			name = provider + "/" + model
		}
		if name != "" && !slices.Contains(f.models, name) {
			f.models = append(f.models, name)
		}
	}
	for _, e := range path {
		if !e.Time.IsZero() {
			if f.start.IsZero() || e.Time.Before(f.start) {
				f.start = e.Time
			}
			if e.Time.After(f.end) {
				f.end = e.Time
			}
		}
		if e.Type == "model_change" {
			addModel(e.Provider, e.ModelID)
		}
		switch e.Role() {
		case "user", "toolResult":
			f.messages++
		case "assistant":
			f.messages++
			addModel(e.Message.Provider, e.Message.Model)
			for _, b := range e.Message.Content {
				if b.Type == "toolCall" {
					f.calls++
				}
			}
		}
	}
	// The same kinds of usage as pi's totals: assistant turns, usage
	// entries, summaries and tools' own work.
	f.usage = session.PathUsage(path)
	if f.start.IsZero() && m.s.Header != nil {
		f.start, f.end = m.s.Header.Time, m.s.Header.Time
	}
	return f
}

func (m *mdWriter) head(f pathFacts, leaf *session.Entry) {
	s := m.s
	sum := f.sum
	if !m.opt.FrontMatter {
		m.block(strings.Repeat("#", 1+m.opt.HeadingOffset) + " " + mdInline(f.title))
	}
	if dest := markdownLink(m.opt.IndexURL); dest != "" {
		m.block("[All sessions](" + dest + ")")
	}

	var meta []string
	if h := s.Header; h != nil {
		if h.Cwd != "" {
			meta = append(meta, "**Directory:** "+codeSpan(session.ShortenHome(h.Cwd, m.home)))
		}
		if h.ID != "" {
			meta = append(meta, "**Session:** "+codeSpan(h.ID))
		}
		if line := relatedLine(m.opt.Parent); line != "" {
			meta = append(meta, line)
		} else if name, role := m.s.ParentOf(m.home); name != "" {
			meta = append(meta, "**"+role+":** "+codeSpan(name))
		}
	}
	for _, r := range m.opt.Related {
		if line := relatedLine(r); line != "" {
			meta = append(meta, line)
		}
	}
	if !f.start.IsZero() {
		meta = append(meta, "**Date:** "+mdDates(f.start, f.end))
	}
	if len(f.models) > 0 {
		names := make([]string, len(f.models))
		for i, name := range f.models {
			names[i] = mdInline(name)
		}
		meta = append(meta, "**Models:** "+strings.Join(names, ", "))
	}
	count := fmt.Sprintf("**Messages:** %d", f.messages)
	if f.calls > 0 {
		count += ", with " + humanize.Count(f.calls, "tool call", "tool calls")
	}
	meta = append(meta, count)
	if f.usage != (session.Usage{}) {
		meta = append(meta, "**Tokens:** "+mdUsage(f.usage))
	}
	if sum.Leaves > 1 && sum.Usage != f.usage {
		// Each figure's line holds one "$": two on a line can read as
		// TeX math on GitHub.
		meta = append(meta, "**All branches:** "+mdUsage(sum.Usage))
	}
	if st := s.Stats(); len(st.Breakdown) > 1 {
		rows := []string{"**Cost by model:**"}
		for _, row := range st.Breakdown {
			// One "$" per line, as above.
			rows = append(rows, "    - "+codeSpan(humanize.Model(row.Key))+": "+humanize.Tokens(row.Tokens)+" tokens, "+humanize.Cost(row.Cost))
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
	if x := s.Excerpt; x != nil {
		of := "the path"
		if x.Of > 0 {
			of = session.Count(x.Of, "entry", "entries") + " on its path"
		}
		meta = append(meta, fmt.Sprintf("**Excerpt:** entries %d to %d of %s, %s to %s", x.First, x.Last, of, codeSpan(x.From), codeSpan(x.To)))
	}
	if s.Redaction != nil {
		meta = append(meta, "**Redacted:** "+mdInline(s.Redaction.Summary()))
	}
	m.block("- " + strings.Join(meta, "\n- "))
}

// relatedLine is a line of the head that links related sessions:
// "**Sub-agents:** [Lexer](…), [Parser](…)"; "" for none.
func relatedLine(r MarkdownRelated) string {
	var links []string
	for _, l := range r.Links {
		text := mdInline(l.Title)
		if text == "" {
			text = "(untitled)"
		}
		if dest := markdownLink(l.Link); dest != "" {
			text = "[" + text + "](" + dest + ")"
		}
		links = append(links, text)
	}
	if len(links) == 0 || r.Label == "" {
		return ""
	}
	return "**" + mdInline(r.Label) + ":** " + strings.Join(links, ", ")
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
