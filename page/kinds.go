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
	kindSettings       = "settings"        // label, session_info, model or thinking level change, custom
	kindError          = "error"           // an assistant message that stopped with an error or was aborted
	kindOther          = "other"           // an entry type this version does not know
)

// kindOf sorts an entry for the page's filters and colours.
func kindOf(e *session.Entry) string {
	switch e.Type {
	case "message":
		m := e.Message
		if m == nil {
			return kindOther
		}
		switch m.Role {
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
		case "bashExecution", "jsExecution":
			return kindBash
		case "custom":
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
		"ttsr_injection", "session_init", "mcp_tool_selection", "mode_change":
		return kindSettings
	}
	return kindOther
}
