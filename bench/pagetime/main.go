// Command pagetime measures how long an exported session page takes, in
// headless Chromium, until the text a reader came for is on screen.
//
//	pagetime [--timeout 60s] [--switch] --text SNIPPET FILE.html|URL
//	pagetime --snippet SESSION.jsonl
//
// The first form opens file://FILE.html (or an http:// URL, such as a page
// of piexport --serve) in a fresh headless Chromium and
// prints one line of key=value pairs, in ms from navigation start:
// visible_ms is when the frame that first renders an element outside the
// sidebars whose text contains SNIPPET has been drawn (checkVisibility() and
// a nonzero box; it need not be scrolled into view, as neither piexport's
// page nor pi's scrolls to the leaf). The line also gives what the search
// cost the page, first contentful paint, DOMContentLoaded, load, long tasks,
// Chromium's script, style and layout time, the element count and the JS
// heap. With --deeplink (piexport pages only), as soon as the leaf shows the
// probe follows a link to the first entry off the path in view (the
// earliest branch off it) and reports deeplink_ms, the time until that
// entry is drawn inside the viewport, and deeplink_at_ms, when that was.
// With --switch (piexport pages only) it then follows a link to that entry
// again once the page has loaded, and reports switch_ms, then back_ms for
// a link to the old end of the path.
//
// The second form prints a SNIPPET for a session: the start of the leaf's
// last user or assistant message text, cut to characters that every
// markdown renderer leaves alone, so the same snippet finds the message in
// both piexport's page and pi's.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"github.com/spf13/pflag"

	"github.com/piexport/piexport/session"
)

func main() {
	os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "pagetime:", err)
	if errors.As(err, new(usageError)) {
		fmt.Fprintln(stderr, "Run 'pagetime --help' for usage.")
		return 2
	}
	return 1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("pagetime", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		text    = fs.String("text", "", "the text to wait for (see --snippet)")
		snippet = fs.String("snippet", "", "print a --text for this session file and exit")
		timeout = fs.Duration("timeout", 60*time.Second, "give up after this long, browser start included")
		doSw    = fs.Bool("switch", false, "also time a switch to another branch and back by following links (piexport pages)")
		doDeep  = fs.Bool("deeplink", false, "follow a link to another branch as soon as the leaf shows, and time it (piexport pages)")
		exclude = fs.String("exclude", "nav, aside, script, style, head", "CSS selector of places where the text does not count (the sidebars show previews)")
		browser = fs.String("browser", "", "Chromium to run (default: $PIEXPORT_BROWSER, then chromium on $PATH)")
		traceTo = fs.String("trace", "", "record a Chromium trace until the text shows into this file (Chromium's performance panel and Perfetto open it), and print where the main thread's time went to standard error")
		width   = fs.Int("width", 1280, "the window's width, px")
		height  = fs.Int("height", 860, "the window's height, px")
	)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pagetime [--timeout 60s] [--switch] --text SNIPPET FILE.html|URL\n       pagetime --snippet SESSION.jsonl\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usageError{err.Error()}
	}
	if *snippet != "" {
		if fs.NArg() > 0 {
			return usageError{"--snippet takes no other argument"}
		}
		s, err := leafSnippet(*snippet)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, s)
		return nil
	}
	if fs.NArg() != 1 {
		return usageError{"give one HTML file or URL"}
	}
	if *text == "" {
		return usageError{"--text is required"}
	}
	url := fs.Arg(0)
	if !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		file, err := filepath.Abs(url)
		if err != nil {
			return err
		}
		if _, err := os.Stat(file); err != nil {
			return err
		}
		url = "file://" + filepath.ToSlash(file)
	}
	path, err := findBrowser(*browser)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res, err := measure(ctx, path, url, *text, *exclude, *doSw, *doDeep, measureOptions{trace: *traceTo, width: *width, height: *height, stderr: stderr})
	if res != nil {
		fmt.Fprintln(stdout, res.line())
	}
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("timed out after %v: %w", *timeout, err)
	}
	return err
}

