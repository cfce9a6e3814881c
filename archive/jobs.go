package archive

import (
	"context"
	"runtime"
	"sync"

	"github.com/piexport/piexport/page"
)

// job is a source to read: to make its page (page), or only for its
// words (an unchanged session the search index lacks).
type job struct {
	key, path string
	old, e    *entry
	page      bool
	// relink: the source is unchanged, but its links are not.
	relink bool
	// rendered says the page was written, words that its words were
	// added to the search index.
	rendered, words bool
}

// runJobs reads the sources of jobs on every core, a family's together
// under Prepare (families set; see unitsOf); the calling goroutine
// reports progress. A source that fails to load is recorded in its entry;
// a failure to write stops the build.
func runJobs(ctx context.Context, dir string, jobs []*job, next *manifest, families map[string][]string, opt Options, f format, sameOptions bool,
	related map[string][]page.Related, parents map[string]page.Link, sb *searchBuild, num map[string]int, prev *searchMeta) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	units := unitsOf(jobs, families)
	type outcome struct {
		u   unit
		err error // writing failed: the build stops
	}
	work := make(chan unit)
	done := make(chan outcome)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(units))) {
		wg.Go(func() {
			for u := range work {
				err := renderUnit(ctx, dir, u, next, opt, f, sameOptions, parents, related, sb, num, prev)
				done <- outcome{u, err}
			}
		})
	}
	go func() {
		defer close(work)
		for _, u := range units {
			select {
			case work <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	if opt.Progress != nil && len(jobs) > 0 {
		opt.Progress(0, len(jobs), "")
	}
	n := 0
	var writeErr error
	for o := range done {
		if o.err != nil && writeErr == nil {
			writeErr = o.err
			cancel()
		}
		for _, j := range o.u.jobs {
			n++
			if opt.Progress != nil {
				opt.Progress(n, len(jobs), j.path)
			}
		}
	}
	if writeErr != nil {
		return writeErr
	}
	// Pages written so far replaced their old versions whole; the old
	// index and manifest still describe a readable archive.
	return ctx.Err()
}
