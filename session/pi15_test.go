package session

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Entries of pi 1.5 and omp 18, decoded into their fields (the formats'
// own documents: pi 1.5.2's session-format.md and message-types.md, omp
// 18.3.4's session-entries.ts).

func TestSystemMessages(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"s1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"system","content":"","sections":{"preamble":"You are helpful.","tools":"<tools/>","env":"linux"},"toolsAdded":[{"name":"read","description":"Read a file","parameters":{"type":"object"}},{"name":"grep","description":"Search"}]}}`,
		user("u1", "s1", "hi", 2),
		`{"type":"message","id":"s2","parentId":"u1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"system","content":"Be brief.","sections":{"skills":"<skills/>","env":null,"preamble":"You are terse."},"toolsAdded":[{"name":"edit","description":"Edit"},{"name":"grep","description":"Search faster"}],"toolsRemoved":[{"name":"read"},{"name":"grep"}]}}`,
	))
	first := s.Entry("s1").Message
	wantSections := []Section{{Name: "preamble", Text: "You are helpful."}, {Name: "tools", Text: "<tools/>"}, {Name: "env", Text: "linux"}}
	if !reflect.DeepEqual(first.Sections, wantSections) {
		t.Errorf("sections in file order: got %+v", first.Sections)
	}
	if len(first.ToolsAdded) != 2 || first.ToolsAdded[0].Description != "Read a file" || string(first.ToolsAdded[0].Parameters) != `{"type":"object"}` {
		t.Errorf("tools %+v", first.ToolsAdded)
	}
	if got := s.PromptSummary(s.Entry("s1")); got != "system prompt: 3 sections, 2 tools" {
		t.Errorf("first summary %q", got)
	}
	prompt, change, ok := s.PromptAt(s.Entry("s2"))
	if !ok || change.Initial {
		t.Fatalf("a later system message is a change: %+v", change)
	}
	want := PromptChange{Text: true, Added: []string{"skills"}, Replaced: []string{"preamble"}, Removed: []string{"env"},
		ToolsAdded: []string{"edit"}, ToolsRemoved: []string{"read"}, ToolsChanged: []string{"grep"}}
	if !reflect.DeepEqual(change, want) {
		t.Errorf("change\n got %+v\nwant %+v", change, want)
	}
	var names []string
	for _, sec := range prompt.Sections {
		names = append(names, sec.Name+"="+sec.Text)
	}
	// A replaced section keeps its place, a new one comes last (pi-ai's
	// getCurrentSystemMessage replays a Map).
	if got := strings.Join(names, ","); got != "preamble=You are terse.,tools=<tools/>,skills=<skills/>" {
		t.Errorf("prompt sections %s", got)
	}
	var tools []string
	for _, tool := range prompt.Tools {
		tools = append(tools, tool.Name+"="+tool.Description)
	}
	if got := strings.Join(tools, ","); got != "edit=Edit,grep=Search faster" {
		t.Errorf("prompt tools %s", got)
	}
	if prompt.Text != "Be brief." {
		t.Errorf("prompt text %q", prompt.Text)
	}
	if got := s.PromptSummary(s.Entry("s2")); got != "system prompt: text added, section skills added, section preamble replaced, section env removed, tools +edit −read ~grep" {
		t.Errorf("change summary %q", got)
	}
	if got := s.Preview(s.Entry("s2"), "").Text; !strings.HasPrefix(got, "[system prompt: ") {
		t.Errorf("preview %q", got)
	}
}

func TestCompactionCheckpointIsAPrompt(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"s1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"system","content":"","sections":{"a":"A"}}}`,
		user("u1", "s1", "hi", 2),
		`{"type":"compaction","id":"c1","parentId":"u1","timestamp":"2026-01-01T00:00:03Z","summary":"S","firstKeptEntryId":"u1","tokensBefore":10,"usage":{"input":5,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.5}},"systemMessage":{"role":"system","content":"","sections":{"a":"A","b":"B"},"toolsAdded":[{"name":"read"}]}}`,
		`{"type":"message","id":"s2","parentId":"c1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"system","content":"","sections":{"c":"C"}}}`,
	))
	c := s.Entry("c1")
	if c.SystemMessage == nil || len(c.SystemMessage.Sections) != 2 || c.Usage == nil || c.Usage.Cost != 0.5 {
		t.Fatalf("compaction checkpoint and usage: %+v %+v", c.SystemMessage, c.Usage)
	}
	prompt, change, _ := s.PromptAt(s.Entry("s2"))
	if change.Initial || len(prompt.Sections) != 3 || len(prompt.Tools) != 1 {
		t.Errorf("after a checkpoint: %+v, %+v", change, prompt)
	}
	if got := strings.Join(s.ContextRoles(s.Leaf), ","); got != "system,compactionSummary,user,system" {
		t.Errorf("context %s", got)
	}
}

