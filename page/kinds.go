package page

import (
	"strings"

	"github.com/piexport/piexport/session"
)

// Entry kinds. They drive the tree filters, the colours and the layout.
const (
	kindUser           = "user"            // a user message
	kindAssistant      = "assistant"       // an assistant message with text
	kindAssistantTools = "assistant-tools" // an assistant message with only tool calls, not an error
	kindTool           = "tool"            // a tool result
	kindBash           = "bash"            // a "!" command the user ran
	kindCompaction     = "compaction"      // a compaction summary
	kindBranchSummary  = "branch-summary"  // the summary of an abandoned branch
	kindCustomMessage  = "custom-message"  // a message an extension injected
	kindSettings       = "settings"        // label, session_info, model or thinking level change, custom, omp's settings
	kindSystem         = "system"          // a system prompt or a change to it; omp's session_init
	kindUsage          = "usage"           // model work outside the conversation: hidden but under "All"
	kindContextEdit    = "context-edit"    // a change to what the model sees of an earlier entry
	kindError          = "error"           // an assistant message that stopped with an error or was aborted
	kindOther          = "other"           // an entry type this version does not know
)

// shownByDefault says whether the tree's default filter shows an entry
// of kind: not bookkeeping (settings changes, context edits, usage), nor
// assistant messages that only call tools (their results show the
// calls).
func shownByDefault(kind string) bool {
	return kind != kindSettings && kind != kindContextEdit && kind != kindUsage && kind != kindAssistantTools
}

// kindFilters are the tree's filters that go by an entry's kind, named
// as their buttons name them (templates/page.html, data-filter). The
// page's script is told which kinds each one shows (pageIndex.Filters)
// rather than keeping a copy of these; the other two filters, "labeled"
// and "all", go by an entry's label and by nothing.
var kindFilters = map[string]func(kind string) bool{
	"default":  shownByDefault,
	"no-tools": func(kind string) bool { return shownByDefault(kind) && kind != kindTool },
	"user":     func(kind string) bool { return kind == kindUser },
}

// filterKinds says, for each of kindFilters, whether it shows each of
// the kinds named (pageIndex.KindNames), in their order.
func filterKinds(names []string) map[string][]bool {
	out := make(map[string][]bool, len(kindFilters))
	for name, shows := range kindFilters {
		flags := make([]bool, len(names))
		for k, kind := range names {
			flags[k] = shows(kind)
		}
		out[name] = flags
	}
	return out
}

// kindOf sorts an entry for the page's filters and colours.
func kindOf(e *session.Entry) string {
	switch e.Type {
	case "message":
		m := e.Message
		if m == nil {
			return kindOther
		}
		switch m.Role {
		case "system":
			return kindSystem
		case "user":
			return kindUser
		case "assistant":
			if m.StopReason == "error" || m.StopReason == "aborted" {
				return kindError
			}
			hasText, hasCalls := false, false
			for _, b := range m.Content {
				switch {
				case b.Type == "text" && strings.TrimSpace(b.Text) != "":
					hasText = true
				case b.Type == "toolCall":
					hasCalls = true
				}
			}
			if !hasText && hasCalls {
				return kindAssistantTools
			}
			return kindAssistant
		case "toolResult":
			return kindTool
		case "bashExecution", "jsExecution", "pythonExecution":
			return kindBash
		case "custom", "hookMessage", "fileMention":
			return kindCustomMessage
		case "branchSummary":
			return kindBranchSummary
		case "compactionSummary":
			return kindCompaction
		}
		return kindOther
	case "compaction":
		return kindCompaction
	case "branch_summary":
		return kindBranchSummary
	case "custom_message":
		return kindCustomMessage
	case "label", "session_info", "model_change", "thinking_level_change", "custom",
		"ttsr_injection", "mcp_tool_selection", "mode_change", "service_tier_change",
		"title_change", "credential_pin", "reset_boundary":
		return kindSettings
	case "session_init":
		return kindSystem
	case "usage", "model_usage":
		return kindUsage
	case "context_edit":
		return kindContextEdit
	}
	return kindOther
}
