package teamcatalog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// plantedSession is a session file full of secrets, in the places a
// session keeps text: a user message, a tool call's arguments, a tool's
// output, the header, and a line that is not JSON at all; and the values
// that must not survive masking.
func plantedSession(t *testing.T, seed uint64, id, literal string) ([]byte, []fakesecret.Secret) {
	t.Helper()
	tmpl := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-03-01T10:00:00Z","cwd":"/home/ada/work/` + literal + `","title":"deploy {{github-pat}}"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T10:00:01Z","message":{"role":"user","content":"deploy ` + literal + ` with {{aws-access-key-id}} please"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-01T10:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"running it"},{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"curl -H 'Authorization: Bearer {{npm-token}}' https://x"}}],"provider":"anthropic","model":"claude-x","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.25}}}}
{"type":"message","id":"t1","parentId":"a1","timestamp":"2026-03-01T10:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"done, token {{npm-token}} used"}]}}
not json, and it holds {{github-pat}}
`
	text, secrets := fakesecret.New(seed).Fill(tmpl)
	return []byte(text), secrets
}

func newRedactor(t *testing.T, literals ...string) *redact.Redactor {
	t.Helper()
	red, err := redact.New(redact.Options{Secrets: true, Literals: literals, Home: "/home/ada", Users: []string{"ada"}})
	if err != nil {
		t.Fatal(err)
	}
	return red
}

func TestMaskFile(t *testing.T) {
	raw, secrets := plantedSession(t, 1, "s-mask", "Acmecorp")
	s, err := session.Read(bytes.NewReader(raw), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	masked := maskFile(newRedactor(t, "Acmecorp"), raw, s, nil)
	if leaks := fakesecret.Leaks(masked, secrets); len(leaks) > 0 {
		t.Errorf("the masked text holds %v:\n%s", leaks, masked)
	}
	for _, word := range []string{"Acmecorp", "/home/ada", "acmecorp"} {
		if bytes.Contains(masked, []byte(word)) {
			t.Errorf("the masked text holds %q:\n%s", word, masked)
		}
	}
	if got, want := bytes.Count(masked, []byte("\n")), bytes.Count(raw, []byte("\n")); got != want {
		t.Errorf("%d lines, want %d", got, want)
	}
	// The text loads as the file did, and says what the loaded session
	// says, under the same placeholders.
	again, err := session.Read(bytes.NewReader(masked), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Entries) != len(s.Entries) {
		t.Fatalf("%d entries, want %d", len(again.Entries), len(s.Entries))
	}
	user := again.Entries[0].Message.Content[0].Text
	if user != s.Entries[0].Message.Content[0].Text || !strings.Contains(user, "[REDACTED:") {
		t.Errorf("the user's message reads %q from the text and %q from the session", user, s.Entries[0].Message.Content[0].Text)
	}
	for _, e := range s.Entries {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Content {
			if leaks := fakesecret.Leaks([]byte(b.Text+string(b.Arguments)), secrets); len(leaks) > 0 {
				t.Errorf("the loaded session still holds %v", leaks)
			}
		}
	}
}

func loadRaw(t *testing.T, raw []byte) *session.Session {
	t.Helper()
	s, err := session.Read(bytes.NewReader(raw), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
