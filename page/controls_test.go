package page

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/session"
)

// controlSession holds raw NUL, ESC and BEL (JSON \u0000, \u001b, \u0007)
// in the title, a message, a code span and a fence, a thinking block, a
// tool name and command, and terminal output with lone and OSC escapes.
const controlSession = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/p\u001b[2J"}
{"type":"session_info","id":"n1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","name":"title\u001b]0;x\u0007\u0000end"}
{"type":"message","id":"u1","parentId":"n1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"nul:\u0000 esc:\u001b[31mred\u001b[0m bell:\u0007 ` + "`code\\u0000\\u001b`" + `\n\n` + "```go\\nx := \\\"\\u0000\\u001b\\\"\\n```" + `"}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"th\u0000\u001b"},{"type":"text","text":"ok"},{"type":"toolCall","id":"t1","name":"bash\u001b","arguments":{"command":"echo \u001b[2J\u0000"}}]}}
{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:04Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"lone \u001b esc, nul \u0000, \u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007"}]}}
`

// Raw NUL and ESC bytes of session text never reach the page: NUL shows
// as U+FFFD, the other controls as their pictures (ESC as ␛).
func TestNoControlCharacters(t *testing.T) {
	s, err := session.Read(strings.NewReader(controlSession), "ctl.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := string(exportPage(t, s, Options{}))
	for i := 0; i < len(page); i++ {
		if c := page[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			t.Fatalf("control %#x in the page: %q", c, page[max(0, i-40):min(len(page), i+20)])
		}
	}
	for _, want := range []string{"<title>title␛]0;x␇\uFFFDend</title>", "esc:␛[31mred", "␛[2J"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
