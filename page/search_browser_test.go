package page

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// piFinds lists the entries pi's own page (export-html's filterNodes and
// getSearchableText, 0.73) shows for query under its default filter, but
// the leaf, which pi shows whatever the search: the text of messages and
// of extension messages, a branch summary's, a label, a user command.
func piFinds(s *session.Session, query string) []string {
	words := strings.Fields(strings.ToLower(query))
	var out []string
	for _, n := range s.Flatten() {
		e := n.Entry
		var parts []string
		if e.Label != "" {
			parts = append(parts, e.Label)
		}
		switch e.Type {
		case "message":
			m := e.Message
			if m == nil {
				continue
			}
			if m.Role == "assistant" && strings.TrimSpace(m.Text()) == "" && (m.StopReason == "stop" || m.StopReason == "toolUse" || m.StopReason == "") {
				continue // pi hides tool-call-only messages
			}
			parts = append(parts, m.Role)
			for _, b := range m.Content {
				if b.Type == "text" {
					parts = append(parts, b.Text)
				}
			}
			parts = append(parts, m.Command)
		case "custom_message":
			parts = append(parts, e.CustomType)
			for _, b := range e.Content {
				parts = append(parts, b.Text)
			}
		case "branch_summary":
			parts = append(parts, "branch summary", e.Summary)
		case "compaction":
			parts = append(parts, "compaction")
		default:
			continue // settings entries: hidden by pi's default filter
		}
		text := strings.ToLower(strings.Join(parts, " "))
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(text, w)
		}
		if ok {
			out = append(out, e.ID)
		}
	}
	return out
}

// search types query into the tree's search box and waits for the
// search to finish; it returns the rows shown and the status line.
func search(tb *browsertest.Tab, query string) (rows []string, status string) {
	tb.T.Helper()
	tb.Do(chromedp.Evaluate[chromedp.Void](`(() => { const e = document.getElementById('tree-search'); e.focus(); e.value = ''; })()`))
	tb.Do(chromedp.KeyEvent(query))
	tb.WaitJSFor(`document.getElementById('tree-status').dataset.query === `+browsertest.JSString(query), 10e9)
	return visibleNodes(tb), browsertest.Eval[string](tb, `document.getElementById('tree-status').textContent`)
}

// TestBrowserSearch searches real sessions for words that only their
// entries' full text holds (tool output, thinking, arguments), as a
// reader tried them against pi's page: the search finds at least every
// entry pi's does, says how many, and Enter and Shift+Enter step through
// them.
func TestBrowserSearch(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	for _, tc := range []struct {
		file  string
		query string
		min   int      // at least this many entries (pi: 4 and 10, besides the leaf it always shows)
		has   []string // and these, by id
	}{
		{"pi-v3-paradocs-research.jsonl", "Litestream", 4, nil},
		{"pi-v3-paradocs-research.jsonl", "WebAssembly", 11, nil},
		// The output of read cmd/api/main.go, and the assistant's words.
		{"pi-v3-sdk-branches-labels.jsonl", "ListenAndServe", 2, []string{"f9149aff", "6eea0e7d"}},
		// The output of go test, and the branch summary.
		{"pi-v3-sdk-branches-labels.jsonl", "404", 2, []string{"ad316c7b", "ed970bf6"}},
	} {
		t.Run(tc.file+" "+tc.query, func(t *testing.T) {
			s := loadCorpus(t, tc.file)
			tb := browsertest.OpenTab(t, browser)
			tb.Navigate(writeExport(t, s, Options{}))
			rows, status := search(tb, tc.query)
			for _, id := range append(piFinds(s, tc.query), tc.has...) {
				if !slices.Contains(rows, id) {
					t.Errorf("%q does not find %s (%s); rows %v", tc.query, id, s.Preview(s.Entry(id), "").Text, rows)
				}
			}
			if len(rows) < tc.min {
				t.Errorf("%q finds %d entries, want at least %d", tc.query, len(rows), tc.min)
			}
			if want := fmt.Sprintf("%d entries match", len(rows)); status != want {
				t.Errorf("status %q, want %q", status, want)
			}
			// Enter opens the first hit, then the next; Shift+Enter the one
			// before. The words are marked in the entry opened.
			tb.Do(chromedp.KeyEvent(kb.Enter))
			tb.WaitJS(`document.getElementById('tree-status').textContent.startsWith('match 1 of ')`)
			if sel := browsertest.Eval[string](tb, `document.querySelector('#tree a.sel').dataset.treeNode`); sel != rows[0] {
				t.Errorf("Enter opened %s, want the first hit %s", sel, rows[0])
			}
			tb.WaitJS(`CSS.highlights.has('piexport-hit') && CSS.highlights.get('piexport-hit').size > 0`)
			tb.Do(chromedp.KeyEvent(kb.Enter))
			tb.WaitJS(`document.getElementById('tree-status').textContent.startsWith('match 2 of ')`)
			if sel := browsertest.Eval[string](tb, `document.querySelector('#tree a.sel').dataset.treeNode`); sel != rows[1] {
				t.Errorf("Enter again opened %s, want the second hit %s", sel, rows[1])
			}
			tb.Do(chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierShift)))
			tb.WaitJS(`document.getElementById('tree-status').textContent.startsWith('match 1 of ')`)
		})
	}
}
