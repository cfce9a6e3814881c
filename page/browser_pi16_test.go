package page

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// TestBrowserTerminalLinks opens pages whose tool output carries OSC 8
// hyperlinks, as pi 1.6 shows them: in Chromium, a link to an http, https
// or mailto URL is an anchor with rel="noopener noreferrer nofollow", one
// to any other target (javascript:, data:, file:) is text only, and no
// other escape sequence (a window title, an OSC 52 clipboard write) leaves
// a trace in the page.
func TestBrowserTerminalLinks(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	type anchor struct{ Href, Rel, Text string }
	anchors := func(tb *browsertest.Tab) []anchor {
		tb.T.Helper()
		var out []anchor
		raw := browsertest.Eval[string](tb, `JSON.stringify(Array.from(document.querySelectorAll('.tool-output a')).map(a => ({Href: a.getAttribute('href'), Rel: a.rel, Text: a.textContent})))`)
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			tb.T.Fatal(err)
		}
		return out
	}
	checkInert := func(tb *browsertest.Tab) {
		tb.T.Helper()
		if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('a[href]')).filter(a => !/^(https?:|mailto:|#|[^:]*$)/i.test(a.getAttribute('href').trim())).length`); n != 0 {
			t.Errorf("%d anchors lead to another scheme", n)
		}
		if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('.tool-output *')).filter(e => Array.from(e.attributes).some(a => a.name.startsWith('on'))).length`); n != 0 {
			t.Errorf("%d elements of tool output have an event handler", n)
		}
		text := browsertest.Eval[string](tb, `document.body.innerText`)
		if i := strings.IndexAny(text, "\x1b\x07"); i >= 0 {
			t.Errorf("a control character reached the page: %q", text[max(0, i-20):min(len(text), i+20)])
		}
	}

	t.Run("pi 1.6 session", func(t *testing.T) {
		s := loadCorpus(t, "pi16-sdk-links-diagnostics.jsonl")
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(writeExport(t, s, Options{}))
		tb.FullShot("pi16-links-diagnostics")
		rel := "noopener noreferrer nofollow"
		want := []anchor{
			{"https://docs.example.com/api?v=2&lang=en", rel, "api.md"},
			{"mailto:docs@example.com", rel, "contact"},
			{"https://docs.example.com/build", rel, "Building the site"},
			{"https://docs.example.com/ci", rel, "CI setup"},
		}
		if got := anchors(tb); !slices.Equal(got, want) {
			t.Errorf("anchors in tool output\n got %+v\nwant %+v", got, want)
		}
		// The links that lead elsewhere keep their text, as text.
		for _, text := range []string{"guide.md", "LINK-JS-160", "LINK-DATA-160"} {
			if !browsertest.Eval[bool](tb, `Array.from(document.querySelectorAll('.tool-output pre')).some(p => p.textContent.includes(`+browsertest.JSString(text)+`))`) {
				t.Errorf("%s is not in the output", text)
			}
		}
		checkInert(tb)
		body := browsertest.Eval[string](tb, `document.title + document.body.innerText`)
		for _, bad := range []string{"docs — ls", "cm0gLXJm", "docs_search\x1b", "]8;"} {
			if strings.Contains(body, bad) {
				t.Errorf("the page shows %q, from an escape sequence", bad)
			}
		}
		if got := browsertest.Eval[string](tb, `document.title`); !strings.HasPrefix(got, "List the docs") {
			t.Errorf("the page's title is %q", got)
		}

		// Calls stopped with Esc read as aborted, not as failures; the
		// edit that ran and failed reads as a failure.
		if got := browsertest.Eval[string](tb, `Array.from(document.querySelectorAll('.tool')).map(c => c.dataset.tool + ':' + c.dataset.status).join(' ')`); got != "bash:ok docs_search:ok edit:aborted bash:aborted edit:error" {
			t.Errorf("tool cards %s", got)
		}
		if got := browsertest.Eval[string](tb, `getComputedStyle(document.querySelector('.tool[data-status="aborted"]')).borderLeftStyle`); got != "dashed" {
			t.Errorf("an aborted card's border is %s, want dashed", got)
		}

		// Diagnostics: one closed line each, what was dropped and why.
		notes := browsertest.Eval[string](tb, `Array.from(document.querySelectorAll('details.diagnostic')).map(d => (d.open ? 'open ' : '') + d.querySelector('summary').textContent).join(' | ')`)
		if want := "OpenAI dropped 2 reasoning items from the request: prefix_mismatch | Anthropic dropped 1 thinking block from the request: signature_mismatch | Diagnostic anthropic_thread_fallback: thread not found | Diagnostic bedrock_response_failure"; notes != want {
			t.Errorf("diagnostics\n got %s\nwant %s", notes, want)
		}
	})

	t.Run("hostile targets", func(t *testing.T) {
		out := "\x1b]8;;https://e.example/\"onmouseover=\"alert(1)\x07quote\x1b]8;;\x07 " +
			"\x1b]8;;JaVaScRiPt:alert(2)\x07upper\x1b]8;;\x07 " +
			"\x1b]8;;java\tscript:alert(3)\x07tab\x1b]8;;\x07 " +
			"\x1b]8;; javascript:alert(4)\x07space\x1b]8;;\x07 " +
			"\x1b]8;;vbscript:x\x07vb\x1b]8;;\x07 " +
			"\x1b]8;;//evil.example/x\x07relative\x1b]8;;\x07 " +
			"\x1b]8;;https://ok.example/\x07ok\x1b]8;;\x07\x1b]52;c;ZWNobyBwd25lZA==\x07"
		lines := []string{
			`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
			`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"x"}},{"type":"toolCall","id":"t2","name":"mcp_tool","arguments":{"q":"x"}}],"stopReason":"toolUse"}}`,
		}
		for i, name := range []string{"bash", "mcp_tool"} {
			text, _ := json.Marshal(out)
			lines = append(lines, `{"type":"message","id":"r`+string(rune('1'+i))+`","parentId":"`+[]string{"a1", "r1"}[i]+`","timestamp":"2026-01-01T00:00:02Z","message":{"role":"toolResult","toolCallId":"t`+string(rune('1'+i))+`","toolName":"`+name+`","content":[{"type":"text","text":`+string(text)+`}],"isError":false}}`)
		}
		s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "hostile.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(writeExport(t, s, Options{}))
		rel := "noopener noreferrer nofollow"
		want := []anchor{
			{`https://e.example/"onmouseover="alert(1)`, rel, "quote"}, {"https://ok.example/", rel, "ok"},
			{`https://e.example/"onmouseover="alert(1)`, rel, "quote"}, {"https://ok.example/", rel, "ok"},
		}
		if got := anchors(tb); !slices.Equal(got, want) {
			t.Errorf("anchors in tool output\n got %+v\nwant %+v", got, want)
		}
		checkInert(tb)
		if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('.tool-output pre')).filter(p => p.textContent.includes('upper tab space vb relative')).length`); n != 2 {
			t.Errorf("the text of the links that lead nowhere shows in %d outputs, want 2", n)
		}
	})
}
