package catalog

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// How a search walks a shard: through FTS5's lists of the query's words,
// newest key first, in windows, within the key ranges of the files it
// searches, until it holds maxCandidates or its time is up.

// candidates returns the entries of shard that match expr, newest first,
// at most maxCandidates of them, and whether there are more. It reads
// only FTS5's lists: an entry's key tells most often whether its file is
// searched (see fileSlots); the rows of the entries ranked are read after
// (entryRows).
func (c *Catalog) candidates(ctx context.Context, shard int, expr string, lo, hi int64, files map[int64]*record, deadline time.Time) ([]candidate, bool, int64, error) {
	st, err := c.store(shard)
	if err != nil {
		return nil, false, 0, err
	}
	slots := c.fileSlots(shard, files)
	// The newest key bounds the range: the first window (see
	// spanCandidates) is the newest day of entries, not of time.
	var newest sql.NullInt64
	if err := st.r.QueryRowContext(ctx, `SELECT max(rid) FROM entries`).Scan(&newest); err != nil {
		return nil, false, 0, c.checkStore(shard, err)
	}
	if !newest.Valid {
		return nil, false, 0, nil
	}
	hi = min(hi, newest.Int64+1)
	spans, err := c.spans(ctx, st, shard, files, lo, hi)
	if err != nil {
		return nil, false, 0, err
	}
	var out []candidate
	for _, span := range spans {
		more, stopped, err := c.spanCandidates(ctx, st, shard, expr, span[0], span[1], files, slots, deadline, &out)
		if more || err != nil {
			return out, more, stopped, err
		}
	}
	return out, false, 0, nil
}

// A search looks through the keys newest first, a window at a time: the
// newest few thousand entries, then more as the last took little time.
// At its deadline (its budget after it began) it stops, and says how
// far back it got; the results then link to the older matches. A
// phrase of common words that seldom meet, say, would otherwise walk
// every entry that holds them all, in the whole history. The first
// window is always looked through, so that a search on a busy machine
// still finds the newest matches.
type searchWalk struct {
	// budget is how long a search looks before it stops.
	budget time.Duration
	// firstWindow is how many entries the first window holds: the
	// newest ones.
	firstWindow int
}

// defaultWalk is the walk of every catalog: 40 ms answers within the
// search targets on a 5 GB history with a busy machine's margin.
var defaultWalk = searchWalk{budget: 40 * time.Millisecond, firstWindow: 4096}

// spanCandidates adds to *out the entries of shard with keys in [lo, hi)
// that match expr, newest first, until it holds maxCandidates; it
// reports whether there are more. Past the deadline it stops, and
// stopped is the key above which it looked through everything (there are
// more then).
func (c *Catalog) spanCandidates(ctx context.Context, st *store, shard int, expr string, lo, hi int64,
	files map[int64]*record, slots *[1024]uint8, deadline time.Time, out *[]candidate) (more bool, stopped int64, err error) {
	// The first window ends at the walk's firstWindow-th newest entry; the next
	// ones span keys, as many again as the last or more.
	var window int64
	for first := true; hi > lo; first = false {
		if !first && time.Now().After(deadline) {
			return true, hi, nil
		}
		wlo := lo
		if first {
			var k sql.NullInt64
			err := st.r.QueryRowContext(ctx, `SELECT rid FROM entries WHERE rid < ? AND rid >= ? ORDER BY rid DESC LIMIT 1 OFFSET ?`, hi, lo, c.walk.firstWindow).Scan(&k)
			switch {
			case err == nil && k.Int64 > lo:
				wlo = k.Int64
			case err != nil && !errors.Is(err, sql.ErrNoRows):
				return false, 0, c.checkStore(shard, err)
			}
			window = hi - wlo
		} else if hi-lo > window {
			wlo = hi - window
		}
		began := time.Now()
		wctx, cancel := ctx, context.CancelFunc(func() {})
		if !first {
			// A window cut short at the deadline still counts for the
			// keys it looked through: hi says how far it got.
			wctx, cancel = context.WithDeadline(ctx, deadline)
		}
		more, err := c.windowCandidates(wctx, st, shard, expr, wlo, &hi, files, slots, out)
		cancel()
		if err != nil && !first && wctx.Err() != nil && ctx.Err() == nil {
			return true, hi, nil
		}
		if more || err != nil {
			return more, 0, err
		}
		hi = wlo
		switch took := time.Since(began); {
		case took < 2*time.Millisecond:
			window *= 4
		case took < 8*time.Millisecond:
			window *= 2
		}
	}
	return false, 0, nil
}

