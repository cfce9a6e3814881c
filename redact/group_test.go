package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/session"
)

// read loads a session from its text.
func read(t *testing.T, name, text string) *session.Session {
	t.Helper()
	s, err := session.Read(strings.NewReader(text), name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const header = `{"type":"session","version":3,"id":"0195c0de-0000-7000-8000-000000000033","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/w"}` + "\n"

// userLine is a user message entry saying text (a JSON string's inside).
func userLine(id, parent, text string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
}

// TestGroupMasksWhatAnyFound (issue 33, item 1): a value that a name
// says is secret in a session is masked where its sub-agent repeats it
// bare, and the reverse, under one placeholder; masked alone, each
// leaves what only the other's context gives away.
func TestGroupMasksWhatAnyFound(t *testing.T) {
	const pw, token = "Zq8vP2mWx7LkR4tNb9", "Hk4Tq9Wz2Lm7Xc3Vb8Np"
	parentText := header + userLine("u1", "", "export DB_PASSWORD="+pw) + userLine("u2", "u1", "the deploy used "+token)
	agentText := header + userLine("w1", "", "logged in with "+pw) + userLine("w2", "w1", "API_TOKEN="+token)
	r := redactor(t, Options{Secrets: true})

	parent, agent := read(t, "p.jsonl", parentText), read(t, "p/W.jsonl", agentText)
	reports := r.Sessions(parent, agent)
	for i, s := range []*session.Session{parent, agent} {
		out := dump(t, s)
		for _, v := range []string{pw, token} {
			if bytes.Contains(out, []byte(v)) {
				t.Errorf("%s holds %s", s.File, v)
			}
		}
		if reports[i].Values() != 2 || len(reports[i].Findings) != 2 {
			t.Errorf("%s: the report counts %d values in %d places, want 2 in 2", s.File, reports[i].Values(), len(reports[i].Findings))
		}
	}
	if p, a := parent.Entry("u1").Message.Text(), agent.Entry("w1").Message.Text(); !strings.HasSuffix(p, "=[REDACTED:secret-assignment#1]") || a != "logged in with [REDACTED:secret-assignment#1]" {
		t.Errorf("one value, two placeholders: %q and %q", p, a)
	}
	if p, a := parent.Entry("u2").Message.Text(), agent.Entry("w2").Message.Text(); p != "the deploy used [REDACTED:secret-assignment#2]" || a != "API_TOKEN=[REDACTED:secret-assignment#2]" {
		t.Errorf("the value the sub-agent names: %q and %q", p, a)
	}

	// Shown masks only the sessions it is told to, with what the others
	// hold, which it leaves as they are.
	parent, agent = read(t, "p.jsonl", parentText), read(t, "p/W.jsonl", agentText)
	if reps := r.Shown([]*session.Session{parent, agent}, []bool{false, true}); len(reps) != 1 || reps[0].Values() != 2 {
		t.Errorf("Shown: %d reports", len(reps))
	}
	if out := dump(t, agent); bytes.Contains(out, []byte(pw)) || bytes.Contains(out, []byte(token)) {
		t.Errorf("Shown: the session shown keeps a value")
	}
	if out := dump(t, parent); !bytes.Contains(out, []byte(pw)) || parent.Redaction != nil {
		t.Errorf("Shown: the session only searched was changed")
	}

	// Alone, each leaves the other's value: the group is what masks it.
	alone := read(t, "p/W.jsonl", agentText)
	r.Session(alone)
	if !bytes.Contains(dump(t, alone), []byte(pw)) {
		t.Errorf("masked alone, the sub-agent lost a value it gives no reason to mask")
	}
}

// TestSecretShapedIDs (issue 33, item 4): an id that holds a secret is
// masked in every field that names it, the same way, so that the tree,
// the labels and the tool results still hold together; the report counts
// it where it was masked.
func TestSecretShapedIDs(t *testing.T) {
	g := fakesecret.New(33)
	headerID := g.Make("github-pat").Values[0]
	entryID := g.Make("stripe-secret-key").Values[0]
	callID := g.Make("gitlab-pat").Values[0]
	text := `{"type":"session","version":3,"id":"` + headerID + `","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/w"}` + "\n" +
		userLine(entryID, "", "start") +
		`{"type":"message","id":"a1","parentId":"` + entryID + `","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"` + callID + `","name":"bash","arguments":{"command":"ls"}}]}}` + "\n" +
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"` + callID + `","toolName":"bash","content":[{"type":"text","text":"ok"}]}}` + "\n" +
		`{"type":"label","id":"l1","parentId":"r1","targetId":"` + entryID + `","label":"start here","timestamp":"2026-11-20T10:00:04.000Z"}` + "\n" +
		`{"type":"custom","id":"x1","parentId":"l1","customType":"note","data":{"entry":"` + entryID + `"},"timestamp":"2026-11-20T10:00:05.000Z"}` + "\n" +
		userLine("u9", "x1", "see entry "+entryID)
	s := read(t, "s.jsonl", text)
	rep := redactor(t, Options{Secrets: true}).Session(s)
	out := dump(t, s)
	for _, id := range []string{headerID, entryID, callID} {
		if bytes.Contains(out, []byte(id)) || bytes.Contains(out, []byte(id[:12])) {
			t.Errorf("the masked session holds the id %s…", id[:8])
		}
	}
	root := s.Roots[0]
	if len(s.Roots) != 1 || !strings.HasPrefix(root.ID, "[REDACTED:stripe-access-token#") || s.Entry(root.ID) != root {
		t.Fatalf("the root is %q, found by its id: %v", root.ID, s.Entry(root.ID) == root)
	}
	if a := s.Entry("a1"); a.Parent != root || a.ParentID != root.ID {
		t.Errorf("the assistant's parent is %q", a.ParentID)
	}
	if root.Label != "start here" {
		t.Errorf("the label lost its entry")
	}
	if r := s.ToolResult(s.Entry("a1"), s.Entry("a1").Message.Content[0].ToolCallID); r != s.Entry("r1") {
		t.Errorf("the tool call lost its result")
	}
	if got := s.Entry("u9").Message.Text(); got != "see entry "+root.ID {
		t.Errorf("the id in text is masked as %q, the entry's as %q", got, root.ID)
	}
	if !strings.HasPrefix(s.Header.ID, "[REDACTED:github-pat#") {
		t.Errorf("the header's id is %q", s.Header.ID)
	}
	// Counted where masked: each of the three values, in the header and
	// in the entries that hold them.
	if rep.Values() != 3 {
		t.Errorf("the report counts %d values, want 3", rep.Values())
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.EntryID, entryID[:12]) {
			t.Errorf("the report names the entry by its id: %q", f.EntryID)
		}
	}
}
