package page

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/session"
)

// TestBadFieldsShown: an entry with a value that could not be read shows
// its text as usual and the value, escaped, as raw JSON naming its field
// (issue 21, item 12).
func TestBadFieldsShown(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"the question"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"the answer"}],"usage":{"input":"<script>alert(1)</script>","output":5}}}
`
	s, err := session.Read(strings.NewReader(src), "bad.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := string(exportPage(t, s, Options{}))
	for _, want := range []string{"the answer", `<details class="raw bad-fields">`, "<code>message.usage.input</code>: a string where a number belongs"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "<script>alert(1)") {
		t.Errorf("the bad value is not escaped")
	}
}
