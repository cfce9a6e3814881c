package gfm

import (
	"fmt"
	"strings"
	"testing"
)

func TestTruncateLines(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %d\n", i+1)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name        string
		in          string
		keptLines   int
		wantDropped int
	}{
		{"short", lines(10), 10, 0},
		{"a few over the limit are kept", lines(mdOutputLines + mdOutputSlack), mdOutputLines + mdOutputSlack, 0},
		{"long", lines(500), mdOutputLines, 300},
		{"one huge line", strings.Repeat("x", 2*mdOutputBytes), 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, dropped := truncateLines(tc.in)
			if got := strings.Count(kept, "\n") + 1; got != tc.keptLines || dropped != tc.wantDropped {
				t.Errorf("kept %d lines, dropped %d; want %d and %d", got, dropped, tc.keptLines, tc.wantDropped)
			}
			if len(kept) > mdOutputBytes {
				t.Errorf("kept %d bytes, more than %d", len(kept), mdOutputBytes)
			}
		})
	}
}

// TestMarkdownTerminalLinks: a tool's output keeps the text of its OSC 8
// hyperlinks in the fence, and lists those to http, https and mailto
// after it as Markdown links (pi 1.6 makes them clickable); other
// schemes and every other escape sequence leave nothing but text.
func TestMarkdownTerminalLinks(t *testing.T) {
	out := "see \x1b]8;;https://example.com/docs?a=1&b=(2)\x1b\\the docs\x1b]8;;\x1b\\ and " +
		"\x1b]8;id=x;javascript:alert(1)\x07this\x1b]8;;\x07 or \x1b]8;;mailto:dev@example.com\x07mail [me]\x1b]8;;\x07" +
		"\x1b]0;a title\x07\x1b]52;c;cm0gLXJmIC8=\x07 \x1b]8;;file:///etc/passwd\x07passwd\x1b]8;;\x07"
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/tmp"},
		mdMessage("a1", "", 1, obj{"role": "assistant", "content": []obj{
			{"type": "toolCall", "id": "t1", "name": "bash", "arguments": obj{"command": "ls --hyperlink"}},
			{"type": "toolCall", "id": "t2", "name": "search_docs", "arguments": obj{"q": "x"}},
		}}),
		mdMessage("r1", "a1", 2, obj{"role": "toolResult", "toolCallId": "t1", "toolName": "bash", "content": []obj{mdText(out)}}),
		mdMessage("r2", "r1", 3, obj{"role": "toolResult", "toolCallId": "t2", "toolName": "search_docs", "content": []obj{mdText(out)}}),
	)
	doc := exportMarkdown(t, s, Options{})
	d := checkMarkdown(t, doc)
	plain := "see the docs and this or mail [me] passwd\n"
	if n := strings.Count(strings.Join(d.fences, "\x00"), plain); n != 2 {
		t.Errorf("want both outputs fenced as %q, found %d:\n%s", plain, n, doc)
	}
	want := "Links in the output:\n\n- [the docs](https://example.com/docs?a=1&amp;b=%282%29)\n- [mail &#91;me&#93;](mailto:dev@example.com)\n"
	if n := strings.Count(doc, want); n != 2 {
		t.Errorf("want the link list twice, found %d:\n%s", n, doc)
	}
	for _, bad := range []string{"javascript", "file:", "a title", "cm0gLXJmIC8", "␛"} {
		if strings.Contains(doc, bad) {
			t.Errorf("the document holds %q:\n%s", bad, doc)
		}
	}
}
