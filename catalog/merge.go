package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// FTS5 writes what it indexes as segments, and merges them as it goes:
// with its automerge setting of 4, whenever four segments of a level
// exist. Over a whole history that merges every posting three or four
// times, and merging was a fifth of the CPU time of a first start over
// the generated 1.4 GB history. A bulk read (an Update with bulkBytes or
// more to read: a first start, or a cache rebuilt) turns automatic merging
// off, and crisismerge up, so that only 64 segments of one level are
// merged, at once; the segments are merged after the read instead (Tidy),
// once, a step at a time and giving way to searches.
//
// Measured on the sessions of one shard of that history (670 MB of
// files, 260 MB of index text, replayed into a database as the writer
// does), CPU seconds: indexing with automerge 4, 16.4; automerge 16
// (crisismerge 64), 14.1; automerge 0 (crisismerge 64), 11.2 to 11.8, and
// the merging after it 3.5. Searches of that index (300 phrases of one to
// three words, the newest 1,024 matches) took a mean of 4.2 ms with
// automerge 4, 6.0 to 6.4 ms unmerged, 3.0 to 3.4 ms once merged.
const (
	bulkBytes       = 256 << 20
	autoMerge       = 4
	crisisMerge     = 16
	bulkCrisisMerge = 64
	// mergePages is how much a step of Tidy writes, in pages of the
	// index (pgsz): about 1.6 MB, some tens of milliseconds.
	mergePages = 100
)

// execer is a transaction or a database.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// setMerging sets how FTS5 merges the index as it is written: not at all
// but in a crisis during a bulk read, else as usual.
func setMerging(ctx context.Context, db execer, bulk bool) error {
	am, cm := autoMerge, crisisMerge
	if bulk {
		am, cm = 0, bulkCrisisMerge
	}
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO fts(fts, rank) VALUES('automerge', %d)`, am),
		fmt.Sprintf(`INSERT INTO fts(fts, rank) VALUES('crisismerge', %d)`, cm),
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// endBulk sets FTS5's merging as usual again if a bulk read left it off:
// a process that stopped during one.
func endBulk(ctx context.Context, tx *sql.Tx) error {
	var am int
	err := tx.QueryRowContext(ctx, `SELECT v FROM fts_config WHERE k = 'automerge'`).Scan(&am)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil // never set: FTS5's default
	case err != nil:
		return err
	case am == 0:
		return setMerging(ctx, tx, false)
	}
	return nil
}

// mergeStep merges some of the index's segments, if any level has
// automerge of them or more, and reports whether it did.
func (st *store) mergeStep(ctx context.Context) (bool, error) {
	conn, err := st.w.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	var before, after int64
	if err := conn.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
		return false, err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf(`INSERT INTO fts(fts, rank) VALUES('merge', %d)`, mergePages)); err != nil {
		return false, err
	}
	if err := conn.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
		return false, err
	}
	// The command changes two rows or more when it merged anything.
	return after-before >= 2, nil
}

// Tidy merges the segments of the search index that a bulk read left
// unmerged (see bulkBytes), a step at a time, each step after the
// searches under way: searches find everything before, and take less
// time after. It returns once nothing is left to merge, or ctx is done.
func (c *Catalog) Tidy(ctx context.Context) error {
	var errs [shards]error
	var wg sync.WaitGroup
	for i := range shards {
		wg.Go(func() {
			st, err := c.store(i)
			if err != nil {
				errs[i] = err
				return
			}
			for ctx.Err() == nil {
				c.searches.wait(ctx)
				more, err := st.mergeStep(ctx)
				if err != nil {
					errs[i] = c.checkStore(i, err)
					return
				}
				if !more {
					return
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs[:]...)
}
