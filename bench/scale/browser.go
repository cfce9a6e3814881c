package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/sessiongen"
)

// pageViews times, in headless Chromium (pagetime), the first view of the
// sessions nearest 8 MB, and a second, cached view of each: from the
// request until the leaf's last message is drawn.
func (c *config) pageViews(ctx context.Context, srv *server, h *history, log io.Writer) (first, cached []float64, err error) {
	for _, i := range h.nearest(8_000_000, c.pageRuns) {
		f, c1, c2, err := c.viewTwice(ctx, srv, h.files[i], log)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		first, cached = append(first, c1), append(cached, c2)
	}
	return first, cached, nil
}

// viewTwice times the first and the cached view of one session file.
func (c *config) viewTwice(ctx context.Context, srv *server, f string, log io.Writer) (string, float64, float64, error) {
	lines, err := c.viewLines(ctx, srv.url+"s/"+idOf(f), f, log)
	if err != nil {
		return f, 0, 0, err
	}
	var v [2]float64
	for pass, line := range lines {
		if v[pass], err = figure(line, "visible_ms"); err != nil {
			return f, 0, 0, err
		}
	}
	return f, v[0], v[1], nil
}

// viewLines opens the page u of session file f twice in pagetime, first
// and cached view, each until the leaf's last message is drawn, and
// returns pagetime's line of figures for each.
func (c *config) viewLines(ctx context.Context, u, f string, log io.Writer) ([2]string, error) {
	var lines [2]string
	snippet, err := c.pagetimeRun(ctx, "--snippet", f)
	if err != nil {
		return lines, err
	}
	fi, err := os.Stat(f)
	if err != nil {
		return lines, err
	}
	for pass := range lines {
		out, err := c.pagetimeRun(ctx, "--timeout", "120s", "--text", strings.TrimSpace(snippet), u)
		if err != nil {
			return lines, err
		}
		lines[pass] = out
		fmt.Fprintf(log, "  %s (%d MB), view %d: %s", filepath.Base(f), fi.Size()>>20, pass+1, out)
	}
	return lines, nil
}

// largeViews times the first and cached views of sessions of --large-size
// (the histories' own run to 9 MB): code-heavy ones, generated once into
// DIR, copied into the history while the server runs (as a session that
// just arrived: the server catalogues it first) and taken out again, so
// that the history stays as generated.
func (c *config) largeViews(ctx context.Context, srv *server, h *history, log io.Writer) (first, cached []float64, err error) {
	dir := filepath.Join(h.dir, sessiongen.SessionDir("/home/dev/projects/large"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	for i := range c.pageRuns {
		src, err := c.largeSession(i, log)
		if err != nil {
			return nil, nil, err
		}
		f := filepath.Join(dir, filepath.Base(src))
		if err := copyFile(f, src); err != nil {
			return nil, nil, err
		}
		// A turn of a word of its own, after the leaf (so that the
		// leaf's path stays the session's), says when the server has
		// catalogued the copy.
		word := fmt.Sprintf("zqx%d", time.Now().UnixNano()%1e9)
		parent, err := lastID(f)
		if err != nil {
			return nil, nil, err
		}
		if err := appendTurn(f, word, parent); err != nil {
			return nil, nil, err
		}
		if _, err := srv.found(ctx, word, time.Now()); err != nil {
			return nil, nil, err
		}
		f, c1, c2, err := c.viewTwice(ctx, srv, f, log)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", f, err)
		}
		first, cached = append(first, c1), append(cached, c2)
	}
	return first, cached, nil
}

// largeSession returns the i-th (from 0) code-heavy session of
// --large-size, generated into DIR on first use.
func (c *config) largeSession(i int, log io.Writer) (string, error) {
	src := filepath.Join(c.dir, fmt.Sprintf("large-%s-%d.jsonl", c.largeSize, i+1))
	if _, err := os.Stat(src); err == nil {
		return src, nil
	}
	fmt.Fprintf(log, "generating %s\n", src)
	return src, sessiongen.WriteFile(src, sessiongen.Options{Seed: int64(1000 + i), TargetBytes: c.largeBytes,
		Profile: sessiongen.ProfileCode, Branches: true, Compactions: true, Labels: true,
		Cwd: "/home/dev/projects/large"})
}

// lastID returns the id of the last line of a session file, read from
// its last 4 MiB.
func lastID(f string) (string, error) {
	fh, err := os.Open(f)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return "", err
	}
	at := max(0, fi.Size()-4<<20)
	b := make([]byte, fi.Size()-at)
	if _, err := fh.ReadAt(b, at); err != nil {
		return "", err
	}
	b = bytes.TrimRight(b, "\n")
	var last struct{ ID string }
	if err := json.Unmarshal(b[bytes.LastIndexByte(b, '\n')+1:], &last); err != nil || last.ID == "" {
		return "", fmt.Errorf("%s: no id on the last line", f)
	}
	return last.ID, nil
}

// copyFile copies src to dst.
func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func (c *config) pagetimeRun(ctx context.Context, args ...string) (string, error) {
	if c.browser != "" {
		args = append([]string{"--browser", c.browser}, args...)
	}
	out, err := exec.CommandContext(ctx, c.pagetime, args...).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		err = fmt.Errorf("pagetime %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
	}
	return string(out), err
}

