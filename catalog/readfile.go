package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/internal/recovered"
	"github.com/piexport/piexport/session"
)

// read reads what changed of r's file, in a catalog that does not prepare
// sessions, or nil when the read was cut short by ctx.
func (c *Catalog) read(ctx context.Context, r *record) *fileData {
	if ctx.Err() != nil {
		return nil
	}
	c.mu.RLock()
	f, old := r.f, r.row
	c.mu.RUnlock()
	d, err := c.readFileSafely(ctx, f, old)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return c.errorData(r, err)
	}
	return d
}

// readRecords reads what changed of the files of rs, or of their
// families in a catalog that prepares sessions (see readFamily), and
// returns it; what the store holds of each is nil when reading was cut
// short by ctx.
func (c *Catalog) readRecords(ctx context.Context, rs []*record) []readResult {
	if c.opt.Mask == nil {
		out := make([]readResult, len(rs))
		for i, r := range rs {
			out[i] = readResult{r: r, d: c.read(ctx, r)}
		}
		return out
	}
	var out []readResult
	got := map[*record]bool{}
	for _, fam := range c.staleFamilies(rs) {
		for _, rd := range c.readFamily(ctx, fam) {
			out = append(out, readResult{r: rd.r, d: rd.d, again: rd.d.again})
			got[rd.r] = true
		}
	}
	for _, r := range rs {
		if !got[r] {
			out = append(out, readResult{r: r}) // cut short
		}
	}
	return out
}

// fileError is a file that was opened but could not be read as a session,
// with the stamp and hash of what was read.
type fileError struct {
	stamp stamp
	sum   [32]byte
	err   error
}

// readFileSafely is readFile where a panic (of the loader) would end the
// program, on the readers of Update and a server's requests: it becomes
// the file's error, so the file is listed as one that cannot be read, and
// read again once it changes.
func (c *Catalog) readFileSafely(ctx context.Context, f file, old *fileRow) (d *fileData, err error) {
	defer recoverAs(&err, f.path+": reading it")
	return c.readFile(ctx, f, old)
}

// recoverAs, deferred, turns a panic into *err, saying what failed and
// where: the catalog reads untrusted files on goroutines of its own,
// where nothing else would recover it.
func recoverAs(err *error, what string) {
	if x := recover(); x != nil {
		*err = fmt.Errorf("%s failed: %s", what, recovered.Describe(x))
	}
}

// readFile reads f, in a catalog that does not prepare sessions: only
// what was appended when old says that suffices, else all of it.
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
	if err := fileguard.CheckInput(f.path, fi); err != nil {
		return nil, err
	}
	st := stampOf(fi)
	if old != nil && old.Err == "" && st.Inode == old.Stamp.Inode && st.Size >= old.ReadSize {
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
	s, t, err := readFull(ctxReader{ctx, fh, gateOf(ctx)}, f.path)
	if err != nil {
		fe := &fileError{stamp: st, err: err}
		copy(fe.sum[:], t.h.Sum(nil))
		return nil, fe
	}
	return fromFull(c.rowKey(f.key), st, s, t, gateOf(ctx)), nil
}

// readWhole reads all of f, as it is now, and does not prepare it.
func (c *Catalog) readWhole(ctx context.Context, f file) (*session.Session, *tracker, stamp, error) {
	fh, err := c.open(f)
	if err != nil {
		return nil, nil, stamp{}, pathError(f.path, err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, nil, stamp{}, pathError(f.path, err)
	}
	if err := fileguard.CheckInput(f.path, fi); err != nil {
		return nil, nil, stamp{}, err
	}
	st := stampOf(fi)
	s, t, err := readFull(ctxReader{ctx, fh, gateOf(ctx)}, f.path)
	if err != nil {
		fe := &fileError{stamp: st, err: err}
		copy(fe.sum[:], t.h.Sum(nil))
		return nil, nil, st, fe
	}
	return s, t, st, nil
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

// ctxReader stops a read when ctx is done: a large file takes seconds.
// The bytes it reads are counted where ctx says (see countingReads). It
// waits at gate, if set, before each read: the loader reads a megabyte at
// a time, some tens of milliseconds of work, so that a file being read
// gives way to searches too.
type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	gate *searchGate
}

type ctxReaderAt struct {
	ctx context.Context
	r   io.ReaderAt
}

// readCounter is the key of the count of bytes read in a context.
type readCounter struct{}

// countingReads returns ctx, in which the files read add the bytes they
// read to n: an update tells how far it is in bytes, and one large file
// takes seconds to read.
func countingReads(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, readCounter{}, n)
}

// yieldKey is the key of the gate that files read in a context give way
// at (see yielding).
type yieldKey struct{}

// yielding returns ctx, in which the files read give way to the searches
// of gate: an update's reading, which nobody waits for. A file read for
// someone (a page, a search's snippet) does not wait: a search that
// needs one would wait for itself.
func yielding(ctx context.Context, gate *searchGate) context.Context {
	return context.WithValue(ctx, yieldKey{}, gate)
}

// gateOf returns the gate that files read in ctx give way at, nil for
// none.
func gateOf(ctx context.Context) *searchGate {
	g, _ := ctx.Value(yieldKey{}).(*searchGate)
	return g
}

// counted adds k to the count of bytes read in ctx, if it keeps one.
func counted(ctx context.Context, k int) {
	if n, ok := ctx.Value(readCounter{}).(*atomic.Int64); ok && k > 0 {
		n.Add(int64(k))
	}
}

func (e *fileError) Error() string { return e.err.Error() }

func (e *fileError) Unwrap() error { return e.err }

func (r ctxReader) Read(p []byte) (int, error) {
	if r.gate != nil {
		r.gate.wait(r.ctx)
	}
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	k, err := r.r.Read(p)
	counted(r.ctx, k)
	return k, err
}

func (r ctxReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	k, err := r.r.ReadAt(p, off)
	counted(r.ctx, k)
	return k, err
}