// windowCandidates adds to *out the entries of shard with keys in [lo,
// *hi) that match expr, newest first, until it holds maxCandidates; it
// reports whether there are more. *hi goes down as keys are read, so that
// it bounds what is left.
func (c *Catalog) windowCandidates(ctx context.Context, st *store, shard int, expr string, lo int64, hi *int64,
	files map[int64]*record, slots *[1024]uint8, out *[]candidate) (bool, error) {
	// The keys come a chunk at a time, each chunk one row of text: a row
	// per key would cost more to step through than FTS5 to find.
	for {
		var list sql.NullString
		err := st.r.QueryRowContext(ctx, `SELECT group_concat(rowid) FROM (SELECT rowid FROM fts
			WHERE fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT ?)`, expr, lo, *hi, candidateChunk).Scan(&list)
		if err != nil {
			return false, c.checkStore(shard, err)
		}
		// group_concat keeps no order: the chunk is sorted here, newest
		// first.
		var chunk []int64
		for f := range strings.SplitSeq(list.String, ",") {
			if f == "" {
				continue
			}
			rid, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return false, fmt.Errorf("%w: a key of the index is %q", errCorrupt, f)
			}
			chunk = append(chunk, rid)
		}
		slices.Sort(chunk)
		slices.Reverse(chunk)
		for _, rid := range chunk {
			k := candidate{shard: shard, rid: rid, gid: -1}
			switch slots[k.rid>>10&0x3ff] {
			case slotNone:
				continue
			case slotSome:
				// Files searched and others share the key's bits: the row
				// says which.
				var fid int64
				if err := st.r.QueryRowContext(ctx, `SELECT fid FROM entries WHERE rid = ?`, k.rid).Scan(&fid); err != nil {
					return false, c.checkStore(shard, err)
				}
				if files[fid*shards+int64(shard)] == nil {
					continue
				}
			}
			if len(*out) == maxCandidates {
				return true, nil
			}
			*out = append(*out, k)
		}
		if len(chunk) < candidateChunk {
			return false, nil
		}
		*hi = chunk[len(chunk)-1]
	}
}

// maxSpans is the most files a search narrows its key ranges to: a
// filter that keeps a few sessions (a small project) is searched in their
// key ranges alone, not through every match of the others.
const maxSpans = 256

// spans returns the key ranges within [lo, hi) that a search of files
// looks through in shard, newest first: the whole range when files
// holds many of the shard's files (more than maxSpans, or a quarter of
// them), else the range of each file's keys, merged where they overlap.
func (c *Catalog) spans(ctx context.Context, st *store, shard int, files map[int64]*record, lo, hi int64) ([][2]int64, error) {
	whole := [][2]int64{{lo, hi}}
	var fids []int64
	total := 0
	c.mu.RLock()
	for _, row := range c.known {
		if row.Shard == shard {
			total++
			if files[row.gid()] != nil {
				fids = append(fids, row.FID)
			}
		}
	}
	c.mu.RUnlock()
	if len(fids) > maxSpans || len(fids)*4 >= total {
		return whole, nil
	}
	var out [][2]int64
	for _, fid := range fids {
		var first, last sql.NullInt64
		if err := st.r.QueryRowContext(ctx, `SELECT min(rid), max(rid) FROM entries WHERE fid = ?`, fid).Scan(&first, &last); err != nil {
			return nil, c.checkStore(shard, err)
		}
		if !first.Valid {
			continue
		}
		if a, b := max(first.Int64, lo), min(last.Int64+1, hi); a < b {
			out = append(out, [2]int64{a, b})
		}
	}
	// Merged, newest first.
	slices.SortFunc(out, func(a, b [2]int64) int { return cmp.Compare(b[1], a[1]) })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r[1] >= merged[n-1][0] {
			merged[n-1][0] = min(merged[n-1][0], r[0])
			continue
		}
		merged = append(merged, r)
	}
	return merged, nil
}

// candidateChunk is how many keys a query for candidates returns at once.
const candidateChunk = 1024

// The entry keys of a shard carry ten bits of their file's id (see
// keyBase): a file slot, for each value of those bits, says whether the
// shard's files with them are all searched, none, or some.
const (
	slotNone = iota
	slotAll
	slotSome
)

// fileSlots returns the file slots of shard for a search of files.
func (c *Catalog) fileSlots(shard int, files map[int64]*record) *[1024]uint8 {
	var searched, other [1024]bool
	c.mu.RLock()
	for _, row := range c.known {
		if row.Shard == shard {
			if files[row.gid()] != nil {
				searched[row.FID&0x3ff] = true
			} else {
				other[row.FID&0x3ff] = true
			}
		}
	}
	c.mu.RUnlock()
	var slots [1024]uint8
	for i := range slots {
		switch {
		case searched[i] && other[i]:
			slots[i] = slotSome
		case searched[i]:
			slots[i] = slotAll
		}
	}
	return &slots
}
