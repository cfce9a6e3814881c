package page

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

// TestBrowserInsights opens the Insights of real sessions as a reader
// does, on a wide screen and on a phone, in both themes and in print:
// every chart is drawn, fits, has every label whole inside it, and is
// legible on its background; a point
// of a chart is reached with the keyboard and leads to its turn.
func TestBrowserInsights(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	// A session whose labels are at their longest and nearest the
	// charts' edges, besides two real ones.
	for _, file := range []string{"pi-v3-civ6.jsonl", "pi15-sdk-usage-contextedit-main.jsonl", "long-labels.jsonl"} {
		var s *session.Session
		if file == "long-labels.jsonl" {
			var err error
			if s, err = session.Read(bytes.NewReader(sessiongen.LongLabels()), file); err != nil {
				t.Fatal(err)
			}
		} else {
			s = loadCorpus(t, file)
		}
		p, err := NewPage(s, Options{Home: "/home/dev"})
		if err != nil {
			t.Fatal(err)
		}
		v := p.v
		if v.Insights == nil {
			t.Fatalf("%s: no insights", file)
		}
		path := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(path, exportPage(t, s, Options{Home: "/home/dev"}), 0o644); err != nil {
			t.Fatal(err)
		}
		url := "file://" + filepath.ToSlash(path)
		name := strings.TrimSuffix(file, ".jsonl")
		wantCharts := len(v.Insights.Charts)

		openInsights := func(tb *browsertest.Tab) {
			tb.T.Helper()
			tb.Navigate(url)
			if open := browsertest.Eval[bool](tb, `document.getElementById('insights').open`); open {
				t.Error("the insights are open before the reader asks")
			}
			tb.Click(`#insights > summary`)
			tb.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById('insights').scrollIntoView()`))
		}
		check := func(tb *browsertest.Tab, what string) {
			tb.T.Helper()
			problems, charts := browsertest.ChartProblems(tb)
			if charts != wantCharts {
				t.Errorf("%s: %d charts drawn, want %d", what, charts, wantCharts)
			}
			for _, p := range problems {
				t.Errorf("%s: %s", what, p)
			}
		}

		for _, scheme := range []string{"light", "dark"} {
			for _, width := range []int64{1400, 390} {
				what := name + " " + scheme + " " + map[int64]string{1400: "wide", 390: "phone"}[width]
				t.Run(what, func(t *testing.T) {
					tb := browsertest.OpenTab(t, browser)
					if width < 600 {
						tb.Do(chromedp.EmulateViewport(width, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
					} else {
						tb.Do(chromedp.EmulateViewport(width, 1000))
					}
					tb.EmulateMedia("screen", scheme)
					openInsights(tb)
					check(tb, what)
					if sw := browsertest.Eval[int64](tb, `document.documentElement.scrollWidth`); sw > width {
						t.Errorf("the page is %d px wide in a %d px window", sw, width)
					}
					tb.Shot("insights-" + strings.ReplaceAll(what, " ", "-"))
				})
			}
		}

		t.Run(name+" print", func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			tb.EmulateMedia("screen", "dark")
			openInsights(tb)
			// Printed on paper, the charts keep the light colours,
			// whatever the screen's theme.
			tb.EmulateMedia("print", "dark")
			check(tb, "print")
			line := browsertest.Eval[string](tb, `getComputedStyle(document.querySelector('svg.plot path.line')).stroke`)
			if line != "rgb(10, 98, 201)" {
				t.Errorf("printed the context's line in %s, want the light theme's rgb(10, 98, 201)", line)
			}
		})

		t.Run(name+" keyboard", func(t *testing.T) {
			tb := browsertest.OpenTab(t, browser)
			openInsights(tb)
			// The first turn of the context chart.
			href := browsertest.Eval[string](tb, `(() => {
				const a = document.querySelector('#insights svg a[href] > circle[class="pt"]').parentNode;
				a.focus();
				return document.activeElement === a ? a.getAttribute('href') : '';
			})()`)
			if href == "" {
				t.Fatal("a chart's point cannot take the keyboard's focus")
			}
			label := browsertest.Eval[string](tb, `document.activeElement.querySelector('title').textContent`)
			if !strings.HasPrefix(label, "Turn ") {
				t.Errorf("the focused point is named %q, want it to name its turn", label)
			}
			tb.Press("Enter")
			tb.WaitJS(`location.hash === ` + browsertest.JSString(href))
			// The entry is drawn once its block is unpacked, which on a
			// busy machine takes more than a frame or two.
			id := browsertest.Eval[string](tb, `decodeURIComponent(location.hash.slice(1))`)
			tb.WaitJS(`(() => { const e = document.getElementById(` + browsertest.JSString(id) + `); return !!e && e.checkVisibility(); })()`)
		})
	}
}
