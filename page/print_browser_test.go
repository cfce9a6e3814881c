package page

import (
	"context"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// piPrintPages is how many Letter pages pi's own export of the paradocs
// session prints to (pi 0.73.1, headless Chromium's printToPDF); this
// page printed 375 before it printed what the screen shows.
const piPrintPages = 39

// TestBrowserPrintPages prints the paradocs session as a reader would
// (Letter paper, the page's beforeprint and print styles): about as many
// pages as pi's (38 when long entries were measured drawn, 43 before),
// not ten times as many.
func TestBrowserPrintPages(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	tb.Navigate(writeExport(t, loadCorpus(t, "pi-v3-paradocs-research.jsonl"), Options{}))
	tb.Do(chromedp.Evaluate[chromedp.Void](`dispatchEvent(new Event('beforeprint'))`))
	var pdf []byte
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		res, err := cdp.Call(ctx, target, cdppage.PrintToPDF, cdppage.PrintToPDFParams{PaperWidth: 8.5, PaperHeight: 11})
		pdf = res.Data
		return err
	}))
	pages := len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(pdf, -1))
	t.Logf("%d pages (pi: %d)", pages, piPrintPages)
	if pages < piPrintPages/2 || pages > piPrintPages*11/10 {
		t.Errorf("the paradocs session prints to %d pages; pi's page prints to %d", pages, piPrintPages)
	}
}
