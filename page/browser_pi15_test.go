package page

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/session"
)

// TestBrowserPi15 opens pages of sessions written by pi 1.5.2 and omp 18
// in Chromium, light and dark, with and without the script: the system
// prompt card, usage entries hidden but under "All", context-edit badges
// that follow the path in view, pi's totals, and sub-agent transcripts
// opened from their task calls. With PIEXPORT_SHOTS set it saves a
// screenshot of each.
func TestBrowserPi15(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	visible := func(tb *browsertest.Tab, sel string) bool {
		tb.T.Helper()
		return browsertest.Eval[bool](tb, `(() => { const e = document.querySelector(`+browsertest.JSString(sel)+`); return !!e && e.checkVisibility(); })()`)
	}
	noScript := func(tb *browsertest.Tab) {
		tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
			_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
	}
	const (
		usage    = "ab417498" // the usage entry of the main file
		toolCall = "dcc606f3" // the assistant entry whose read call's result an edit hides
		firstMsg = "1777c64b" // the user message an edit replaces
		omitEdit = "a86aedf4"
	)

	for _, theme := range []string{"light", "dark"} {
		t.Run("pi 1.5 session, "+theme, func(t *testing.T) {
			s := loadCorpus(t, "pi15-sdk-usage-contextedit-main.jsonl")
			tb := browsertest.OpenTab(t, browser)
			tb.Navigate(writeExport(t, s, Options{Theme: theme}))
			tb.FullShot("pi15-main-" + theme)

			// pi's totals: assistant turns, the usage entry, the
			// compaction and the tool's own work.
			if got, want := browsertest.Eval[string](tb, `document.querySelector('.tokens tbody tr td:last-child').textContent`), humanize.Cost(s.Stats().Usage.Cost); got != want || want != "$0.0622" {
				t.Errorf("file cost %s, want %s ($0.0622, as pi's /session)", got, want)
			}
			if rows := browsertest.Eval[int](tb, `document.querySelectorAll('.breakdown tbody tr').length`); rows != 3 {
				t.Errorf("%d rows of cost by model, want 3", rows)
			}

			// The system prompt: a closed card that opens on its sections.
			card := `[data-kind="system"] details.system-prompt`
			if browsertest.Eval[bool](tb, `document.querySelector('`+card+`').open`) {
				t.Error("the system prompt card is open at load")
			}
			if got := browsertest.Eval[string](tb, `document.querySelector('`+card+` > summary').textContent`); got != "2 sections · 2 tools" {
				t.Errorf("system prompt summary %q", got)
			}
			tb.Click(chromedp.CSS(card + ` > summary`))
			if n := browsertest.Eval[int](tb, `Array.from(document.querySelectorAll('`+card+` > details.prompt-section')).filter(d => d.checkVisibility()).length`); n != 2 {
				t.Errorf("%d prompt sections visible in the open card, want 2", n)
			}
			tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-kind="system"] details, [data-kind="compaction"] details, [data-kind="context-edit"] details').forEach(d => d.open = true)`))
			tb.FullShot("pi15-main-open-" + theme)
			tb.Do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details[open]').forEach(d => d.open = false)`))
			if !strings.Contains(browsertest.Eval[string](tb, `document.title + document.querySelector('h1').textContent`), "Health endpoint") ||
				strings.Contains(browsertest.Eval[string](tb, `document.title + document.querySelector('.page-head').textContent`), "SYS-PREAMBLE") {
				t.Error("the title or header quotes the prompt")
			}

			// Usage entries: hidden, and shown under "All" in tree and path.
			if visible(tb, `[data-entry="`+usage+`"]`) || visible(tb, `[data-tree-node="`+usage+`"]`) {
				t.Error("the usage entry shows by default")
			}
			tb.Click(chromedp.CSS(`[data-filter="all"]`))
			if !visible(tb, `[data-entry="`+usage+`"]`) || !visible(tb, `[data-tree-node="`+usage+`"]`) {
				t.Error("the usage entry does not show under All")
			}
			if text := browsertest.Eval[string](tb, `document.querySelector('[data-entry="`+usage+`"] .entry-body').textContent`); !strings.Contains(text, "cache warm · anthropic/claude-sonnet-4-5 · 50k cache read · $0.0150") {
				t.Errorf("usage line %q", text)
			}
			tb.Shot("pi15-main-all-" + theme)
			tb.Click(chromedp.CSS(`[data-filter="default"]`))
			if visible(tb, `[data-entry="`+usage+`"]`) {
				t.Error("the usage entry stays after leaving All")
			}

			// Context edits: a badge on each target, linking to the edit.
			// The tool result is shown in its call's card: its badge is on
			// the head of the call's entry.
			badge := `[data-entry="` + toolCall + `"] > .entry-head .edit-badge[data-edit="` + omitEdit + `"]`
			if !visible(tb, badge) || browsertest.Eval[string](tb, `document.querySelector('`+badge+`').textContent`) != "read result hidden from the model later" {
				t.Error("the hidden tool result has no badge")
			}
			tb.Click(chromedp.CSS(badge))
			if hash := browsertest.Eval[string](tb, `decodeURIComponent(location.hash)`); hash != "#"+omitEdit && hash != "#e:"+omitEdit {
				t.Errorf("the badge leads to %s, want #%s", hash, omitEdit)
			}
			if text := browsertest.Eval[string](tb, `document.querySelector('[data-entry="`+firstMsg+`"] .entry-body').textContent`); !strings.Contains(text, "USER-ONE-152") || strings.Contains(text, "EDITED") {
				t.Errorf("the edited entry's own text changed: %q", text)
			}
		})
	}

	t.Run("a branch that leaves the edits behind", func(t *testing.T) {
		s := loadCorpus(t, "pi15-sdk-usage-contextedit-branch.jsonl")
		tb := browsertest.OpenTab(t, browser)
		tb.Navigate(writeExport(t, s, Options{}))
		edited := "8bac4c28" // the user message the main branch's edit replaces
		badge := `[data-entry="` + edited + `"] .edit-badge`
		if visible(tb, badge) {
			t.Error("at the leaf, on the branch without the edit, the entry has a badge")
		}
		pathCost := func() string {
			return browsertest.Eval[string](tb, `document.querySelector('[data-path-tokens="cost"]').textContent`)
		}
		if got, want := pathCost(), humanize.Cost(session.PathUsage(s.Path(s.Leaf)).Cost); got != want {
			t.Errorf("path cost %s, want %s", got, want)
		}
		main := s.Entry("f9832c13") // the end of the branch with the edits
		tb.Click(nodeSelector(main.ID))
		tb.WaitJS(`!!document.querySelector('[data-entry="f9832c13"]')`)
		if !visible(tb, badge) || browsertest.Eval[string](tb, `document.querySelector('`+badge+`:not([hidden])').textContent`) != "replaced for the model later" {
			t.Error("on the branch with the edit the entry has no badge")
		}
		if got, want := pathCost(), humanize.Cost(session.PathUsage(s.Path(main)).Cost); got != want {
			t.Errorf("after the switch the path cost is %s, want %s (the usage entry and the compaction count)", got, want)
		}
		tb.Press("Escape")
		tb.WaitJS(`!document.querySelector('[data-entry="f9832c13"]')`)
		if visible(tb, badge) {
			t.Error("back at the leaf the badge stays")
		}
	})

	t.Run("pi 1.5 session without JavaScript", func(t *testing.T) {
		s := loadCorpus(t, "pi15-sdk-usage-contextedit-main.jsonl")
		tb := browsertest.OpenTab(t, browser)
		noScript(tb)
		tb.Navigate(writeExport(t, s, Options{Theme: "light"}))
		tb.FullShot("pi15-main-nojs")
		// The leaf path, but the usage entry (hidden) and the tool result
		// (shown in its call's card).
		want := slices.DeleteFunc(pathIDs(s, s.Leaf), func(id string) bool { return id == usage || id == "2b77caa6" })
		if got := noScriptEntries(tb); !slices.Equal(got, want) {
			t.Errorf("without script %v show, want %v", got, want)
		}
		if visible(tb, `[data-tree-node="`+usage+`"]`) {
			t.Error("the usage entry's tree row shows without script")
		}
		// The badges of the leaf path are in the page as it comes.
		for _, id := range []string{toolCall, firstMsg} {
			if !visible(tb, `[data-entry="`+id+`"] > .entry-head .edit-badge`) {
				t.Errorf("%s has no badge without script", id)
			}
		}
		tb.Click(chromedp.CSS(`[data-kind="system"] details.system-prompt > summary`))
		if !visible(tb, `[data-kind="system"] details.prompt-tools`) {
			t.Error("the system prompt card does not open without script")
		}
	})

	for _, theme := range []string{"light", "dark"} {
		t.Run("omp 18 sub-agents, "+theme, func(t *testing.T) {
			const main = "../testdata/corpus/omp18-task-subagents.jsonl"
			s := loadCorpus(t, "omp18-task-subagents.jsonl")
			agents, warnings := session.LoadSubAgents(main)
			if len(warnings) > 0 || len(agents) != 2 {
				t.Fatalf("sub-agents %v, %v", agents, warnings)
			}
			tb := browsertest.OpenTab(t, browser)
			tb.Navigate(writeExport(t, s, Options{Theme: theme, SubAgents: agents}))
			if visible(tb, "#sub-Lexer") {
				t.Fatal("a transcript shows before it is opened")
			}
			tb.Click(chromedp.CSS(`a.open-subagent[data-subagent="sub-Lexer"]`))
			tb.WaitJS(`!!document.getElementById('sub-Lexer') && document.getElementById('sub-Lexer').checkVisibility()`)
			if text := browsertest.Eval[string](tb, `document.getElementById('sub-Lexer').textContent`); !strings.Contains(text, "LEXER-ANSWER") || !strings.Contains(text, "Find every token type") {
				t.Errorf("the Lexer transcript reads %.300q", text)
			}
			if !browsertest.Eval[bool](tb, `document.getElementById('sub-Lexer').parentElement.closest('li') !== null`) {
				t.Error("the transcript does not open under its agent's line")
			}
			// Its own sub-agent opens from its task call.
			tb.Click(chromedp.CSS(`#sub-Lexer a.open-subagent[data-subagent="sub-Lexer/Tokens"]`))
			tb.WaitJS(`!!document.getElementById('sub-Lexer/Tokens') && document.getElementById('sub-Lexer/Tokens').checkVisibility()`)
			if text := browsertest.Eval[string](tb, `document.getElementById('sub-Lexer/Tokens').textContent`); !strings.Contains(text, "TOKENS-ANSWER") {
				t.Errorf("the nested transcript reads %.300q", text)
			}
			tb.FullShot("omp18-subagents-" + theme)
			tb.Click(chromedp.CSS(`a.open-subagent[data-subagent="sub-Lexer"]`))
			if visible(tb, "#sub-Lexer") {
				t.Error("a second click does not fold the transcript")
			}
			// omp's own entries, each a quiet line; the pin shows no hash.
			body := browsertest.Eval[string](tb, `document.getElementById('path').textContent`)
			for _, want := range []string{"Entered plan mode", "Rules injected", "Title set to Refactor the parser", "anthropic account is pinned", "Back to the default service tiers", "The model starts afresh here"} {
				if !strings.Contains(body, want) {
					t.Errorf("the page lacks %q", want)
				}
			}
			if strings.Contains(browsertest.Eval[string](tb, `document.documentElement.outerHTML`), "9b1f4c2e") {
				t.Error("the credential pin's hash is in the page")
			}
		})
	}

	t.Run("omp 18 sub-agents without JavaScript", func(t *testing.T) {
		s := loadCorpus(t, "omp18-task-subagents.jsonl")
		agents, _ := session.LoadSubAgents("../testdata/corpus/omp18-task-subagents.jsonl")
		tb := browsertest.OpenTab(t, browser)
		noScript(tb)
		tb.Navigate(writeExport(t, s, Options{Theme: "dark", SubAgents: agents}))
		tb.FullShot("omp18-subagents-nojs")
		if visible(tb, `a.open-subagent`) || visible(tb, "#sub-Lexer") {
			t.Error("without script a transcript link or panel shows")
		}
		if !strings.Contains(browsertest.Eval[string](tb, `document.querySelector('ul.task-agents').textContent`), "its transcript opens with JavaScript") {
			t.Error("without script the task call does not say how its transcripts open")
		}
	})
}
