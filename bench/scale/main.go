// Command scale measures piexport on a heavy user's whole history: it
// generates histories of many sessions, then times the server's cold and
// warm start, the re-reading of a session that grew, its memory while it
// reads and after many page views, searches of one word, three words and a
// phrase, the first and a cached view of a large session in headless
// Chromium, and a static archive's size and search from file://.
//
//	scale [--dir DIR] [--sizes "1.4GB 5GB"] [--queries 200] [--views 1000]
//
// With --team it measures a team's shared catalog instead (team.go): the
// histories of --machines machines pushed into a throwaway PostgreSQL
// cluster, and a member's server reading it.
//
//	scale --team [--machines 10] [--sizes 5GB] [--dir DIR]
//
// It prints one table per history and writes every figure to
// DIR/results.tsv. See bench/README.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/internal/sessiongen"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	dir        string
	sizes      []string
	queries    int
	views      int
	pageRuns   int
	largeSize  string
	largeBytes int64
	skip       map[string]bool
	piexport   string
	pagetime   string
	browser    string
	keepCache  bool
	// shape is the kind of sessions the histories hold (see shapes).
	shape string
	// generateOnly stops once the histories are made.
	generateOnly bool
	// team measures a team's shared catalog on PostgreSQL, pushed from
	// this many machines, instead of one person's server.
	team     bool
	machines int
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("scale", pflag.ContinueOnError)
	var c config
	var sizes, skip string
	fs.StringVar(&c.dir, "dir", "", "work directory: histories, caches, archives, results.tsv (default: a new temporary directory)")
	fs.StringVar(&sizes, "sizes", "1.4GB 5GB", "history sizes to measure")
	fs.IntVar(&c.queries, "queries", 200, "searches of each kind")
	fs.IntVar(&c.views, "views", 1000, "page views before memory is measured")
	fs.IntVar(&c.pageRuns, "page-runs", 3, "large sessions whose first and cached views are timed")
	fs.StringVar(&c.largeSize, "large-size", "40MB", "size of the generated sessions whose first and cached views are timed too (0: none)")
	fs.StringVar(&skip, "skip", "", "steps to skip: views, browser, archive (comma-separated)")
	fs.StringVar(&c.piexport, "piexport", "", "piexport binary (default: built from this checkout)")
	fs.StringVar(&c.pagetime, "pagetime", "", "pagetime binary (default: built from this checkout)")
	fs.StringVar(&c.browser, "browser", "", "Chromium (default: $PIEXPORT_BROWSER, then chromium)")
	fs.BoolVar(&c.keepCache, "keep-cache", false, "start from the cache of an earlier run instead of an empty one")
	fs.StringVar(&c.shape, "shape", "mixed", "the sessions of the histories: mixed (branches, compactions) or code-linear (code-heavy, one path)")
	fs.BoolVar(&c.generateOnly, "generate-only", false, "make the histories (or find them made) and stop")
	fs.BoolVar(&c.team, "team", false, "measure a team's shared catalog: --machines push histories of SIZE in all into a throwaway PostgreSQL cluster, and a member's server reads it (default --sizes 5GB)")
	fs.IntVar(&c.machines, "machines", 10, "with --team: how many machines push, each its own role")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return err
	}
	if c.team && !fs.Changed("sizes") {
		sizes = "5GB"
	}
	c.sizes = strings.Fields(sizes)
	if c.machines < 1 {
		return fmt.Errorf("--machines: %d is not a number of machines", c.machines)
	}
	if fs.Changed("machines") && !c.team {
		return errors.New("--machines goes with --team")
	}
	if shapes[c.shape] == nil {
		return fmt.Errorf("--shape: %q is not mixed or code-linear", c.shape)
	}
	if c.largeSize != "0" {
		n, err := sessiongen.ParseSize(c.largeSize)
		if err != nil {
			return fmt.Errorf("--large-size: %w", err)
		}
		c.largeBytes = n
	}
	c.skip = map[string]bool{}
	for _, s := range strings.Split(skip, ",") {
		if s = strings.TrimSpace(s); s != "" {
			c.skip[s] = true
		}
	}
	if c.dir == "" {
		d, err := os.MkdirTemp("", "piexport-scale-")
		if err != nil {
			return err
		}
		// The team run's PostgreSQL cluster, in it, runs as the
		// postgres user when this runs as root: it must get in.
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
		c.dir = d
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	if c.generateOnly {
		for _, size := range c.sizes {
			n, err := sessiongen.ParseSize(size)
			if err != nil {
				return fmt.Errorf("--sizes: %w", err)
			}
			if c.team {
				ms, all, err := c.teamMachines(size, n, stderr)
				if err != nil {
					return fmt.Errorf("%s: %w", size, err)
				}
				fmt.Fprintf(stdout, "team %s: %d machines, %d sessions, %d MB, in %s\n", size, len(ms), len(all.files), all.bytes>>20, filepath.Dir(ms[0].home))
				continue
			}
			h, err := makeHistory(c.historyDir(size), n, c.shape, 0, stderr)
			if err != nil {
				return fmt.Errorf("%s: %w", size, err)
			}
			fmt.Fprintf(stdout, "%s: %d sessions, %d MB, in %s\n", size, len(h.files), h.bytes>>20, h.dir)
		}
		return nil
	}
	if err := c.buildTools(ctx, stderr); err != nil {
		return err
	}
	res, err := newResults(filepath.Join(c.dir, "results.tsv"))
	if err != nil {
		return err
	}
	defer res.close()
	for _, size := range c.sizes {
		n, err := sessiongen.ParseSize(size)
		if err != nil {
			return fmt.Errorf("--sizes: %w", err)
		}
		measure := c.measure
		if c.team {
			measure = c.measureTeam
		}
		if err := measure(ctx, size, n, res, stdout, stderr); err != nil {
			return fmt.Errorf("%s: %w", size, err)
		}
	}
	fmt.Fprintf(stdout, "figures: %s\n", res.path)
	return nil
}

