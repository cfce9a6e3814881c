package sessiongen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// LongLabels returns a session whose charts have their labels at their
// longest and nearest the edges, as real sessions do: a tool called 207
// times, 16 of them failed, and one with a long MCP name; models with
// long names, and a message that names no model; a context that reaches
// its model's window, so the window's line is the chart's top; and work
// that crosses midnight (UTC), then resumes for a minute after a long
// pause, so the timeline's last span is narrow at its right edge.
func LongLabels() []byte {
	var b bytes.Buffer
	line := func(v map[string]any) {
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	start := time.Date(2026, 10, 23, 22, 10, 0, 0, time.UTC)
	at := func(d time.Duration) string { return start.Add(d).Format("2006-01-02T15:04:05.000Z") }
	line(map[string]any{"type": "session", "version": 3, "id": "0b6c2f6e-long-labels", "timestamp": at(0),
		"cwd": "/home/dev/src/a-project-whose-name-goes-on-and-on/services/billing-reconciliation"})
	n, parent := 0, any(nil)
	entry := func(d time.Duration, msg map[string]any) {
		n++
		id := fmt.Sprintf("e%05d", n)
		line(map[string]any{"type": "message", "id": id, "parentId": parent, "timestamp": at(d), "message": msg})
		parent = id
	}
	usage := func(context, output int64, cost float64) map[string]any {
		return map[string]any{"input": 40, "output": output, "cacheRead": context - 40, "cacheWrite": 0,
			"totalTokens": context + output, "cost": map[string]any{"total": cost}}
	}
	entry(0, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Reconcile the billing exports."}}})
	models := [][2]string{
		{"anthropic", "claude-sonnet-4-5"},
		{"openrouter", "anthropic/claude-3.7-sonnet:thinking-extended-preview-2026"},
		{"amazon-bedrock", "eu.anthropic.claude-sonnet-4-5-20250929-v1:0"},
	}
	call := func(d time.Duration, k int, tool string, failed bool) {
		m := models[0]
		if k%7 == 3 {
			m = models[1+k%2]
		}
		context := min(int64(20_000+k*900), 196_000)
		entry(d, map[string]any{"role": "assistant", "provider": m[0], "model": m[1], "api": "anthropic-messages",
			"stopReason": "toolUse", "usage": usage(context, 120, 0.05*float64(k%5+1)),
			"content": []any{map[string]any{"type": "toolCall", "id": fmt.Sprintf("call-%d", k), "name": tool,
				"arguments": map[string]any{"command": fmt.Sprintf("make reconcile STEP=%d", k)}}}})
		entry(d+20*time.Second, map[string]any{"role": "toolResult", "toolCallId": fmt.Sprintf("call-%d", k), "toolName": tool,
			"isError": failed, "content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("step %d done", k)}}})
	}
	k := 0
	// Two hours of work, across midnight: 207 bash calls, 16 failed,
	// and three of a tool with a long name.
	for ; k < 210; k++ {
		tool := "bash"
		if k%70 == 69 {
			tool = "mcp__github-enterprise__create_pull_request_review_comment"
		}
		call(time.Duration(k)*34*time.Second, k, tool, tool == "bash" && k%13 == 5)
	}
	// A message whose provider and model are unknown.
	entry(2*time.Hour, map[string]any{"role": "assistant", "stopReason": "stop", "usage": usage(150_000, 10, 0.01),
		"content": []any{map[string]any{"type": "text", "text": "Paused."}}})
	// A minute of work after a pause of nine hours.
	late := 11 * time.Hour
	entry(late, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Go on."}}})
	for i := range 3 {
		call(late+time.Duration(i)*15*time.Second, k+i, "bash", false)
	}
	return b.Bytes()
}
