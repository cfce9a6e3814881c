package session

import (
	"cmp"
	"slices"
)

// Stats are a session's totals as pi's /session shows them (pi 1.5.2's
// AgentSession.getSessionStats and getUsageCostBreakdown): the one place
// piexport counts a session's messages, tokens and cost, so that the page,
// the Markdown, the archive and the server all say the same.
type Stats struct {
	// UserMessages, AssistantMessages and ToolResults count message
	// entries by role; TotalMessages counts every message entry, system
	// messages and other roles included. ToolCalls counts the tool calls
	// of assistant messages.
	UserMessages, AssistantMessages, ToolCalls, ToolResults, TotalMessages int
	// Usage sums every kind of model work the file records (see
	// Entry.UsageRecord): the tokens and cost of the whole file, every
	// branch included.
	Usage Usage
	// Breakdown is the cost by model, largest first (see ModelCost).
	Breakdown []ModelCost
}

// ModelCost is one row of a cost breakdown: the tokens and cost of one
// model, keyed "provider/model" by the model that answered where the
// provider named it (responseModel), or of "Tools/summaries": work done for
// tool results, compactions and branch summaries.
type ModelCost struct {
	Key    string
	Tokens int64
	Cost   float64
}

// ToolsAndSummaries is the breakdown key of model work that is not a
// model's own turn: tool results' nested work, compactions and branch
// summaries.
const ToolsAndSummaries = "Tools/summaries"

// UsageRecord returns the model usage e records and the breakdown key it
// counts under, ok false when e records none. These are the kinds pi 1.5
// counts: an assistant message's usage (keyed by the model that answered),
// a usage entry's (keyed by its model), a tool result's own usage, a
// compaction's and a branch summary's (keyed ToolsAndSummaries). omp's
// model_usage entries count as usage entries do. Where a file's usage has
// no cost (old files, on which pi's own count fails) the tokens count and
// the cost is zero.
func (e *Entry) UsageRecord() (u Usage, key string, ok bool) {
	switch e.Type {
	case "message":
		m := e.Message
		if m == nil {
			return Usage{}, "", false
		}
		switch m.Role {
		case "assistant":
			model := m.Model
			if m.ResponseModel != "" {
				model = m.ResponseModel
			}
			return m.Usage, m.Provider + "/" + model, true
		case "toolResult":
			if m.Usage != (Usage{}) {
				return m.Usage, ToolsAndSummaries, true
			}
		}
	case "usage", "model_usage":
		if e.Usage != nil && e.Work != nil {
			return *e.Usage, e.Work.Provider + "/" + e.Work.Model, true
		}
	case "compaction", "branch_summary":
		if e.Usage != nil {
			return *e.Usage, ToolsAndSummaries, true
		}
	}
	return Usage{}, "", false
}

// Stats counts the whole file: every entry of every branch, as pi does.
// The catalog, the archive and the pages call it for a session's totals;
// PathUsage sums the same kinds of usage along one path.
func (s *Session) Stats() Stats { return statsOf(s.Entries) }

func statsOf(entries []*Entry) Stats {
	var st Stats
	byKey := map[string]*ModelCost{}
	var order []string
	for _, e := range entries {
		if u, key, ok := e.UsageRecord(); ok {
			st.Usage.Add(u)
			row := byKey[key]
			if row == nil {
				row = &ModelCost{Key: key}
				byKey[key] = row
				order = append(order, key)
			}
			row.Tokens = addInt64(row.Tokens, u.Tokens())
			row.Cost = addFloat(row.Cost, u.Cost)
		}
		m := e.Message
		if e.Type != "message" || m == nil {
			continue
		}
		st.TotalMessages++
		switch m.Role {
		case "user":
			st.UserMessages++
		case "toolResult":
			st.ToolResults++
		case "assistant":
			st.AssistantMessages++
			for _, b := range m.Content {
				if b.Type == "toolCall" {
					st.ToolCalls++
				}
			}
		}
	}
	for _, key := range order {
		if row := byKey[key]; row.Cost > 0 || row.Tokens > 0 {
			st.Breakdown = append(st.Breakdown, *row)
		}
	}
	// Stable, so that rows of equal cost keep the order of first use, as
	// pi's sort does.
	slices.SortStableFunc(st.Breakdown, func(a, b ModelCost) int { return cmp.Compare(b.Cost, a.Cost) })
	return st
}

// PathUsage sums the usage of the entries of path, counting the same kinds
// of model work as Stats.
func PathUsage(path []*Entry) Usage {
	var total Usage
	for _, e := range path {
		if u, _, ok := e.UsageRecord(); ok {
			total.Add(u)
		}
	}
	return total
}