// findBrowser returns the Chromium to run, the way the export package's
// browser tests find it.
func findBrowser(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if p := os.Getenv("PIEXPORT_BROWSER"); p != "" {
		return p, nil
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found: install it (apt-get install chromium) or set PIEXPORT_BROWSER")
}

// result holds the figures pagetime prints, in the order it prints them.
type result struct {
	keys []string
	vals map[string]string
}

func (r *result) set(key, val string) {
	if r.vals == nil {
		r.vals = map[string]string{}
	}
	if _, ok := r.vals[key]; !ok {
		r.keys = append(r.keys, key)
	}
	r.vals[key] = val
}

func (r *result) line() string {
	var b strings.Builder
	for i, k := range r.keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + r.vals[k])
	}
	return b.String()
}

// loadReport is what the probe script reports about the page load.
type loadReport struct {
	URL            string   `json:"url"`
	Visible        float64  `json:"visible"`
	FCP            float64  `json:"fcp"`
	DCL            float64  `json:"dcl"`
	Interactive    float64  `json:"interactive"`
	Painted        float64  `json:"painted"`
	Load           float64  `json:"load"`
	LongBefore     int      `json:"longBefore"`
	LongMaxBefore  float64  `json:"longMaxBefore"`
	LongSumBefore  float64  `json:"longSumBefore"`
	FrameMaxBefore float64  `json:"frameMaxBefore"`
	LongAll        int      `json:"longAll"`
	LongMaxAll     float64  `json:"longMaxAll"`
	LongSumAll     float64  `json:"longSumAll"`
	Elements       int      `json:"elements"`
	HeapMB         float64  `json:"heapMB"`
	Scans          int      `json:"scans"`
	ProbeMs        float64  `json:"probeMs"`
	Candidates     int      `json:"candidates"`
	Errors         []string `json:"errors"`
	WhereSelector  string   `json:"where"`
	DocumentLoaded bool     `json:"loaded"`
}

// deepReport is what the probe script reports about the deep link it
// followed as soon as the leaf showed: when the entry was drawn in view
// (at, from navigation start), how long after the link, and the longest
// task and frame meanwhile.
type deepReport struct {
	ID       string  `json:"id"`
	At       float64 `json:"at"`
	Ms       float64 `json:"ms"`
	LongMax  float64 `json:"longMax"`
	FrameMax float64 `json:"frameMax"`
	Error    string  `json:"error"`
}

// switchReport is what the probe script reports about a branch switch and
// the switch back.
type switchReport struct {
	Node          string  `json:"node"`
	Ms            float64 `json:"ms"`
	LongCount     int     `json:"longCount"`
	LongMax       float64 `json:"longMax"`
	FrameMax      float64 `json:"frameMax"`
	BackNode      string  `json:"backNode"`
	BackMs        float64 `json:"backMs"`
	BackLongCount int     `json:"backLongCount"`
	BackLongMax   float64 `json:"backLongMax"`
	BackFrameMax  float64 `json:"backFrameMax"`
	Path          string  `json:"path"`
}

// measureOptions are measure's less common settings.
type measureOptions struct {
	trace         string // a file to write a trace into, or ""
	width, height int
	stderr        io.Writer
}

