package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Progress says how far an Update is.
type Progress struct {
	// Files and Bytes are what the update has to read, Done and BytesDone
	// what it has read so far.
	Files, Done      int
	Bytes, BytesDone int64
	// Running is true while an update is under way.
	Running bool
	// Started is when the running or last update began.
	Started time.Time
}

type progressCounters struct {
	files, done      atomic.Int64
	bytes, bytesDone atomic.Int64
	running          atomic.Bool
	started          atomic.Int64
}

// Progress returns how far the running (or the last) Update is.
func (c *Catalog) Progress() Progress {
	p := &c.prog
	return Progress{
		Files: int(p.files.Load()), Done: int(p.done.Load()),
		Bytes: p.bytes.Load(), BytesDone: p.bytesDone.Load(),
		Running: p.running.Load(), Started: time.Unix(0, p.started.Load()),
	}
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
		ns, warning, err := openStore(ctx, filepath.Dir(st.path), c.opt.Program, c.opt.PrepareKey, i)
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
	p.bytesDone.Store(0)
	p.started.Store(time.Now().UnixNano())
	p.running.Store(true)
	defer p.running.Store(false)
	if len(jobs) == 0 {
		return false, nil
	}

	// Readers hand what they read to the writer of its shard; what waits
	// to be written holds whole sessions, so it is bounded by bytes.
	budget := newBudget(64 << 20)
	work := make(chan *record)
	var results [shards]chan readResult
	for i := range results {
		results[i] = make(chan readResult, 1)
	}
	var readers sync.WaitGroup
	for range min(c.opt.Workers, len(jobs)) {
		readers.Go(func() {
			for r := range work {
				n := r.found.Size
				budget.take(n)
				d := c.read(ctx, r)
				results[shardOf(r.f.key)] <- readResult{r, d, n}
			}
		})
	}
	go func() {
		defer close(work)
		for _, r := range jobs {
			select {
			case work <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
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
		writers.Go(func() { errs[i], retry[i] = c.write(ctx, i, results[i], budget) })
	}
	writers.Wait()
	var all []error
	for i := range shards {
		all = append(all, errs[i]...)
		for _, r := range retry[i] {
			if d := c.read(ctx, r); d != nil {
				if err := c.store1(ctx, r, d); err != nil && ctx.Err() == nil {
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
// (nil if reading was cut short) and the bytes it holds up.
type readResult struct {
	r *record
	d *fileData
	n int64
}

// write stores what arrives on results in shard, in batches (see batch).
// It returns the errors met and the files that another process stored
// meanwhile, to read again.
func (c *Catalog) write(ctx context.Context, shard int, results <-chan readResult, budget *budget) (errs []error, retry []*record) {
	p := &c.prog
	var b *batch
	var inBatch []readResult
	commit := func() {
		if b == nil {
			return
		}
		if err := b.commit(); err != nil {
			b.rollback()
			errs = append(errs, c.checkStore(shard, err))
		} else {
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
			err := c.add(ctx, shard, &b, res.d)
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
					errs = append(errs, err)
				}
			case err == nil:
				inBatch = append(inBatch, res)
			}
		}
		budget.give(res.n)
		p.done.Add(1)
		p.bytesDone.Add(res.n)
		if b != nil && (b.bytes >= batchBytes || time.Since(b.began) >= batchAge) {
			commit()
		}
	}
	commit()
	return errs, retry
}

// A batch is committed once it holds batchBytes of text or is batchAge
// old, so that other processes sharing the store wait at most about that
// long to write, and what was read shows soon.
const (
	batchBytes = 64 << 20
	batchAge   = 2 * time.Second
)

// add adds d to the batch *b of shard, beginning one if there is none.
func (c *Catalog) add(ctx context.Context, shard int, b **batch, d *fileData) error {
	if *b == nil {
		st, err := c.store(shard)
		if err != nil {
			return err
		}
		nb, err := st.begin(ctx)
		if err != nil {
			return c.checkStore(shard, err)
		}
		*b = nb
	}
	d.row.Shard = shard
	err := (*b).add(ctx, d)
	if err != nil && !errors.Is(err, errChanged) {
		err = c.checkStore(shard, fmt.Errorf("%s: %w", d.row.Path, err))
	}
	return err
}

// read reads what changed of r's file, or nil when the read was cut short
// by ctx.
func (c *Catalog) read(ctx context.Context, r *record) *fileData {
	if ctx.Err() != nil {
		return nil
	}
	c.mu.RLock()
	f, old := r.f, r.row
	c.mu.RUnlock()
	d, err := c.readFile(ctx, f, old)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		// A file that cannot be read is recorded with its error, so it is
		// listed, and read again only once it changes.
		d = &fileData{row: fileRow{Path: f.key, Stamp: r.found, Err: err.Error()}}
		var fe *fileError
		if errors.As(err, &fe) {
			d.row.Stamp, d.row.Sum = fe.stamp, fe.sum
		}
	}
	return d
}

// fileError is a file that was opened but could not be read as a session,
// with the stamp and hash of what was read.
type fileError struct {
	stamp stamp
	sum   [32]byte
	err   error
}

func (e *fileError) Error() string { return e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }

// readFile reads f: only what was appended when old says that suffices,
// else all of it.
func (c *Catalog) readFile(ctx context.Context, f file, old *fileRow) (*fileData, error) {
	fh, err := c.open(f)
	if err != nil {
		return nil, pathError(f.path, err)
	}
	defer fh.Close()
	// The stamp is taken before reading: if the file changes meanwhile,
	// the next look sees a newer one and reads again.
	fi, err := fh.Stat()
	if err != nil {
		return nil, pathError(f.path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", f.path)
	}
	st := stampOf(fi)
	if old != nil && old.Err == "" && st.Inode == old.Stamp.Inode && st.Size >= old.ReadSize && c.opt.Prepare == nil {
		if ra, ok := fh.(io.ReaderAt); ok {
			d, err := c.readGrown(ctx, ra, f, st, old)
			if err == nil {
				return d, nil
			}
			if !errors.Is(err, errNotAppended) {
				return nil, err
			}
			sk, ok := fh.(io.Seeker)
			if !ok {
				return nil, fmt.Errorf("%s: cannot read it again", f.path)
			}
			if _, err := sk.Seek(0, io.SeekStart); err != nil {
				return nil, pathError(f.path, err)
			}
		}
	}
	s, t, err := readFull(ctxReader{ctx, fh}, f.path)
	if err != nil {
		fe := &fileError{stamp: st, err: err}
		copy(fe.sum[:], t.h.Sum(nil))
		return nil, fe
	}
	if c.opt.Prepare != nil {
		c.opt.Prepare(s)
	}
	return fromFull(f.key, st, s, t), nil
}

// readGrown reads what was appended to a file.
func (c *Catalog) readGrown(ctx context.Context, ra io.ReaderAt, f file, st stamp, old *fileRow) (*fileData, error) {
	s, t, head, err := readAppended(ctxReaderAt{ctx, ra}, st.Size, old, f.path)
	if err != nil {
		return nil, err
	}
	var olds map[string]*oldEntry
	if s != nil {
		store, err := c.store(old.Shard)
		if err != nil {
			return nil, err
		}
		if olds, err = store.oldEntries(ctx, old.FID); err != nil {
			return nil, c.checkStore(old.Shard, err)
		}
	}
	return fromAppended(old, olds, st, s, t, head)
}

// store1 writes what was read of r's file in a transaction of its own and
// records it. An appended read that no longer fits what the store holds
// (another process wrote meanwhile) is done again.
func (c *Catalog) store1(ctx context.Context, r *record, d *fileData) error {
	shard := shardOf(d.row.Path)
	for try := 0; ; try++ {
		st, err := c.store(shard)
		if err != nil {
			return err
		}
		d.row.Shard = shard
		err = st.write(ctx, d)
		if errors.Is(err, errChanged) && try < 2 {
			row, err := st.file(ctx, d.row.Path)
			if err != nil {
				return c.checkStore(shard, err)
			}
			c.mu.RLock()
			f := r.f
			c.mu.RUnlock()
			if d, err = c.readFile(ctx, f, row); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return c.checkStore(shard, fmt.Errorf("%s: %w", r.f.path, err))
		}
		break
	}
	c.record(r, d)
	return nil
}

// record notes that the store holds d for r's file.
func (c *Catalog) record(r *record, d *fileData) {
	row := d.row
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil {
		c.known = map[string]*fileRow{}
	}
	c.known[row.Path] = &row
	if c.records[r.id] == r {
		c.setRow(r, &row)
	}
	if d.appended {
		c.appends.Add(1)
	}
	c.gen.Add(1)
}

// ctxReader stops a read when ctx is done: a large file takes seconds.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

func (r ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.ReadAt(p, off)
}

// budget bounds the bytes held by reads waiting to be written; one read
// always proceeds, however large.
type budget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	max   int64
	inUse int64
}

func newBudget(max int64) *budget {
	b := &budget{max: max}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *budget) take(n int64) {
	b.mu.Lock()
	for b.inUse > 0 && b.inUse+n > b.max {
		b.cond.Wait()
	}
	b.inUse += n
	b.mu.Unlock()
}

func (b *budget) give(n int64) {
	b.mu.Lock()
	b.inUse -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// Current brings what the catalog knows of one file up to date, reading
// only what changed since it was read (see Update), and returns it. It is
// how a page that follows its session learns the session changed.
func (c *Catalog) Current(ctx context.Context, id string) (Info, error) {
	c.mu.RLock()
	r := c.records[id]
	c.mu.RUnlock()
	if r == nil {
		return Info{}, ErrNotFound
	}
	fi, err := c.stat(r.f)
	if err != nil {
		info, _ := c.Info(id)
		return info, pathError(r.f.path, err)
	}
	st := stampOf(fi)
	c.mu.Lock()
	if st != r.found {
		r.found = st
		c.gen.Add(1)
	}
	current := r.row != nil && r.row.Stamp == st
	c.mu.Unlock()
	if !current {
		if d := c.read(ctx, r); d != nil {
			if err := c.store1(ctx, r, d); err != nil {
				return Info{}, err
			}
		}
	}
	info, ok := c.Info(id)
	if !ok {
		return Info{}, ErrNotFound
	}
	return info, nil
}
