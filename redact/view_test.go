package redact

import (
	"bytes"
	"testing"
)

// TestSecretsSplitByEscapes (issue 33, item 2): colour codes inside a
// secret, as grep --color=always and git diff --color-words print them,
// do not hide it: what a terminal shows is searched, the value is masked
// over the sequences it spans (which the placeholder keeps, so the
// colours after it are as they were), it is masked where it stands whole
// too, and the report counts it.
func TestSecretsSplitByEscapes(t *testing.T) {
	const pw = "Zq8vP2mWx7LkR4tNb9"
	grep := `src/.env:3:DB_\u001b[01;31m\u001b[KPASSWORD\u001b[m\u001b[K=` + pw
	diff := `key \u001b[31m\u001b[mAKIA\u001b[m\u001b[KQ3EGRTYXZ7KLMNPQ\u001b[m and more`
	text := header + userLine("u1", "", "check the env") +
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"grep --color=always -rn PASSWORD ."}}]}}` + "\n" +
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"` + grep + `\n` + diff + `"}],"details":{"out":"` + diff + `"}}}` + "\n" +
		userLine("u2", "r1", "so "+pw+" it is")
	s := read(t, "s.jsonl", text)
	rep := redactor(t, Options{Secrets: true}).Session(s)
	out := dump(t, s)
	for _, part := range []string{pw, pw[:9], pw[9:], "AKIA", "Q3EGRTYXZ7KLMNPQ"} {
		if bytes.Contains(out, []byte(part)) {
			t.Errorf("the masked session holds %q", part)
		}
	}
	got := s.Entry("r1").Message.Content[0].Text
	want := "src/.env:3:DB_\x1b[01;31m\x1b[KPASSWORD\x1b[m\x1b[K=[REDACTED:secret-assignment#1]\n" +
		"key \x1b[31m\x1b[m[REDACTED:aws-access-token#1]\x1b[m\x1b[K\x1b[m and more"
	if got != want {
		t.Errorf("tool output masked as\n%q\nwant\n%q", got, want)
	}
	if u := s.Entry("u2").Message.Text(); u != "so [REDACTED:secret-assignment#1] it is" {
		t.Errorf("the value where it stands whole: %q", u)
	}
	if rep.Values() != 2 || rep.Summary() == "no secrets found" {
		t.Errorf("the report: %s, %d values", rep.Summary(), rep.Values())
	}
}