func TestPi15Fields(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"","thinkingSignature":"enc","redacted":true},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}}],"provider":"anthropic","model":"claude-sonnet-4-5","responseModel":"claude-sonnet-4-5-20250929","thinkingLevel":"medium","usage":{"input":10,"output":2,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.25}},"stopReason":"toolUse"}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"ok"}],"isError":false,"usage":{"input":3,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.125}},"nestedCalls":{"calls":[{"id":"n1","name":"grep","arguments":{"pattern":"x"},"status":"error","durationMs":12,"error":"boom"}],"complete":false}}}`,
		`{"type":"usage","id":"u1","parentId":"r1","timestamp":"2026-01-01T00:00:03Z","kind":"cache_warm","provider":"anthropic","model":"claude-haiku-4-5","usage":{"input":0,"output":0,"cacheRead":100,"cacheWrite":0,"cost":{"total":0.0625}},"note":"warming"}`,
		`{"type":"context_edit","id":"e1","parentId":"u1","timestamp":"2026-01-01T00:00:04Z","targetId":"r1","replacement":null}`,
		`{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-01-01T00:00:05Z","targetId":"a1","replacement":{"content":"short"}}`,
		`{"type":"context_edit","id":"e3","parentId":"e2","timestamp":"2026-01-01T00:00:06Z","targetId":"a1","replacement":{"content":[{"type":"text","text":"shorter"}]}}`,
		`{"type":"message","id":"a2","parentId":"e3","timestamp":"2026-01-01T00:00:07Z","message":{"role":"assistant","content":[],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":0}},"stopReason":"deferred","deferred":{"provider":"anthropic","modelId":"claude-sonnet-4-5","api":"anthropic-messages","id":"batch_1","expiresAt":1767300000000}}}`,
		`{"type":"branch_summary","id":"b1","parentId":"a2","timestamp":"2026-01-01T00:00:08Z","fromId":"x","summary":"S","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"cost":{"total":1}}}`,
	))
	a := s.Entry("a1").Message
	if !a.Content[0].Redacted || a.ResponseModel != "claude-sonnet-4-5-20250929" || a.ThinkingLevel != "medium" {
		t.Errorf("assistant %+v", a)
	}
	r := s.Entry("r1").Message
	if r.Usage.Cost != 0.125 || len(r.NestedCalls) != 1 || r.NestedComplete {
		t.Errorf("tool result usage and nested calls %+v", r)
	}
	if c := r.NestedCalls[0]; c.Name != "grep" || c.Status != "error" || c.DurationMs != 12 || c.Error != "boom" || string(c.Arguments) != `{"pattern":"x"}` {
		t.Errorf("nested call %+v", c)
	}
	u := s.Entry("u1")
	if u.Work == nil || u.Work.Kind != "cache_warm" || u.Work.Note != "warming" || u.Usage.CacheRead != 100 {
		t.Errorf("usage entry %+v %+v", u.Work, u.Usage)
	}
	if e := s.Entry("e1").Edit; !e.Omit {
		t.Errorf("null replacement omits: %+v", e)
	}
	if e := s.Entry("e2").Edit; e.Omit || !e.ContentIsString || e.Content[0].Text != "short" {
		t.Errorf("string replacement %+v", e)
	}
	if d := s.Entry("a2").Message.Deferred; d == nil || d.ID != "batch_1" || d.ExpiresAt.IsZero() {
		t.Errorf("deferred %+v", d)
	}
	for _, e := range s.Entries {
		if e.Raw != nil {
			t.Errorf("%s entry keeps its raw JSON, though every field is modelled", e.Type)
		}
	}

	st := s.Stats()
	if st.TotalMessages != 3 || st.AssistantMessages != 2 || st.ToolResults != 1 || st.ToolCalls != 1 {
		t.Errorf("counts %+v", st)
	}
	if math.Abs(st.Usage.Cost-(0.25+0.125+0.0625+1)) > 1e-9 || st.Usage.Tokens() != 10+2+3+1+100+2 {
		t.Errorf("usage %+v", st.Usage)
	}
	got := fmt.Sprint(st.Breakdown)
	if got != "[{Tools/summaries 6 1.125} {anthropic/claude-sonnet-4-5-20250929 12 0.25} {anthropic/claude-haiku-4-5 100 0.0625}]" {
		t.Errorf("breakdown %s", got)
	}
	if u := PathUsage(s.Path(s.Entry("u1"))); u.Cost != 0.25+0.125+0.0625 {
		t.Errorf("path usage %+v", u)
	}

	var kinds []string
	for _, c := range s.Context(s.Leaf) {
		kinds = append(kinds, c.Entry.ID+":"+c.Projection().String())
		if c.Entry.ID == "a1" && c.Edit != s.Entry("e3") {
			t.Errorf("the latest edit wins: %v", c.Edit.ID)
		}
	}
	if got := strings.Join(kinds, " "); got != "a1:replaced r1:omitted u1:kept e1:kept e2:kept e3:kept a2:kept b1:kept" {
		t.Errorf("projection %s", got)
	}
	if got := strings.Join(s.ContextRoles(s.Leaf), ","); got != "assistant,assistant,branchSummary" {
		t.Errorf("context roles %s", got)
	}
	// Before the edits the model saw the result.
	if got := strings.Join(s.ContextRoles(s.Entry("u1")), ","); got != "assistant,toolResult" {
		t.Errorf("context before the edits %s", got)
	}
}

