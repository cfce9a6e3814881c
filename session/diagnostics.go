package session

import (
	"fmt"
	"strings"
)

// How pi 1.6's assistant diagnostics read. pi's own transcript notice
// (interactive-mode.js, getDroppedReasoning) counts the transformations
// of one type in each of two diagnostics: reasoning items OpenAI removed,
// thinking blocks Anthropic dropped, and names their reasons.

// droppedReasoning says, per diagnostic type, which transformations are
// reasoning the provider dropped, and how pi names the provider and what
// was dropped.
var droppedReasoning = map[string]struct{ provider, kind, one, many string }{
	"openai_input_transformations":    {"OpenAI", "reasoning", "reasoning item", "reasoning items"},
	"anthropic_input_transformations": {"Anthropic", "thinking_dropped", "thinking block", "thinking blocks"},
}

// Dropped returns the transformations of d that dropped reasoning from
// the request, or none when d is not about dropped reasoning.
func (d Diagnostic) Dropped() []Transformation {
	k, ok := droppedReasoning[d.Type]
	if !ok {
		return nil
	}
	var out []Transformation
	for _, t := range d.Transformations {
		if t.Type == k.kind {
			out = append(out, t)
		}
	}
	return out
}

// Note says in one sentence what d reports, as pi's notice does: "OpenAI
// dropped 2 reasoning items from the request: prefix_mismatch". It is ""
// for a diagnostic that dropped nothing, or whose type is not modelled
// (those keep their JSON: see Diagnostic.Raw).
func (d Diagnostic) Note() string {
	dropped := d.Dropped()
	if len(dropped) == 0 {
		return ""
	}
	k := droppedReasoning[d.Type]
	what := k.many
	if len(dropped) == 1 {
		what = k.one
	}
	var reasons []string
	seen := map[string]bool{}
	for _, t := range dropped {
		if r := t.Reason; r != "" && !seen[r] {
			seen[r] = true
			reasons = append(reasons, r)
		}
	}
	note := fmt.Sprintf("%s dropped %d %s from the request", k.provider, len(dropped), what)
	if len(reasons) > 0 {
		note += ": " + strings.Join(reasons, ", ")
	}
	return note
}

// AbortedText is the result pi gives a tool call that never ran because
// the user pressed Esc (pi 1.6), or that stopped when it was cancelled.
const AbortedText = "Operation aborted"

// Aborted reports whether m is the result of a tool call that was aborted,
// not one that failed: an error whose only text is AbortedText.
func (m *Message) Aborted() bool {
	if m == nil || m.Role != "toolResult" || !m.IsError {
		return false
	}
	if m.lean != nil {
		return m.lean.aborted
	}
	return strings.TrimSpace(m.ResultText()) == AbortedText
}
