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

// runJobs reads the sources of jobs on every core; the calling goroutine
// reports progress. A source that fails to load is recorded in its entry;
// a failure to write stops the build.
func runJobs(ctx context.Context, dir string, jobs []*job, opt Options, f format, sameOptions bool,
	related map[string][]page.Related, parents map[string]page.Link, sb *searchBuild, num map[string]int, prev *searchMeta) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type outcome struct {
		j   *job
		err error // writing failed: the build stops
	}
	work := make(chan *job)
	done := make(chan outcome)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(jobs))) {
		wg.Go(func() {
			for j := range work {
				var err error
				j.rendered, err = renderOne(ctx, dir, j, opt, f, sameOptions && !j.relink, parents[j.key], related[j.key], sb, num, prev)
				done <- outcome{j, err}
			}
		})
	}
	go func() {
		defer close(work)
		for _, j := range jobs {
			select {
			case work <- j:
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
		n++
		if o.err != nil && writeErr == nil {
			writeErr = o.err
			cancel()
		}
		if opt.Progress != nil {
			opt.Progress(n, len(jobs), o.j.path)
		}
	}
	if writeErr != nil {
		return writeErr
	}
	// Pages written so far replaced their old versions whole; the old
	// index and manifest still describe a readable archive.
	return ctx.Err()
}
