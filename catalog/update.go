package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Progress says how far an Update is.
type Progress struct {
	// Files and Bytes are what the update has to read, Done and BytesDone
	// what it has read and stored so far.
	Files, Done      int
	Bytes, BytesDone int64
	// Grown counts the files of Done read from where they were read
	// before: they grew, and their head was as it was.
	Grown int
	// BytesRead counts the bytes read so far, as they are read: a large
	// file counts as it is read, before it is stored. (It can pass Bytes
	// in a catalog that prepares sessions, which reads a changed file's
	// family with it.)
	BytesRead int64
	// Running is true while an update is under way.
	Running bool
	// Started is when the running or last update began.
	Started time.Time
	// Paused is true while reading waits for a search to end (searches
	// come first: see searchGate).
	Paused bool
	// ReadBack is how far back the catalog reaches while files are still
	// unread (see Catalog.ReadBack).
	ReadBack time.Time
}

type progressCounters struct {
	files, done      atomic.Int64
	grown            atomic.Int64
	bytes, bytesDone atomic.Int64
	bytesRead        atomic.Int64
	running          atomic.Bool
	started          atomic.Int64
}

// Progress returns how far the running (or the last) Update is.
func (c *Catalog) Progress() Progress {
	p := &c.prog
	return Progress{
		Files: int(p.files.Load()), Done: int(p.done.Load()), Grown: int(p.grown.Load()),
		Bytes: p.bytes.Load(), BytesDone: p.bytesDone.Load(), BytesRead: p.bytesRead.Load(),
		Running: p.running.Load(), Started: time.Unix(0, p.started.Load()),
		Paused: c.searches.paused(), ReadBack: c.ReadBack(),
	}
}

// ReadBack returns, while some files found are not read yet, the
// modification time of the oldest file that, with every file changed
// after it, is read: files are read newest first, so a search finds what
// every session changed since then holds. It is zero when every file is
// read, and when the newest is not.
func (c *Catalog) ReadBack() time.Time {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var unread int64 // the newest unread file's time
	some := false
	for _, r := range c.records {
		if r.row == nil {
			unread, some = max(unread, r.found.MTime), true
		}
	}
	if !some {
		return time.Time{}
	}
	var back int64
	for _, r := range c.records {
		if r.row != nil && r.found.MTime > unread && (back == 0 || r.found.MTime < back) {
			back = r.found.MTime
		}
	}
	if back == 0 {
		return time.Time{}
	}
	return time.Unix(0, back)
}

// UpdateTelling is Update that tells progress how far it is every
// interval while files are being read. It returns only once progress is
// no longer being called, so a caller's last word comes after the ticks.
func (c *Catalog) UpdateTelling(ctx context.Context, every time.Duration, progress func(Progress)) (bool, error) {
	done := make(chan struct{})
	var ticking sync.WaitGroup
	ticking.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if p := c.Progress(); p.Running {
					progress(p)
				}
			}
		}
	})
	changed, err := c.Update(ctx)
	close(done)
	ticking.Wait()
	return changed, err
}

// Refresh looks for files again, then reads those that are new or changed
// (see Update). It reports whether anything changed.
func (c *Catalog) Refresh(ctx context.Context) (bool, error) {
	gen := c.Generation()
	if err := c.maybeReopen(ctx); err != nil {
		return false, err
	}
	if err := c.find(ctx, true); err != nil {
		return false, err
	}
	for i := range shards {
		// A scrub that readers held up is done again (see store.scrub).
		if st, err := c.store(i); err == nil {
			st.scrub(ctx)
		}
	}
	changed, err := c.Update(ctx)
	return changed || c.Generation() != gen, err
}

// maybeReopen opens a shard of the cache database again when another
// process replaced it (after finding it damaged), so that both use the
// same one.
func (c *Catalog) maybeReopen(ctx context.Context) error {
	for i := range shards {
		st, err := c.store(i)
		if err != nil {
			return err
		}
		if !st.replaced() {
			continue
		}
		ns, warning, err := openStore(ctx, filepath.Dir(st.path), c.maskKey(), i)
		if err != nil {
			return err
		}
		if warning != "" {
			c.warn(warning)
		}
		c.stMu.Lock()
		c.st[i] = ns
		c.stMu.Unlock()
		st.close()
		c.forgetRows(i)
	}
	return nil
}