// A line holding two objects: pi drops it, piexport keeps both. The pages
// count them; the canonical JSON, made to be compared with pi, does not.
func TestSalvagedEntriesCountOnlyOnThePage(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":1}},"stopReason":"stop"}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":2}},"stopReason":"stop"}}{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[],"provider":"p","model":"m","usage":{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"cost":{"total":4}},"stopReason":"stop"}}`,
	))
	if got := s.Stats(); got.AssistantMessages != 3 || got.Usage.Cost != 7 {
		t.Errorf("the page counts every entry it shows: %+v", got)
	}
	doc := canonical(t, s)
	if st := doc["stats"].(map[string]any); st["assistantMessages"] != float64(1) || st["cost"] != float64(1) {
		t.Errorf("the canonical JSON counts what pi reads: %v", st)
	}
	if p := fmt.Sprint(doc["projection"]); p != "[[2 kept]]" {
		t.Errorf("projection %s", p)
	}
}

func TestOmp18Entries(t *testing.T) {
	s, err := Load("../testdata/corpus/omp18-task-subagents.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings %v", s.Warnings)
	}
	h := s.Header
	if h.Line != 2 || h.Title != "Refactor the parser" || h.TitleSource != "user" {
		t.Errorf("the title slot is folded into the header: %+v", h)
	}
	if got := s.Summarize().Title; got != "Refactor the parser" {
		t.Errorf("title %q", got)
	}
	byType := map[string]*Entry{}
	for _, e := range s.Entries {
		if byType[e.Type] == nil {
			byType[e.Type] = e
		}
		if e.Type == "title" {
			t.Errorf("the title slot became an entry")
		}
	}
	checks := map[string]func(o *OmpFields) bool{
		"service_tier_change": func(o *OmpFields) bool {
			return reflect.DeepEqual(o.ServiceTier, []Setting{{"anthropic", "priority"}, {"openai", "flex"}})
		},
		"mode_change": func(o *OmpFields) bool { return o.Mode == "plan" && strings.Contains(string(o.ModeData), "plan.md") },
		"title_change": func(o *OmpFields) bool {
			return o.Title == "Refactor the parser" && o.PreviousTitle == "Split the parser" && o.TitleSource == "user"
		},
		"ttsr_injection":        func(o *OmpFields) bool { return strings.Join(o.Rules, ",") == "no-any,prefer-const" },
		"credential_pin":        func(o *OmpFields) bool { return o.CredentialProvider == "anthropic" },
		"thinking_level_change": func(o *OmpFields) bool { return o.ConfiguredThinking == "auto" },
	}
	for typ, ok := range checks {
		e := byType[typ]
		if e == nil || e.Omp == nil || !ok(e.Omp) {
			t.Errorf("%s: %+v", typ, e)
		}
	}
	if e := byType["model_usage"]; e.Work == nil || e.Work.Kind != "title" || e.Work.Role != "tiny" || e.Usage.Input != 400 {
		t.Errorf("model_usage %+v", e.Work)
	}
	if byType["reset_boundary"] == nil || s.Preview(byType["reset_boundary"], "").Text != "[context reset]" {
		t.Errorf("reset_boundary")
	}
	// The credential pin's hash is never held, in any field.
	pin := byType["credential_pin"]
	if pin.Raw != nil || strings.Contains(fmt.Sprintf("%+v %+v", *pin, *pin.Omp), "9b1f4c2e") {
		t.Errorf("the pin's hash is held: %+v", pin)
	}
	// Usage entries of omp count as pi's do.
	if st := s.Stats(); st.Breakdown[len(st.Breakdown)-1].Key != "anthropic/claude-haiku-4-5" {
		t.Errorf("breakdown %+v", st.Breakdown)
	}

	lexer, err := Load("../testdata/corpus/omp18-task-subagents/Lexer.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	init := lexer.Entries[0].Omp.Init
	if init == nil || init.Agent != "explore" || init.Task == "" || len(init.Tools) != 4 || !init.ReadOnly || init.ResolvedModel != "anthropic/claude-haiku-4-5" {
		t.Errorf("session_init %+v", init)
	}
	if got := lexer.Summarize().Title; strings.Contains(got, "explore agent") {
		t.Errorf("the title quotes the system prompt: %q", got)
	}
}

func TestHeaderOnly(t *testing.T) {
	s := load(t, lines(hdr))
	if s.Header == nil || len(s.Entries) != 0 || s.Leaf != nil || len(s.Warnings) != 0 {
		t.Errorf("a header alone is a session with no entries: %+v", s)
	}
	if st := s.Stats(); st.TotalMessages != 0 || st.Usage != (Usage{}) {
		t.Errorf("stats %+v", st)
	}
	if sum := s.Summarize(); sum.Title != "Session s1" {
		t.Errorf("title %q", sum.Title)
	}
	slot := `{"type":"title","v":1,"title":"Empty","updatedAt":"2026-01-01T00:00:00Z","pad":"  "}`
	if s := load(t, lines(slot, hdr)); s.Header == nil || s.Header.Title != "Empty" || len(s.Entries) != 0 {
		t.Errorf("a title slot and a header: %+v", s)
	}
}

func TestSubAgents(t *testing.T) {
	main := "../testdata/corpus/omp18-task-subagents.jsonl"
	agents, warnings := LoadSubAgents(main)
	if len(warnings) != 0 {
		t.Errorf("warnings %v", warnings)
	}
	var keys []string
	for stack := agents; len(stack) > 0; {
		a := stack[0]
		stack = append(slices.Clone(a.Agents), stack[1:]...)
		keys = append(keys, a.Key)
	}
	if got := strings.Join(keys, ","); got != "Lexer,Lexer/Tokens,Parser" {
		t.Errorf("agents %s", got)
	}
	if a := FindSubAgent(agents, "Lexer"); a == nil || a.Session.Header.ParentSession == "" {
		t.Errorf("Lexer %+v", a)
	}
	if none, w := LoadSubAgents("../testdata/corpus/pi-v3-earth0-tiny.jsonl"); none != nil || w != nil {
		t.Errorf("a session without sub-agents: %v %v", none, w)
	}
	for path, want := range map[string]bool{
		"../testdata/corpus/omp18-task-subagents/Lexer.jsonl":        true,
		"../testdata/corpus/omp18-task-subagents/Lexer/Tokens.jsonl": true,
		main: false,
		filepath.Join(t.TempDir(), "x", "y.jsonl"): false,
	} {
		if _, got := SubAgentParent(path, IsFile); got != want {
			t.Errorf("SubAgentParent(%s) = %v", path, got)
		}
	}

	s, _ := Load(main)
	var call *Block
	var caller *Entry
	for _, e := range s.Entries {
		if e.Role() == "assistant" {
			for i := range e.Message.Content {
				if b := &e.Message.Content[i]; b.Name == "task" {
					call, caller = b, e
				}
			}
		}
	}
	run := TaskRun(call.Arguments, s.ToolResult(caller, call.ToolCallID))
	got := fmt.Sprintf("%s %s %q; %s %s %q", run[0].ID, run[0].Status, run[0].Assignment, run[1].ID, run[1].Status, run[1].Error)
	if got != `Lexer done "Find every token type in src/lexer.ts."; Parser aborted "Cancelled by the user"` {
		t.Errorf("task run %s", got)
	}
	if p := s.Preview(caller, "").Text; p != "[task: explore: Lexer, Parser]" {
		t.Errorf("preview %q", p)
	}
}

func canonical(t *testing.T, s *Session) map[string]any {
	t.Helper()
	var b strings.Builder
	if err := s.WriteCanonicalJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
