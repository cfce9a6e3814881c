package catalog

import "sync"

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