// figure reads key=value from one of pagetime's lines.
func figure(line, key string) (float64, error) {
	for _, kv := range strings.Fields(line) {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return 0, fmt.Errorf("no %s in %q", key, line)
}

// archive builds a static archive of the history, measures it, and times
// its search from file:// in headless Chromium.
func (c *config) archive(ctx context.Context, h *history, cache string, res *results, log io.Writer) error {
	out := filepath.Join(c.dir, "archive-"+filepath.Base(h.dir))
	os.RemoveAll(out)
	start := time.Now()
	cmd := exec.CommandContext(ctx, c.piexport, "-q", "-o", out, "--cache-dir", cache, h.dir)
	cmd.Stderr = log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	res.add("archive: build", time.Since(start).Seconds(), "s")
	res.add("archive: build, CPU time", cpuOf(cmd).Seconds(), "s")
	total, err := du(out)
	if err != nil {
		return err
	}
	search, err := du(filepath.Join(out, "search"))
	if err != nil {
		return err
	}
	res.add("archive: size", float64(total)/1e6, "MB")
	res.add("archive: search index", float64(search)/1e6, "MB")
	res.add("archive: search index, share of the rest", 100*float64(search)/float64(total-search), "%")

	qs, err := makeQueries(h, 30)
	if err != nil {
		return err
	}
	times, err := c.staticSearch(ctx, filepath.Join(out, "index.html"), append(qs["one word"][:20], qs["three words"][:10]...))
	if err != nil {
		return err
	}
	res.add("archive search: first query, results after typing", times[0], "ms")
	res.add("archive search: p50", pct(times, 50), "ms")
	res.add("archive search: max", pct(times, 100), "ms")

	// One session changes: the next run writes its page, its words as a
	// segment of the search index, and the index page.
	f := h.files[h.nearest(1<<20, 1)[0]]
	if err := appendTurn(f, "archived", ""); err != nil {
		return err
	}
	before, err := files(filepath.Join(out, "search"))
	if err != nil {
		return err
	}
	start = time.Now()
	cmd = exec.CommandContext(ctx, c.piexport, "-q", "-o", out, "--cache-dir", cache, h.dir)
	cmd.Stderr = log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("archive, again: %w", err)
	}
	took := time.Since(start)
	after, err := files(filepath.Join(out, "search"))
	if err != nil {
		return err
	}
	var written, index int64
	for p, fi := range after {
		index += fi.size
		if b, ok := before[p]; !ok || b != fi {
			written += fi.size
		}
	}
	res.add("archive, one 1 MB session changed: run", took.Seconds(), "s")
	res.add("archive, one 1 MB session changed: CPU time", cpuOf(cmd).Seconds(), "s")
	res.add("archive, one 1 MB session changed: search index written", float64(written)/1e6, "MB")
	res.add("archive, one 1 MB session changed: search index written, share of it", 100*float64(written)/float64(index), "%")
	return nil
}

// fileState is what tells a file was written: its size and time.
type fileState struct {
	size  int64
	mtime time.Time
}

// files returns the state of every file below dir.
func files(dir string) (map[string]fileState, error) {
	out := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			out[p] = fileState{fi.Size(), fi.ModTime()}
		}
		return err
	})
	return out, err
}

// cpuOf is the user and system time a finished command took.
func cpuOf(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// staticSearch types each query into the archive's index and returns, per
// query, the time from the last keystroke until its results are drawn (the
// search waits 120 ms for typing to pause).
func (c *config) staticSearch(ctx context.Context, index string, queries []string) ([]float64, error) {
	browser := c.browser
	if browser == "" {
		browser = os.Getenv("PIEXPORT_BROWSER")
	}
	if browser == "" {
		browser = "chromium"
	}
	dir, err := os.MkdirTemp("", "scale-browser-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	alloc, cancel := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(browser), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.UserDataDir(dir), chromedp.WindowSize(1280, 860))
	defer cancel()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	tctx, cancelT := context.WithTimeout(tab, 10*time.Minute)
	defer cancelT()
	u := (&url.URL{Scheme: "file", Path: index}).String()
	if err := chromedp.Do(tctx, chromedp.Navigate(u)); err != nil {
		return nil, err
	}
	var out []float64
	for _, q := range queries {
		ms, err := chromedp.Run(tctx, chromedp.Evaluate[float64](fmt.Sprintf(`new Promise(resolve => {
			const out = document.getElementById('static-results'), input = document.querySelector('#static-search input');
			const q = %q, t0 = performance.now();
			input.value = q;
			input.dispatchEvent(new Event('input'));
			(function check() {
				if (out.getAttribute('data-query') === q) requestAnimationFrame(() => resolve(performance.now() - t0));
				else requestAnimationFrame(check);
			})();
		})`, q), chromedp.EvalAwaitPromise))
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", q, err)
		}
		out = append(out, ms)
	}
	return out, nil
}

func du(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	})
	return n, err
}
