package session

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// What pi 1.6 and the rest of omp 18 write, decoded into their fields: pi
// 1.6.0's message-types.md and its providers' diagnostics, omp 18.3.4's
// session-entries.ts and pi-tui's chat messages. The corpus file
// pi16-sdk-links-diagnostics.jsonl was written by pi 1.6.0's own
// SessionManager (testdata/reference/pi-1.6/make-pi16.mjs).

func TestPi16Corpus(t *testing.T) {
	s, err := Load(filepath.Join("../testdata/corpus", "pi16-sdk-links-diagnostics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) > 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
	var notes, aborted, failed []string
	for _, e := range s.Entries {
		m := e.Message
		if m == nil {
			continue
		}
		for _, d := range m.Diagnostics {
			if n := d.Note(); n != "" {
				notes = append(notes, n)
			} else {
				details := diagnosticDetails(t, d.Raw)
				notes = append(notes, d.Type+": "+d.Error+" "+details)
			}
		}
		switch {
		case m.Aborted():
			aborted = append(aborted, m.ToolCallID)
		case m.IsError:
			failed = append(failed, m.ToolCallID)
		}
	}
	wantNotes := []string{
		"OpenAI dropped 2 reasoning items from the request: prefix_mismatch",
		"Anthropic dropped 1 thinking block from the request: signature_mismatch",
		`anthropic_thread_fallback: thread not found {"reason":"not_found_error"}`,
		`bedrock_response_failure:  {"status":503,"attempt":1}`,
	}
	if !reflect.DeepEqual(notes, wantNotes) {
		t.Errorf("diagnostics\n got %q\nwant %q", notes, wantNotes)
	}
	if want := []string{"call_edit", "call_make"}; !reflect.DeepEqual(aborted, want) {
		t.Errorf("aborted calls %q, want %q", aborted, want)
	}
	if want := []string{"toolu_edit"}; !reflect.DeepEqual(failed, want) {
		t.Errorf("failed calls %q, want %q (an aborted call is not a failure)", failed, want)
	}
	custom := s.Entries[9]
	if custom.Type != "custom" || custom.CustomType != "docs-index" || string(custom.Data) != `{"pages":42,"builtAt":"2026-11-22T09:58:00Z"}` {
		t.Errorf("custom entry: %s %q %s", custom.Type, custom.CustomType, custom.Data)
	}

	// Search text is what the terminal showed: a hyperlink's text, not
	// its target, and no title or clipboard sequence.
	var b strings.Builder
	s.WriteSearchText(&b, s.Entries[5])
	text := b.String()
	for _, want := range []string{"guide.md", "api.md", "contact", "LINK-JS-160", "OSC-DONE-160"} {
		if !strings.Contains(text, want) {
			t.Errorf("search text lacks %q: %q", want, text)
		}
	}
	for _, bad := range []string{"\x1b", "javascript", "docs.example.com", "cm0gLXJm", "docs — ls"} {
		if strings.Contains(text, bad) {
			t.Errorf("search text holds %q: %q", bad, text)
		}
	}
}

func TestDiagnosticsLenient(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"stopReason":"stop",`+
			`"diagnostics":[{"type":"openai_input_transformations","details":{"transformations":[{"type":"reasoning","id":"rs_1","action":"removed","reason":"a"},{"type":"other","id":"x"},{"type":"reasoning","id":"rs_2","action":"removed","reason":"b"},{"type":"reasoning","id":"rs_3","reason":"a"}]}},`+
			`{"type":"anthropic_input_transformations","details":{"transformations":[{"type":"kept"}]}},`+
			`{"type":"openai_input_transformations","details":{"transformations":"not a list"}},`+
			`{"type":7},"not an object",{"type":"x","error":"a string"}]}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[],"stopReason":"stop","diagnostics":{"type":"not a list"}}}`,
	))
	if len(s.Warnings) > 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
	d := s.Entry("a1").Message.Diagnostics
	if len(d) != 6 {
		t.Fatalf("%d diagnostics, want 6: %+v", len(d), d)
	}
	if got, want := d[0].Note(), "OpenAI dropped 3 reasoning items from the request: a, b"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	if d[1].Note() != "" || d[1].Raw != nil || len(d[1].Transformations) != 1 {
		t.Errorf("a transformation that drops nothing: %+v, note %q", d[1], d[1].Note())
	}
	if d[2].Note() != "" || len(d[2].Raw) == 0 {
		t.Errorf("odd details keep their JSON: %+v", d[2])
	}
	if d[3].Type != "" || string(d[3].Raw) != `{"type":7}` || string(d[4].Raw) != `"not an object"` ||
		d[5].Type != "x" || len(d[5].Raw) == 0 {
		t.Errorf("odd fields keep their JSON: %+v %+v %+v", d[3], d[4], d[5])
	}
	if s.Entry("a2").Message.Diagnostics != nil || s.Entry("a2").Message == nil {
		t.Errorf("diagnostics that are not a list: %+v", s.Entry("a2").Message)
	}
}

func TestAborted(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *Message
		want bool
	}{
		{"pi 1.6's result", &Message{Role: "toolResult", IsError: true, Content: []Block{{Type: "text", Text: "Operation aborted"}}}, true},
		{"with a line end", &Message{Role: "toolResult", IsError: true, Content: []Block{{Type: "text", Text: "Operation aborted\n"}}}, true},
		{"not an error", &Message{Role: "toolResult", Content: []Block{{Type: "text", Text: "Operation aborted"}}}, false},
		{"another error", &Message{Role: "toolResult", IsError: true, Content: []Block{{Type: "text", Text: "Operation aborted: disk full"}}}, false},
		{"an assistant message", &Message{Role: "assistant", IsError: true, Content: []Block{{Type: "text", Text: "Operation aborted"}}}, false},
		{"nil", nil, false},
	} {
		if got := tc.m.Aborted(); got != tc.want {
			t.Errorf("%s: Aborted() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestOmpEntriesNative: every entry type and message role of omp 18.3.4
// is decoded into fields, none left as raw JSON only; a credential pin
// keeps no trace of its hash.
func TestOmpEntriesNative(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"mcp_tool_selection","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","selectedToolNames":["mcp__codegraph_node","mcp__context_query_docs"]}`,
		`{"type":"model_change","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","model":"openai/gpt-5","role":"default","resolvedModelIsFallback":true}`,
		`{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"pythonExecution","code":"print(1)","output":"1\n","exitCode":0,"cancelled":false,"truncated":false}}`,
		`{"type":"message","id":"m4","parentId":"m3","timestamp":"2026-01-01T00:00:04Z","message":{"role":"hookMessage","customType":"lsp","content":"3 diagnostics","display":true}}`,
		`{"type":"message","id":"m5","parentId":"m4","timestamp":"2026-01-01T00:00:05Z","message":{"role":"fileMention","files":[{"path":"/home/u/p/a.go","content":"package a\n","lineCount":1,"byteSize":10},{"path":"/home/u/p/big.bin","content":"","skippedReason":"binary"},{"path":"/home/u/p/s.png","content":"","image":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}}]}}`,
		`{"type":"credential_pin","id":"m6","parentId":"m5","timestamp":"2026-01-01T00:00:06Z","provider":"anthropic","hash":"HASH-SECRET-0123"}`,
	))
	if len(s.Warnings) > 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
	if got := s.Entry("m1").Omp; got == nil || !reflect.DeepEqual(got.MCPTools, []string{"mcp__codegraph_node", "mcp__context_query_docs"}) {
		t.Errorf("mcp_tool_selection: %+v", got)
	}
	if e := s.Entry("m2"); e.Omp == nil || !e.Omp.Fallback || e.ModelID != "gpt-5" {
		t.Errorf("model_change fallback: %+v", e)
	}
	if m := s.Entry("m3").Message; m.Command != "print(1)" || m.Output != "1\n" || m.ExitCode == nil || s.Entry("m3").Raw != nil {
		t.Errorf("pythonExecution: %+v, raw %s", m, s.Entry("m3").Raw)
	}
	if m := s.Entry("m4").Message; m.CustomType != "lsp" || m.Text() != "3 diagnostics" || !m.Display {
		t.Errorf("hookMessage: %+v", m)
	}
	files := s.Entry("m5").Message.Files
	if len(files) != 3 || files[0].Path != "/home/u/p/a.go" || files[0].Content != "package a\n" || files[0].LineCount != 1 ||
		files[1].SkippedReason != "binary" || files[2].Image == nil || files[2].Image.MimeType != "image/png" {
		t.Errorf("fileMention files: %+v", files)
	}
	if s.Entry("m5").Raw != nil {
		t.Errorf("a fileMention keeps its raw JSON")
	}
	for _, e := range s.Entries {
		if p := s.Preview(e, "/home/u"); strings.HasPrefix(p.Text, "["+e.Type+"]") && e.Type != "message" {
			t.Errorf("%s has no preview of its own: %q", e.Type, p.Text)
		}
	}
	for id, want := range map[string]string{
		"m1": "[MCP tools: mcp__codegraph_node, mcp__context_query_docs]",
		"m3": "[python]: print(1)",
		"m4": "[lsp]: 3 diagnostics",
		"m5": "[files]: ~/p/a.go, ~/p/big.bin, ~/p/s.png",
	} {
		if got := s.Preview(s.Entry(id), "/home/u").Text; got != want {
			t.Errorf("preview of %s = %q, want %q", id, got, want)
		}
	}
	pin := s.Entry("m6")
	if pin.Raw != nil || strings.Contains(pin.Omp.CredentialProvider, "HASH") {
		t.Errorf("the credential pin keeps its hash: %+v %s", pin.Omp, pin.Raw)
	}
}

// diagnosticDetails returns the "details" of a diagnostic's JSON, as it is.
func diagnosticDetails(t *testing.T, raw []byte) string {
	t.Helper()
	var d struct {
		Details json.RawMessage `json:"details"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return string(d.Details)
}
