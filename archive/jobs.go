package archive

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// job is a source to read: to make its page (page), to add its words to
// the search index (words), or both. An unchanged session the search
// index lacks is read for its words only; a page made again once every
// source is read, for its links, adds no words (they are added already).
type job struct {
	key, path   string
	old, e      *entry
	page, words bool
	// relink: the source is unchanged, but its links are not.
	relink bool
	// rendered says the page was written, indexed that its words were
	// added to the search index.
	rendered, indexed bool
}

// run reads the sources of jobs on every core, a family's together
// under Mask (see unitsOf); the calling goroutine reports progress. A
// source that fails to load is recorded in its entry; a failure to write
// stops the build.
func (b *builder) run(ctx context.Context, jobs []*job) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := b.opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	units := unitsOf(jobs, b.families)
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
				err := b.renderUnit(ctx, u)
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
	b.opt.tracker.begin(jobs)
	var writeErr error
	for o := range done {
		if o.err != nil && writeErr == nil {
			writeErr = o.err
			cancel()
		}
		for _, j := range o.u.jobs {
			b.opt.tracker.did(j)
		}
	}
	if writeErr != nil {
		return writeErr
	}
	// Pages written so far replaced their old versions whole; the old
	// index and manifest still describe a readable archive.
	return ctx.Err()
}

// Progress says how far a build is.
type Progress struct {
	// Files counts the session files the build reads, sessions and
	// sub-agents' transcripts alike (those that changed, and those whose
	// words the search index lacks), and Done those read; Bytes and
	// BytesDone are their sizes.
	Files, Done      int
	Bytes, BytesDone int64
	// Relinks counts the pages made again once every file is read, to
	// link the titles of sessions new to the archive, and Relinked those
	// made so far.
	Relinks, Relinked int
	// Path is the session file read last, "" before the first.
	Path string
	// Started is when the build began.
	Started time.Time
}

// tracker keeps a build's Progress and tells Options.Progress of it,
// from one goroutine at a time.
type tracker struct {
	mu        sync.Mutex
	tell      func(Progress)
	p         Progress
	relinking bool
	// done is the bytes of the jobs done; shares, the share of its
	// entries each job being written has written.
	done   int64
	shares map[*job]float64
}

// begin adds jobs to the work: to the files to read, or, once
// relinking, to the pages made again.
func (t *tracker) begin(jobs []*job) {
	if t == nil || len(jobs) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range jobs {
		if t.relinking {
			t.p.Relinks++
		} else {
			t.p.Files++
			t.p.Bytes += j.e.Size
		}
	}
	t.told()
}

// did counts j done.
func (t *tracker) did(j *job) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.shares, j)
	if t.relinking {
		t.p.Relinked++
	} else {
		t.p.Done++
		t.done += j.e.Size
	}
	t.p.Path = j.path
	t.told()
}

// writing returns what to tell of j's page as it is written, so that a
// large session's bytes count as its page is written: nil once every
// file is read.
func (t *tracker) writing(j *job) func(done, total int) {
	if t == nil || t.relinking {
		return nil
	}
	return func(done, total int) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.shares == nil {
			t.shares = map[*job]float64{}
		}
		if total > 0 && t.p.Done < t.p.Files {
			t.shares[j] = float64(done) / float64(total)
			t.told()
		}
	}
}

// told tells Options.Progress where the build is; t.mu is held.
func (t *tracker) told() {
	t.p.BytesDone = t.done
	for j, share := range t.shares {
		t.p.BytesDone += int64(share * float64(j.e.Size))
	}
	t.tell(t.p)
}
