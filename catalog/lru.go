package catalog

import (
	"container/list"
	"sync"

	"github.com/piexport/piexport/session"
)

// lru keeps the most recently used whole sessions, bounded by count and by
// the summed size of their files: a session in memory takes a few times its
// file's size, and one file can be hundreds of megabytes.
type lru struct {
	mu       sync.Mutex
	max      int
	maxBytes int64
	bytes    int64
	order    *list.List // of *lruItem, most recent first
	byID     map[string]*list.Element
}

type lruItem struct {
	id, version string
	info        Info
	s           *session.Session
}

func newLRU(max int, maxBytes int64) *lru {
	return &lru{max: max, maxBytes: maxBytes, order: list.New(), byID: map[string]*list.Element{}}
}

// get returns the session id at version v, if it is kept.
func (l *lru) get(id, v string) (*session.Session, Info, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	el := l.byID[id]
	if el == nil {
		return nil, Info{}, false
	}
	it := el.Value.(*lruItem)
	if it.version != v {
		return nil, Info{}, false
	}
	l.order.MoveToFront(el)
	return it.s, it.info, true
}

// put keeps s, the session id at version v, described by info.
func (l *lru) put(id, v string, info Info, s *session.Session) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el := l.byID[id]; el != nil {
		l.drop(el)
	}
	l.byID[id] = l.order.PushFront(&lruItem{id: id, version: v, info: info, s: s})
	l.bytes += info.Size
	for l.order.Len() > 1 && (l.order.Len() > l.max || l.bytes > l.maxBytes) {
		l.drop(l.order.Back())
	}
}

func (l *lru) remove(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if el := l.byID[id]; el != nil {
		l.drop(el)
	}
}

func (l *lru) drop(el *list.Element) {
	it := el.Value.(*lruItem)
	l.order.Remove(el)
	delete(l.byID, it.id)
	l.bytes -= it.info.Size
}

// len returns how many sessions are kept.
func (l *lru) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.order.Len()
}