// stale lists the records whose file the store does not hold as it is now,
// newest first: they are the likeliest to be looked at.
func (c *Catalog) stale() []*record {
	c.mu.RLock()
	var out []*record
	for _, r := range c.records {
		if r.row == nil || r.row.Stamp != r.found {
			out = append(out, r)
		}
	}
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *record) int { return cmp.Compare(b.found.MTime, a.found.MTime) })
	return out
}

// Update reads every file the store does not hold as it is now: new files
// whole, grown ones from where they were read (see readAppended), the
// newest first. Several files are read at once; one goroutine writes. It
// reports whether anything changed.
func (c *Catalog) Update(ctx context.Context) (bool, error) {
	c.updateMu.Lock()
	defer c.updateMu.Unlock()
	jobs := c.stale()
	p := &c.prog
	var total int64
	for _, r := range jobs {
		total += r.found.Size
	}
	p.files.Store(int64(len(jobs)))
	p.bytes.Store(total)
	p.done.Store(0)
	p.grown.Store(0)
	p.bytesDone.Store(0)
	p.bytesRead.Store(0)
	p.started.Store(time.Now().UnixNano())
	p.running.Store(true)
	defer p.running.Store(false)
	if len(jobs) == 0 {
		return false, nil
	}

	// Readers hand what they read to the writer of its shard, which waits
	// in the queue's bound (see readQueue). The channels hold more than
	// the bound lets in, so that a reader never waits on a writer.
	var units []readUnit
	add := func(recs []*record) {
		u := readUnit{recs: recs, n: c.unitBytes(recs), shard: shardOf(c.rowKey(recs[0].f.key))}
		for _, r := range recs {
			u.mtime = max(u.mtime, r.found.MTime)
		}
		units = append(units, u)
	}
	// A family of a catalog that prepares sessions is read as one.
	if c.opt.Mask != nil {
		for _, fam := range c.staleFamilies(jobs) {
			add(fam)
		}
	} else {
		for _, r := range jobs {
			add([]*record{r})
		}
	}
	queue := newReadQueue(ctx, readBudget/shards, units)
	var results [shards]chan readResult
	for i := range results {
		results[i] = make(chan readResult, 64)
	}
	var readers sync.WaitGroup
	rctx := countingReads(yielding(ctx, &c.searches), &p.bytesRead)
	for range min(c.opt.Workers, len(units)) {
		readers.Go(func() {
			for {
				u, ok := queue.next()
				if !ok {
					return
				}
				c.searches.wait(ctx)
				read := c.readRecords(rctx, u.recs)
				// Given back once all are written.
				read[len(read)-1].n, read[len(read)-1].boundShard = u.n, u.shard
				for _, res := range read {
					results[shardOf(c.rowKey(res.r.f.key))] <- res
				}
			}
		})
	}
	go func() {
		readers.Wait()
		for _, ch := range results {
			close(ch)
		}
	}()
	var writers sync.WaitGroup
	var errs [shards][]error
	var retry [shards][]*record
	for i := range shards {
		writers.Go(func() { errs[i], retry[i] = c.write(ctx, i, results[i], queue, total >= c.bulk) })
	}
	writers.Wait()
	var all []error
	for i := range shards {
		all = append(all, errs[i]...)
		for _, res := range c.readRecords(ctx, retry[i]) {
			if res.d != nil {
				if err := c.store1(ctx, res.r, res.d); err != nil && ctx.Err() == nil {
					all = append(all, err)
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	return true, errors.Join(all...)
}

// readResult is what a reader hands a writer: what was read of r's file
// (nil if reading was cut short), and the n bytes of the read queue's
// bound for shard boundShard that it gives back once written; again
// marks a file read only because its family changed (see readFamily),
// which is not one of the update's.
type readResult struct {
	r          *record
	d          *fileData
	n          int64
	boundShard int
	again      bool
}

// unitBytes is what reading the records of u takes of the queue's bound: their
// files' sizes, or their families' in a catalog that prepares sessions.
func (c *Catalog) unitBytes(u []*record) int64 {
	var ids []string
	if c.opt.Mask != nil {
		ids = c.family(u[0].id)
	} else {
		for _, r := range u {
			ids = append(ids, r.id)
		}
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var n int64
	for _, id := range ids {
		if r := c.records[id]; r != nil {
			n += r.found.Size
		}
	}
	return n
}

// write stores what arrives on results in shard, in batches (see batch);
// in a bulk read, with FTS5's merging as merge.go says. It returns the
// errors met and the files that another process stored meanwhile, to
// read again.
func (c *Catalog) write(ctx context.Context, shard int, results <-chan readResult, queue *readQueue, bulk bool) (errs []error, retry []*record) {
	p := &c.prog
	var b *batch
	var inBatch []readResult
	// merging is whether a batch set the index's merging for this
	// update: each does, until one commits.
	merging := false
	commit := func() {
		if b == nil {
			return
		}
		if err := b.commit(); err != nil {
			b.rollback()
			errs = append(errs, c.wrote(ctx, c.checkStore(shard, err)))
		} else {
			c.wrote(ctx, nil)
			merging = true
			for _, res := range inBatch {
				c.record(res.r, res.d)
			}
		}
		b, inBatch = nil, nil
	}
	defer func() {
		if b != nil {
			b.rollback()
		}
	}()
	for {
		var res readResult
		var ok bool
		if b == nil {
			res, ok = <-results
		} else {
			// A batch holds the shard's write lock: it is committed
			// within batchAge, whether more comes or not, so that another
			// process never waits long for its turn.
			timer := time.NewTimer(max(0, batchAge-time.Since(b.began)))
			select {
			case res, ok = <-results:
				timer.Stop()
			case <-timer.C:
				commit()
				continue
			}
		}
		if !ok {
			break
		}
		if res.d != nil {
			c.searches.wait(ctx)
			err := c.add(ctx, shard, &b, res.d, bulk && !merging)
			switch {
			case errors.Is(err, errChanged):
				retry = append(retry, res.r)
			case err != nil:
				// The batch is lost; its files stay stale and are read
				// again by the next update.
				if b != nil {
					b.rollback()
				}
				b, inBatch = nil, nil
				if ctx.Err() == nil {
					errs = append(errs, c.wrote(ctx, err))
				}
			case err == nil:
				inBatch = append(inBatch, res)
			}
		}
		queue.give(res.boundShard, res.n)
		if !res.again {
			p.done.Add(1)
			p.bytesDone.Add(res.r.found.Size)
		}
		if b != nil && (b.bytes >= batchBytes || time.Since(b.began) >= batchAge) {
			commit()
		}
	}
	commit()
	if bulk && merging {
		// Merging as usual again; Tidy merges what was left.
		if st, err := c.store(shard); err == nil {
			if err := setMerging(ctx, st.w, false); err != nil && ctx.Err() == nil {
				errs = append(errs, c.wrote(ctx, c.checkStore(shard, err)))
			}
		}
	}
	return errs, retry
}

// A batch is committed once it holds batchBytes of text or is batchAge
// old, so that other processes sharing the store wait at most about that
// long to write, and what was read shows soon. A batch's text waits in
// memory for its commit (see batch.texts), and so do the sessions read
// and not yet handed to a writer, up to readBudget of their files' bytes:
// with two shards, these are most of the Go heap while a history is read
// (64 MB of each put the server's peak at 400 MB; these, with FTS5's 8 MB
// hash, at 272 MB).
const (
	readBudget = 32 << 20
	batchBytes = 24 << 20
	batchAge   = 2 * time.Second
)

// add adds d to the batch *b of shard, beginning one if there is none;
// a batch begun with bulk turns FTS5's merging off (see merge.go).
func (c *Catalog) add(ctx context.Context, shard int, b **batch, d *fileData, bulk bool) error {
	if *b == nil {
		st, err := c.store(shard)
		if err != nil {
			return err
		}
		nb, err := st.begin(ctx)
		if err != nil {
			return c.checkStore(shard, err)
		}
		nb.gate = &c.searches
		*b = nb
		if bulk {
			if err := setMerging(ctx, nb.tx, true); err != nil {
				return c.checkStore(shard, err)
			}
		}
	}
	d.row.Shard = shard
	err := (*b).add(ctx, d)
	if err != nil && !errors.Is(err, errChanged) {
		err = c.checkStore(shard, fmt.Errorf("%s: %w", d.row.Path, err))
	}
	return err
}
