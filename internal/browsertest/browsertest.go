// Package browsertest starts the headless Chromium that the browser tests
// of the page, site and serve packages drive, opens tabs in it whose
// console errors fail the test, and takes the steps those tests take in a
// tab (Tab).
package browsertest

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/testtool"
)

// Find returns the path of a Chromium-family browser, or "".
// PIEXPORT_BROWSER overrides the search.
func Find() string { return Chromium.Path() }

// Chromium is what the browser tests need: go test's cache runs them
// again once it is installed (see testtool.Need.Path), and a package's
// TestMain (Main) reports the tests it skipped.
var Chromium = &testtool.Need{What: "browser test", Whats: "browser tests", Program: "Chromium",
	Install: "install it (apt-get install chromium) or set PIEXPORT_BROWSER to one",
	Env:     "PIEXPORT_BROWSER",
	Names:   []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}}

// Main is the TestMain of a package with browser tests: it runs them and
// then says in one line how many were skipped for want of a browser.
func Main(m *testing.M, pkg string) { testtool.Main(m, pkg, Chromium) }

// Start starts one headless browser for the test and returns its context;
// tabs come from NewTab. Without a browser the test is skipped, except on
// CI (the CI variable set), where a missing browser must not pass silently.
func Start(t testing.TB) context.Context {
	t.Helper()
	path := Find()
	if path == "" {
		Chromium.Missing(t)
	}
	dir, err := os.MkdirTemp("", "piexport-browser-")
	if err != nil {
		t.Fatal(err)
	}
	// Registered first so it runs last, after the browser stopped; its
	// helpers may still write for a moment, hence the retries.
	t.Cleanup(func() {
		for range 50 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	// The flags keep a headless browser from reaching out to the network
	// on its own (this machine's closed network refuses it, noisily).
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 860),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	// The first Run starts the browser; it must not carry a timeout, or the
	// timeout would end the browser too.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// NewTab opens a tab that closes when the test ends, after at most
// timeout, and fails the test if the page reported an exception, a CSP
// violation or any other console error.
func NewTab(t testing.TB, browser context.Context, timeout time.Duration) context.Context {
	t.Helper()
	return NewTabExpecting(t, browser, timeout)
}

// NewTabExpecting is NewTab for a test that expects console errors that
// hold one of expected: a page it loads answers 404 on purpose.
func NewTabExpecting(t testing.TB, browser context.Context, timeout time.Duration, expected ...string) context.Context {
	t.Helper()
	timed, cancelTimeout := context.WithTimeout(browser, timeout)
	ctx, cancel := chromedp.NewContext(timed)
	var mu sync.Mutex
	var errors []string
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				if slices.ContainsFunc(expected, func(s string) bool { return strings.Contains(m.String(), s) }) {
					continue
				}
				mu.Lock()
				errors = append(errors, m.String())
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		cancelTimeout()
		<-done
		for _, e := range errors {
			t.Errorf("page console: %s", e)
		}
	})
	return ctx
}
