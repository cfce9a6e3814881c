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

// Main is the TestMain of a package with browser tests: it runs them,
// stops the browser they shared, and then says in one line how many were
// skipped for want of a browser.
func Main(m *testing.M, pkg string) {
	code := m.Run()
	shared.stop()
	testtool.Report(pkg, Chromium)
	os.Exit(code)
}

// shared is the one browser a package's tests share: starting Chromium
// takes a second or more on a busy machine, and each tab has a browser
// context of its own (NewTab), so tests running side by side share no
// storage, cookies or history.
var shared browser

type browser struct {
	once   sync.Once
	ctx    context.Context
	err    error
	cancel []context.CancelFunc
	dir    string
}

// Start returns the browser the package's tests share, starting it the
// first time; tabs come from NewTab. Call it before t.Parallel(): the
// first call looks for the browser, which may change the working
// directory for a moment (testtool.Need.Path). Without a browser the test
// is skipped, except on CI (the CI variable set), where a missing browser
// must not pass silently; under -short it is skipped, as a quick run
// leaves browser tests out.
func Start(t testing.TB) context.Context {
	t.Helper()
	path := Chromium.Require(t)
	shared.once.Do(func() { shared.start(path) })
	if shared.err != nil {
		t.Fatalf("start %s: %v", path, shared.err)
	}
	return shared.ctx
}

func (b *browser) start(path string) {
	b.dir, b.err = os.MkdirTemp("", "piexport-browser-")
	if b.err != nil {
		return
	}
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
		// Tabs side by side must each draw as a reader's would: a tab
		// in the background would otherwise get its timers and
		// animation frames slowed.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(b.dir),
		chromedp.WindowSize(1280, 860),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	b.cancel = []context.CancelFunc{cancel, cancelAlloc}
	// The first Run starts the browser; it must not carry a timeout, or the
	// timeout would end the browser too.
	if b.err = chromedp.Do(ctx); b.err == nil {
		b.ctx = ctx
	}
}

// stop ends the browser, if one was started, and removes its profile.
func (b *browser) stop() {
	for _, cancel := range b.cancel {
		cancel()
	}
	if b.dir == "" {
		return
	}
	// The browser's helpers may still write for a moment after it
	// stopped, hence the retries.
	for range 50 {
		if os.RemoveAll(b.dir) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// NewTab opens a tab that closes when the test ends, after at most
// timeout, and fails the test if the page reported an exception, a CSP
// violation or any other console error. Each tab is a browser context of
// its own (as a private window is): what one test stores, another does
// not see.
func NewTab(t testing.TB, browser context.Context, timeout time.Duration) context.Context {
	t.Helper()
	return NewTabExpecting(t, browser, timeout)
}

// NewTabExpecting is NewTab for a test that expects console errors that
// hold one of expected: a page it loads answers 404 on purpose.
func NewTabExpecting(t testing.TB, browser context.Context, timeout time.Duration, expected ...string) context.Context {
	t.Helper()
	timed, cancelTimeout := context.WithTimeout(browser, timeout)
	ctx, cancel := chromedp.NewContext(timed, chromedp.WithNewBrowserContext())
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