// buildTools builds piexport and pagetime unless given.
func (c *config) buildTools(ctx context.Context, stderr io.Writer) error {
	for _, t := range []struct {
		path *string
		pkg  string
	}{{&c.piexport, "./cmd/piexport"}, {&c.pagetime, "./bench/pagetime"}} {
		if *t.path != "" {
			continue
		}
		*t.path = filepath.Join(c.dir, "bin", filepath.Base(t.pkg))
		cmd := exec.CommandContext(ctx, "go", "build", "-o", *t.path, t.pkg)
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build %s: %w", t.pkg, err)
		}
	}
	return nil
}

// historyDir is where the history of size is kept: history-SIZE for the
// mixed shape, as before shapes were, history-SIZE-SHAPE for another.
func (c *config) historyDir(size string) string {
	name := "history-" + size
	if c.shape != "mixed" {
		name += "-" + c.shape
	}
	return filepath.Join(c.dir, name)
}

// newestSize is the part of a history whose time to become searchable
// at a first start is measured: the newest sessions, this many bytes.
const newestSize = 1 << 30

// measure takes every figure of one history size.
func (c *config) measure(ctx context.Context, size string, bytes int64, res *results, stdout, stderr io.Writer) error {
	h, err := makeHistory(c.historyDir(size), bytes, c.shape, 0, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "== %s: %d sessions, %d MB, in %d projects\n", size, len(h.files), h.bytes>>20, h.projects)
	res.size = size
	res.add("history sessions", float64(len(h.files)), "")
	res.add("history MB", float64(h.bytes)/1e6, "MB")
	cache := filepath.Join(c.dir, "cache-"+filepath.Base(c.historyDir(size))[len("history-"):])
	if !c.keepCache {
		os.RemoveAll(cache)
	}
	qs, err := makeQueries(h, c.queries)
	if err != nil {
		return err
	}

	// Cold start: the catalog is read while the server answers, and
	// searches of every kind run meanwhile, one every 250 ms.
	res.add("load average (1 min) at the cold start", loadAverage(), "")
	srv, err := c.startServer(ctx, cache, h.dir, stderr)
	if err != nil {
		return err
	}
	during := make(chan []float64, 1)
	go func() { during <- srv.searchWhileReading(ctx, mixed(qs)) }()
	// The newest GB (or the newest half of a smaller history): when the
	// server says it searches back to the oldest of its sessions.
	boundary, whole := h.newest(newestSize)
	newestName := "newest 1 GB"
	if !whole {
		boundary, _ = h.newest(h.bytes / 2)
		newestName = "newest half"
	}
	newest := make(chan time.Duration, 1)
	go func() { newest <- srv.searchableBack(ctx, boundary) }()
	cold, err := srv.waitCatalogued(ctx, 2*time.Hour)
	if err != nil {
		srv.stop()
		return err
	}
	lat := <-during
	newestAt := <-newest
	start := "cold"
	if c.keepCache {
		start = "first start, cache kept"
	}
	res.add(start+": first index page after launch", srv.firstIndex.Seconds()*1000, "ms")
	res.add(start+": catalog complete after launch", cold.Seconds(), "s")
	res.add(start+": MB/s of session files", float64(h.bytes)/1e6/cold.Seconds(), "MB/s")
	res.add(start+": "+newestName+" searchable after launch", newestAt.Seconds(), "s")
	coldCPU := srv.cpu()
	res.add(start+": server CPU time", coldCPU.Seconds(), "s")
	res.add(start+": MB of session files per CPU second", float64(h.bytes)/1e6/coldCPU.Seconds(), "MB/s")
	res.add(start+": RSS max while reading", float64(srv.maxRSS())/1e6, "MB")
	res.add(start+": searches while reading", float64(len(lat)), "")
	res.add(start+": search while reading, p50", pct(lat, 50), "ms")
	res.add(start+": search while reading, p99", pct(lat, 99), "ms")
	res.add("load average (1 min) when the catalog was complete", loadAverage(), "")

	// Searches, one after another, each kind in turn (while the server
	// merges what the first start left unmerged, and after).
	var after []float64
	for _, kind := range queryKinds {
		cpu := srv.cpu()
		lat, zero, err := srv.search(ctx, qs[kind])
		if err != nil {
			srv.stop()
			return err
		}
		after = append(after, lat...)
		res.add("search "+kind+": server CPU per query", (srv.cpu()-cpu).Seconds()*1000/float64(len(lat)), "ms")
		res.add("search "+kind+": p50", pct(lat, 50), "ms")
		res.add("search "+kind+": p99", pct(lat, 99), "ms")
		res.add("search "+kind+": queries without hits", float64(zero), "")
	}

	res.add("search after reading, every kind: p99", pct(after, 99), "ms")
	res.add("load average (1 min) after the searches", loadAverage(), "")
	res.target(start+": MB/s of session files", float64(h.bytes)/1e6/cold.Seconds(), ">=", 60, "MB/s")
	if whole {
		res.target(start+": newest 1 GB searchable after launch", newestAt.Seconds(), "<=", 20, "s")
	}
	res.target("search while reading, p99", pct(lat, 99), "<=", 100, "ms")
	res.target("search after reading, every kind: p99", pct(after, 99), "<=", 100, "ms")

	// A session grows: how soon its new words are found.
	grow, err := srv.appendAndFind(ctx, h)
	if err != nil {
		srv.stop()
		return err
	}
	res.add("appended session searchable after", grow.Seconds()*1000, "ms")

	// Large sessions, first and cached view, in Chromium.
	if !c.skip["browser"] {
		first, cached, err := c.pageViews(ctx, srv, h, stderr)
		if err != nil {
			srv.stop()
			return err
		}
		for i := range first {
			res.add(fmt.Sprintf("8 MB session %d: first view, leaf visible", i+1), first[i], "ms")
			res.add(fmt.Sprintf("8 MB session %d: cached view, leaf visible", i+1), cached[i], "ms")
		}
		if c.largeBytes > 0 {
			first, cached, err := c.largeViews(ctx, srv, h, stderr)
			if err != nil {
				srv.stop()
				return err
			}
			for i := range first {
				res.add(fmt.Sprintf("%s session %d: first view, leaf visible", c.largeSize, i+1), first[i], "ms")
				res.add(fmt.Sprintf("%s session %d: cached view, leaf visible", c.largeSize, i+1), cached[i], "ms")
			}
		}
	}

	// Memory after many page views.
	if !c.skip["views"] {
		srv.resetRSS()
		took, err := srv.views(ctx, h, c.views)
		if err != nil {
			srv.stop()
			return err
		}
		res.add(fmt.Sprintf("%d page views: time", c.views), took.Seconds(), "s")
		res.add(fmt.Sprintf("%d page views: RSS max", c.views), float64(srv.maxRSS())/1e6, "MB")
		res.add(fmt.Sprintf("%d page views: RSS after", c.views), float64(srv.rss())/1e6, "MB")
	}
	srv.stop()

	// Warm start: nothing changed.
	for run := 1; run <= 3; run++ {
		srv, err = c.startServer(ctx, cache, h.dir, stderr)
		if err != nil {
			return err
		}
		warm, err := srv.waitCatalogued(ctx, 10*time.Minute)
		srv.stop()
		if err != nil {
			return err
		}
		res.add(fmt.Sprintf("warm start %d: index page after launch", run), srv.firstIndex.Seconds()*1000, "ms")
		res.add(fmt.Sprintf("warm start %d: catalog up to date after launch", run), warm.Seconds()*1000, "ms")
	}

	if !c.skip["archive"] {
		if err := c.archive(ctx, h, cache, res, stderr); err != nil {
			return err
		}
	}
	res.print(stdout)
	return nil
}
