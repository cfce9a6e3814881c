package page

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/session"
)

// TestOmpEntriesNative: no entry type or message role of omp 18 or pi
// 1.6 shows as raw JSON, and a credential pin shows no secret.
func TestOmpEntriesNative(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/dev/p"}`,
		`{"type":"mcp_tool_selection","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","selectedToolNames":["mcp__codegraph_node","mcp__docs_query"]}`,
		`{"type":"model_change","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","model":"openai/gpt-5","role":"default","resolvedModelIsFallback":true}`,
		`{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"pythonExecution","code":"print('PY-CODE')","output":"PY-OUT\n","exitCode":0,"cancelled":false,"truncated":false}}`,
		`{"type":"message","id":"m4","parentId":"m3","timestamp":"2026-01-01T00:00:04Z","message":{"role":"hookMessage","customType":"lsp","content":"HOOK-TEXT","display":true}}`,
		`{"type":"message","id":"m5","parentId":"m4","timestamp":"2026-01-01T00:00:05Z","message":{"role":"fileMention","files":[{"path":"/home/dev/p/a.go","content":"package MENTIONED\n","lineCount":1,"byteSize":18},{"path":"/home/dev/p/big.bin","content":"","skippedReason":"binary"}]}}`,
		`{"type":"credential_pin","id":"m6","parentId":"m5","timestamp":"2026-01-01T00:00:06Z","provider":"anthropic","hash":"PIN-HASH-SECRET"}`,
		`{"type":"custom","id":"m7","parentId":"m6","timestamp":"2026-01-01T00:00:07Z","customType":"git-checkpoint","data":{"commit":"CHECKPOINT-123"}}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "omp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := string(articlesPage(t, exportPage(t, s, Options{Home: "/home/dev"})))
	for _, want := range []string{
		"MCP tools selected: <code>mcp__codegraph_node</code>, <code>mcp__docs_query</code>",
		"a fallback after the configured model failed",
		"Python (run by the user)", "PY-CODE", "PY-OUT",
		"Extension message · lsp", "HOOK-TEXT",
		"Files mentioned", "<code>~/p/a.go</code>", "MENTIONED", "<code>~/p/big.bin</code> <span class=\"muted\">left out: binary</span>",
		"The session's anthropic account is pinned",
		"Extension <strong>git-checkpoint</strong> saved its state", "CHECKPOINT-123",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"(JSON)</summary><pre class=\"json\">{\n  &#34;type&#34;", "PIN-HASH-SECRET"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}
