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
// earliest branch off it; on a session of one path, its first entry) and
// reports deeplink_ms, the time until that
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
		doSw    = fs.Bool("switch", false, "also time a switch to another branch (on a session of one path, its first entry) and back by following links (piexport pages)")
		doDeep  = fs.Bool("deeplink", false, "follow a link to another branch (on a session of one path, to its first entry) as soon as the leaf shows, and time it (piexport pages)")
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