func measure(ctx context.Context, browser, url, text, exclude string, doSwitch, doDeep bool, opt measureOptions) (*result, error) {
	dir, err := os.MkdirTemp("", "pagetime-profile-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(dir),
		// Without it performance.memory is rounded to coarse buckets.
		chromedp.Flag("enable-precise-memory-info", true),
		// A fixed window, so layout work is the same on every machine.
		chromedp.WindowSize(opt.width, opt.height),
	)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil {
		return nil, fmt.Errorf("start %s: %w", browser, err)
	}

	src, err := probeScript(text, exclude, doDeep)
	if err != nil {
		return nil, err
	}
	if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src}); err != nil {
		return nil, err
	}
	// Performance metrics say where the main thread's time went (script,
	// style, layout; the rest of a task is mostly HTML parsing).
	if _, err := chromedp.Call(tab, performance.Enable, performance.EnableParams{}); err != nil {
		return nil, err
	}
	var tr *trace
	if opt.trace != "" {
		if tr, err = startTrace(tab); err != nil {
			return nil, fmt.Errorf("trace: %w", err)
		}
	}
	// Page.navigate, not chromedp.Navigate: that one waits for the load
	// event, and the probe in the page keeps its own clock anyway.
	nav, err := chromedp.Call(tab, page.Navigate, page.NavigateParams{URL: url})
	if err != nil {
		return nil, err
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("open %s: %s", url, nav.ErrorText)
	}

	res := &result{}
	var rep loadReport
	var loaded time.Time
	// The page's main thread may be busy for seconds; each poll simply
	// waits its turn, while the figures come from the page's own clock.
	for {
		rep, err = poll(tab, url)
		if err == nil && rep.Visible >= 0 && rep.DocumentLoaded {
			break
		}
		if err == nil && rep.DocumentLoaded && loaded.IsZero() {
			loaded = time.Now()
		}
		// A script error and still no text well after load: the page
		// failed, and waiting on would only hide that.
		if err == nil && len(rep.Errors) > 0 && !loaded.IsZero() && time.Since(loaded) > 5*time.Second {
			fillLoad(res, rep)
			return res, fmt.Errorf("the text was not visible 5s after load, and the page reported errors: %s", strings.Join(rep.Errors, "; "))
		}
		select {
		case <-ctx.Done():
			if err == nil {
				fillLoad(res, rep)
			}
			if err == nil && rep.Visible < 0 {
				return res, fmt.Errorf("the text was not visible (%d candidates found outside %q; page errors: %q)", rep.Candidates, exclude, rep.Errors)
			}
			return res, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	// Long tasks are reported a little after they end.
	time.Sleep(300 * time.Millisecond)
	if rep, err = poll(tab, url); err != nil {
		return nil, err
	}
	fillLoad(res, rep)
	if tr != nil {
		if err := tr.stop(ctx, tab); err != nil {
			return res, fmt.Errorf("trace: %w", err)
		}
		if err := tr.write(opt.trace); err != nil {
			return res, fmt.Errorf("trace: %w", err)
		}
		sum, err := tr.summary("pagetime:visible")
		if err != nil {
			return res, fmt.Errorf("trace: %w", err)
		}
		fmt.Fprint(opt.stderr, sum)
	}
	m, err := chromedp.Call(tab, performance.GetMetrics, struct{}{})
	if err != nil {
		return nil, err
	}
	metrics := map[string]float64{}
	for _, x := range m.Metrics {
		metrics[x.Name] = x.Value
	}
	for _, k := range []struct{ key, metric string }{
		{"task_ms", "TaskDuration"}, {"script_ms", "ScriptDuration"},
		{"style_ms", "RecalcStyleDuration"}, {"layout_ms", "LayoutDuration"},
	} {
		res.set(k.key, ms(metrics[k.metric]*1000))
	}
	if doDeep {
		var deep deepReport
		for {
			deep, err = chromedp.Run(tab, chromedp.Evaluate[deepReport](`window.__pagetime.deep || {}`))
			if err != nil {
				return res, err
			}
			if deep.Error != "" {
				return res, fmt.Errorf("deep link: %s", deep.Error)
			}
			if deep.ID != "" {
				break
			}
			if os.Getenv("PAGETIME_DEBUG") != "" {
				v, _ := chromedp.Run(tab, chromedp.Evaluate[any](`[window.__pagetime.deep, window.__pagetime.visible, location.hash, document.querySelectorAll('#path > article').length]`))
				fmt.Fprintf(os.Stderr, "pagetime: deep link pending: %v\n", v)
			}
			select {
			case <-ctx.Done():
				return res, fmt.Errorf("deep link: %w", ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
		}
		res.set("deeplink_ms", ms(deep.Ms))
		res.set("deeplink_at_ms", ms(deep.At))
		res.set("deeplink_longtask_max_ms", ms(deep.LongMax))
		res.set("deeplink_frame_max_ms", ms(deep.FrameMax))
		res.set("deeplink_entry", deep.ID)
	}
	if !doSwitch {
		return res, nil
	}

	// Let the page settle (its own first-frame work, late long tasks)
	// before the click.
	time.Sleep(500 * time.Millisecond)
	sw, err := chromedp.Run(tab, chromedp.Evaluate[switchReport](`window.__pagetime.switchBranch()`, chromedp.EvalAwaitPromise))
	if err != nil {
		// The exception's first line says it all; the rest is a stack.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return res, fmt.Errorf("switch: %s", msg)
	}
	res.set("switch_ms", ms(sw.Ms))
	res.set("switch_longtasks", fmt.Sprint(sw.LongCount))
	res.set("switch_longtask_max_ms", ms(sw.LongMax))
	res.set("switch_frame_max_ms", ms(sw.FrameMax))
	res.set("back_ms", ms(sw.BackMs))
	res.set("back_longtasks", fmt.Sprint(sw.BackLongCount))
	res.set("back_longtask_max_ms", ms(sw.BackLongMax))
	res.set("back_frame_max_ms", ms(sw.BackFrameMax))
	res.set("switch_path", sw.Path)
	res.set("switch_node", sw.Node)
	res.set("back_node", sw.BackNode)
	return res, nil
}

// poll asks the probe for its report; an error means the navigation has
// not committed yet.
func poll(tab context.Context, url string) (loadReport, error) {
	rep, err := chromedp.Run(tab, chromedp.Evaluate[loadReport](`window.__pagetime ? window.__pagetime.report() : {url: location.href, visible: -1}`))
	if err != nil {
		return rep, err
	}
	// A link the probe followed changes the fragment.
	if u, _, _ := strings.Cut(rep.URL, "#"); u != url {
		// Still the blank page from before the navigation.
		return rep, errors.New("not navigated yet")
	}
	return rep, nil
}

func fillLoad(r *result, rep loadReport) {
	if os.Getenv("PAGETIME_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "pagetime: probe report %+v\n", rep)
	}
	if rep.Visible >= 0 {
		r.set("visible_ms", ms(rep.Visible))
	} else {
		r.set("visible_ms", "none")
	}
	r.set("fcp_ms", ms(rep.FCP))
	r.set("dcl_ms", ms(rep.DCL))
	r.set("interactive_ms", ms(rep.Interactive))
	r.set("painted_ms", ms(rep.Painted))
	r.set("load_ms", ms(rep.Load))
	r.set("longtasks", fmt.Sprint(rep.LongBefore))
	r.set("longtask_max_ms", ms(rep.LongMaxBefore))
	r.set("longtask_sum_ms", ms(rep.LongSumBefore))
	r.set("frame_max_ms", ms(rep.FrameMaxBefore))
	r.set("longtasks_to_load", fmt.Sprint(rep.LongAll))
	r.set("longtask_max_to_load_ms", ms(rep.LongMaxAll))
	r.set("elements", fmt.Sprint(rep.Elements))
	r.set("heap_mb", fmt.Sprintf("%.0f", rep.HeapMB))
	r.set("where", rep.WhereSelector)
	r.set("probe_ms", ms(rep.ProbeMs))
	r.set("errors", fmt.Sprint(len(rep.Errors)))
	// The probe's search runs on the page's main thread before the text
	// is found, so it delays the page by about its own cost.
	if rep.Visible >= 0 {
		r.set("visible_net_ms", ms(rep.Visible-rep.ProbeMs))
	}
}

func ms(v float64) string {
	if v < 0 {
		return "none"
	}
	return fmt.Sprintf("%.0f", v)
}

// probeScript is evaluated in the page before any of the page's own
// scripts. Once per frame (in requestAnimationFrame, before style and
// layout) it searches the nodes added since the last frame for the text,
// checks the candidates' visibility, and takes the time once the frame
// that first shows one has been rendered. What the search costs the page
// is reported as probe_ms.
func probeScript(text, exclude string, deepLink bool) (string, error) {
	t, err := json.Marshal(text)
	if err != nil {
		return "", err
	}
	x, err := json.Marshal(exclude)
	if err != nil {
		return "", err
	}
	xp, err := json.Marshal("//text()[contains(., " + xpathLiteral(text) + ")]")
	if err != nil {
		return "", err
	}
	return strings.NewReplacer("__TEXT__", string(t), "__EXCLUDE__", string(x), "__XPATH__", string(xp), "__DEEPLINK__", fmt.Sprint(deepLink)).Replace(probeJS), nil
}

// xpathLiteral quotes s for XPath 1.0, which has no escapes.
func xpathLiteral(s string) string {
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	if !strings.Contains(s, `'`) {
		return `'` + s + `'`
	}
	parts := strings.Split(s, `"`)
	return `concat("` + strings.Join(parts, `", '"', "`) + `")`
}

const probeJS = `(function () {
  'use strict';
  if (window.top !== window) return;
  var TEXT = __TEXT__, EXCLUDE = __EXCLUDE__, XPATH = __XPATH__, DEEPLINK = __DEEPLINK__;
  var st = { visible: -1, where: '', fcp: -1, long: [], loaf: [], cands: [], scans: 0, probeMs: 0, errors: [] };
  Object.defineProperty(window, '__pagetime', { value: st });
  var now = function () { return performance.now(); };

  // A page whose script fails never shows the text; say why.
  addEventListener('error', function (e) {
    if (e instanceof ErrorEvent) st.errors.push(String(e.message));
  }, true);
  addEventListener('unhandledrejection', function (e) { st.errors.push('unhandled rejection: ' + String(e.reason)); });

  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { st.long.push([e.startTime, e.duration]); });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no long task API */ }
  // A long task leaves out the rendering that follows it (style, layout,
  // paint), which on a big page can take far longer; a long animation
  // frame includes it.
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { st.loaf.push([e.startTime, e.duration]); });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { /* no long animation frame API */ }
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { if (e.name === 'first-contentful-paint') st.fcp = e.startTime; });
    }).observe({ type: 'paint', buffered: true });
  } catch (e) { /* no paint timing */ }

  function consider(textNode) {
    var el = textNode.parentElement;
    if (!el || (EXCLUDE && el.closest(EXCLUDE))) return;
    if (st.cands.indexOf(el) < 0) st.cands.push(el);
  }
  // The parser only ever adds nodes at the end of the document (on its
  // right edge), so each frame walks on only from the last text node seen,
  // which costs one pass over the document in all. A MutationObserver
  // would cost far more on a page of a million nodes, and so does XPath's
  // following axis.
  var walker = null, last = null;
  function searchNew() {
    var t = now();
    if (!walker) walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
    if (last) {
      // The parser may still append to the last text node it made.
      if (last.data.indexOf(TEXT) >= 0) consider(last);
      walker.currentNode = last;
    }
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.data.indexOf(TEXT) >= 0) consider(n);
      last = n;
    }
    st.probeMs += now() - t;
  }
  // Scripts can put text anywhere (pi's page renders all of it from its
  // data): once the document is parsed, the whole of it is searched, again
  // every quarter second until the text is found.
  var lastFull = -1e9;
  function searchAll() {
    var t = now();
    st.scans++;
    lastFull = t;
    var snap = document.evaluate(XPATH, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (var i = 0; i < snap.snapshotLength; i++) consider(snap.snapshotItem(i));
    st.probeMs += now() - t;
  }
  // At DOMContentLoaded the parser is done: what it added last is
  // searched at once, not a frame later, and so is text a script put
  // elsewhere.
  document.addEventListener('DOMContentLoaded', function () {
    if (seen) return;
    searchNew();
    if (!check()) { searchAll(); check(); }
  });

  function shown(el) {
    if (!el.isConnected || !el.checkVisibility()) return false;
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  function describe(el) {
    var a = el.closest('[data-entry], [id]');
    if (!a) return el.tagName.toLowerCase();
    return a.hasAttribute('data-entry') ? 'article[data-entry=' + a.getAttribute('data-entry') + ']' : '#' + a.id;
  }
  // afterFrame calls f once the current frame's rendering (style, layout,
  // paint) is done: a message posted from requestAnimationFrame is handled
  // only after that.
  var channel = new MessageChannel(), afterQueue = [];
  channel.port1.onmessage = function () { var f = afterQueue.shift(); if (f) f(); };
  function afterFrame(f) { afterQueue.push(f); channel.port2.postMessage(0); }
  var seen = false;
  function check() {
    if (seen) return true;
    for (var i = 0; i < st.cands.length; i++) {
      if (shown(st.cands[i])) {
        seen = true;
        st.where = describe(st.cands[i]);
        afterFrame(function () {
          st.visible = now();
          performance.mark('pagetime:visible');
          if (DEEPLINK) deepLink();
        });
        return true;
      }
    }
    return false;
  }
  // piexport's page draws its entries with its script, in #path, which
  // stays small whatever the session: it is searched every frame.
  function searchPath() {
    var box = document.getElementById('path');
    if (!box) return;
    var t = now();
    var w = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (var n = w.nextNode(); n; n = w.nextNode()) if (n.data.indexOf(TEXT) >= 0) consider(n);
    st.probeMs += now() - t;
  }
  function frame() {
    if (seen) return;
    searchNew();
    searchPath();
    if (!check() && document.readyState !== 'loading' && now() - lastFull > 250) {
      searchAll();
      check();
    }
    if (!seen) requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  function longStats(from, to, list) {
    var n = 0, max = 0, sum = 0;
    (list || st.long).forEach(function (l) {
      if (l[0] < from || l[0] > to) return;
      n++; sum += l[1]; if (l[1] > max) max = l[1];
    });
    return { n: n, max: max, sum: sum };
  }

  // A piexport page marks when its tree, search and filters work
  // (performance.mark in page.js); other pages have no such mark.
  function interactiveAt() { return markAt('piexport:interactive'); }
  function markAt(name) {
    var marks = performance.getEntriesByName(name, 'mark');
    return marks.length ? marks[0].startTime : -1;
  }

  st.report = function () {
    var nav = performance.getEntriesByType('navigation')[0] || {};
    var until = st.visible >= 0 ? st.visible : now();
    var before = longStats(0, until);
    var frames = longStats(0, until, st.loaf);
    var all = longStats(0, nav.loadEventEnd > 0 ? Math.max(nav.loadEventEnd, until) : now());
    return {
      url: location.href,
      visible: st.visible,
      fcp: st.fcp,
      dcl: nav.domContentLoadedEventEnd > 0 ? nav.domContentLoadedEventEnd : -1,
      interactive: interactiveAt(),
      painted: markAt('piexport:painted'),
      load: nav.loadEventEnd > 0 ? nav.loadEventEnd : -1,
      loaded: document.readyState === 'complete' && nav.loadEventEnd > 0,
      longBefore: before.n, longMaxBefore: before.max, longSumBefore: before.sum,
      frameMaxBefore: frames.max,
      longAll: all.n, longMaxAll: all.max, longSumAll: all.sum,
      elements: document.getElementsByTagName('*').length,
      heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : -1,
      scans: st.scans,
      probeMs: st.probeMs,
      candidates: st.cands.length,
      errors: st.errors.slice(0, 3),
      where: st.where
    };
  };

  // A piexport page's path in view and another branch, from its index
  // (page/view.go): the view path's entries, and the first entry in tree
  // order off it that has an article of its own (the earliest branch off
  // the path, so that the switch changes the most).
  function branches() {
    var el = document.getElementById('session-index');
    if (!el) return null;
    var ix = JSON.parse(el.textContent);
    var n = ix.ids.length, on = new Uint8Array(n), absorbed = new Uint8Array(n);
    (ix.absorbed || []).forEach(function (i) { absorbed[i] = 1; });
    for (var i = ix.view; i >= 0 && i < n; i = ix.parents[i]) on[i] = 1;
    var other = -1;
    for (i = 0; i < n && other < 0; i++) if (!on[i] && !absorbed[i]) other = i;
    return { ids: ix.ids, end: ix.ids[ix.view], other: other < 0 ? null : ix.ids[other] };
  }
  function drawn(id) {
    var a = document.querySelector('#path > article[data-entry="' + CSS.escape(id) + '"]:not([data-placeholder])');
    if (!a || !shown(a)) return false;
    var r = a.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  }
  function pathLength() {
    var a = document.querySelector('#path > article[aria-setsize]');
    return a ? Number(a.getAttribute('aria-setsize')) : 0;
  }

  // follow sets the address's fragment to id, as a link to it does, and
  // resolves with the time until the frame that shows its entry drawn in
  // view is rendered, and the long tasks and frames meanwhile.
  function follow(id) {
    return new Promise(function (resolve, reject) {
      var t0 = now();
      location.hash = '#' + encodeURIComponent(id);
      function step() {
        if (drawn(id)) {
          afterFrame(function () {
            var t1 = now();
            // Long tasks are reported a little after they end.
            setTimeout(function () {
              var lt = longStats(t0 - 1, t1);
              // The frame that follows the link starts before it.
              var fr = longStats(t0 - 1000, t1, st.loaf);
              resolve({ at: t1, ms: t1 - t0, longCount: lt.n, longMax: lt.max, frameMax: fr.max, path: pathLength() });
            }, 300);
          });
        } else if (now() - t0 > 60000) {
          reject(new Error('entry ' + id + ' not drawn in view 60 s after following a link to it'));
        } else {
          requestAnimationFrame(step);
        }
      }
      requestAnimationFrame(step);
    });
  }

  // The deep link (--deeplink): as soon as the leaf shows, a link to an
  // entry of another branch is followed (see check).
  st.deep = null;
  function deepLink() {
    var b = branches();
    if (!b || !b.other) { st.deep = { error: 'no entry off the path in view: the session has no other branch' }; return; }
    follow(b.other).then(function (r) {
      st.deep = { id: b.other, at: r.at, ms: r.ms, longMax: r.longMax, frameMax: r.frameMax };
    }, function (e) { st.deep = { error: String(e.message) }; });
  }

  // switchBranch follows a link to the first entry off the path in view
  // (the earliest branch off it), then, after a pause, one to the entry
  // that ended the path before (so the whole path is shown again).
  st.switchBranch = function () {
    var b = branches();
    if (!b) return Promise.reject(new Error('no session index: --switch needs a piexport page'));
    if (!b.other) return Promise.reject(new Error('no entry off the path in view: the session has no other branch'));
    var before, out;
    // After --deeplink the page shows the other branch: back first.
    var start = st.deep && st.deep.id === b.other ? follow(b.end).then(pause) : Promise.resolve();
    function pause() { return new Promise(function (ok) { setTimeout(ok, 500); }); }
    return start.then(function () {
      before = pathLength();
      return follow(b.other);
    }).then(function (r) {
      out = r;
      return new Promise(function (ok) { setTimeout(ok, 500); });
    }).then(function () {
      return follow(b.end);
    }).then(function (r) {
      return {
        node: b.other, ms: out.ms, longCount: out.longCount, longMax: out.longMax, frameMax: out.frameMax,
        backNode: b.end, backMs: r.ms, backLongCount: r.longCount, backLongMax: r.longMax, backFrameMax: r.frameMax,
        path: before + '->' + out.path + '->' + r.path
      };
    });
  };
})();
`

// leafSnippet returns the start of the text of the last user or assistant
// message on the path to the session's leaf, as much of it as every
// markdown renderer keeps as one run of text: letters, digits, spaces and
// . , ; ! ? (no quotes or dashes, which typographers rewrite; no markup
// characters; no colon, which may start an emoji or a link).
func leafSnippet(file string) (string, error) {
	s, err := session.Load(file)
	if err != nil {
		return "", err
	}
	if s.Leaf == nil {
		return "", fmt.Errorf("%s: the session has no entries", file)
	}
	for e := s.Leaf; e != nil; e = e.Parent {
		m := e.Message
		if m == nil || (m.Role != "user" && m.Role != "assistant") {
			continue
		}
		for _, b := range m.Content {
			if b.Type != "text" {
				continue
			}
			if run := plainRun(b.Text); run != "" {
				return run, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no user or assistant message on the leaf's path has plain text to look for", file)
}

// plainRun returns the first run of plain prose in markdown text that is
// at least minRun bytes and three words long, cut at a word end to at most
// maxRun bytes; "" if there is none. Code (fenced or indented) is skipped:
// highlighters split it into many text nodes.
func plainRun(md string) string {
	const minRun, maxRun = 20, 60
	inFence := false
	for _, line := range strings.Split(md, "\n") {
		trim := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		// An address that may be autolinked and an ellipsis that a
		// typographer may rewrite end a run like markup does.
		trim = strings.ReplaceAll(autolink.ReplaceAllString(trim, "\x00"), "..", "\x00")
		for _, run := range strings.FieldsFunc(trim, func(r rune) bool { return !plain(r) }) {
			run = strings.TrimSpace(strings.TrimFunc(run, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
			// "1. item": the list marker is not text on the page.
			if i := strings.Index(run, ". "); i > 0 && isDigits(run[:i]) {
				run = strings.TrimSpace(run[i+2:])
			}
			// Renderers keep runs of spaces in the DOM, but one may
			// come from a hard line break.
			if strings.Contains(run, "  ") {
				continue
			}
			if len(run) < minRun || len(strings.Fields(run)) < 3 {
				continue
			}
			if len(run) > maxRun {
				if cut := strings.LastIndexByte(run[:maxRun+1], ' '); cut > minRun {
					run = strings.TrimRight(run[:cut], " ,;")
				} else {
					continue // one very long word: look further
				}
			}
			return run
		}
	}
	return ""
}

// autolink matches a word that a renderer may turn into a link.
var autolink = regexp.MustCompile(`\S*(?i:www\.)\S*`)

func plain(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(" .,;!?", r)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
