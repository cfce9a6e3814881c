package session

import "time"

// Summary is what a list of sessions shows about each one.
type Summary struct {
	// Title is the session's name (pi's /name), else omp's title, else its
	// first user message as a reader sees it (see ReaderText), on one
	// line. It never quotes a system prompt.
	Title string
	// Start and End are the first and last entry timestamps (the header's
	// time is not used: pi writes it late in some files). Zero if unknown.
	Start, End time.Time
	// Entries counts every entry; Messages the user, assistant and tool
	// result messages; ToolCalls the tool calls of assistant messages.
	Entries, Messages, ToolCalls int
	// Models lists "provider/model" in order of first use.
	Models []string
	// Usage is the whole file's tokens and cost as Stats counts them:
	// assistant turns, usage entries, summaries and tools' own work.
	Usage Usage
	// Leaves counts the tree's leaves: 1 for a session that never branched.
	Leaves int
}

// Summarize computes the session's Summary in one pass over its entries.
func (s *Session) Summarize() Summary {
	sum := Summary{Title: s.Name, Entries: len(s.Entries), Usage: s.Stats().Usage}
	if sum.Title == "" && s.Header != nil {
		sum.Title = oneLine(s.Header.Title, TitleMax)
	}
	seen := map[string]bool{}
	addModel := func(provider, model string) {
		name := model
		if provider != "" && model != "" {
			name = provider + "/" + model
		}
		if name != "" && !seen[name] {
			seen[name] = true
			sum.Models = append(sum.Models, name)
		}
	}
	for _, e := range s.Entries {
		if len(e.Children) == 0 {
			sum.Leaves++
		}
		if !e.Time.IsZero() {
			if sum.Start.IsZero() || e.Time.Before(sum.Start) {
				sum.Start = e.Time
			}
			if e.Time.After(sum.End) {
				sum.End = e.Time
			}
		}
		if e.Type == "model_change" {
			addModel(e.Provider, e.ModelID)
		}
		m := e.Message
		if m == nil {
			continue
		}
		switch m.Role {
		case "user":
			sum.Messages++
			if sum.Title == "" {
				sum.Title = messageTitle(s.Full(e).Message)
			}
		case "toolResult":
			sum.Messages++
		case "assistant":
			sum.Messages++
			addModel(m.Provider, m.Model)
			for _, b := range m.Content {
				if b.Type == "toolCall" {
					sum.ToolCalls++
				}
			}
		}
	}
	if sum.Start.IsZero() && s.Header != nil {
		sum.Start = s.Header.Time
	}
	if sum.Title == "" && s.Header != nil && s.Header.ID != "" {
		sum.Title = "Session " + s.Header.ID
	}
	return sum
}

// messageTitle is the title a session takes from its first user message:
// its text as a reader sees it, or the skill it invoked.
func messageTitle(m *Message) string {
	if k, ok := parseSkill(m.Content); ok {
		return "Skill " + k.text(TitleMax-6)
	}
	return ReaderText(previewSource(m.Content), TitleMax)
}
