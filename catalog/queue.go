package catalog

import (
	"context"
	"sync"
)

// readQueue hands the readers of an Update the files to read, newest
// first, and bounds, per shard, the bytes of the files read and not yet
// handed to their shard's writer: what waits holds whole sessions.
//
// The bound is per shard so that one writer's commit, which takes a
// second or more while FTS5 indexes its batch, never holds up the other:
// with one bound for both, the files of the committing shard filled it,
// the readers waited, and the other writer had nothing to do (a trace of
// a first start over a 1.4 GB history: readers waited half their time,
// and reading used one and a half of the two cores). A reader takes the
// newest file among the shards with room, so files are read newest first
// as far as the writers keep up.
type readQueue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	units [shards][]readUnit // newest first
	inUse [shards]int64
	max   int64
	done  bool
}

// readUnit is what one reader reads at once: a file, or in a catalog that
// prepares sessions a family of them (see readFamily). It takes n bytes of
// its shard's bound (that of its first file), given back once written.
type readUnit struct {
	recs  []*record
	n     int64
	shard int
	mtime int64
}

func newReadQueue(ctx context.Context, max int64, units []readUnit) *readQueue {
	q := &readQueue{max: max}
	q.cond = sync.NewCond(&q.mu)
	for _, u := range units {
		q.units[u.shard] = append(q.units[u.shard], u)
	}
	context.AfterFunc(ctx, func() {
		q.mu.Lock()
		q.done = true
		q.mu.Unlock()
		q.cond.Broadcast()
	})
	return q
}

// next returns the next unit to read, once its shard has room for it (one
// unit always fits), or false when none is left or ctx is done.
func (q *readQueue) next() (readUnit, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.done {
			return readUnit{}, false
		}
		best, left := -1, false
		for s := range shards {
			if len(q.units[s]) == 0 {
				continue
			}
			left = true
			u := q.units[s][0]
			if q.inUse[s] > 0 && q.inUse[s]+u.n > q.max {
				continue
			}
			if best < 0 || u.mtime > q.units[best][0].mtime {
				best = s
			}
		}
		if !left {
			return readUnit{}, false
		}
		if best >= 0 {
			u := q.units[best][0]
			q.units[best] = q.units[best][1:]
			q.inUse[best] += u.n
			return u, true
		}
		q.cond.Wait()
	}
}

// give gives back n bytes of shard's bound.
func (q *readQueue) give(shard int, n int64) {
	if n == 0 {
		return
	}
	q.mu.Lock()
	q.inUse[shard] -= n
	q.mu.Unlock()
	q.cond.Broadcast()
}
