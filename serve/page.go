package serve

import (
	"bytes"
	"container/list"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/page"
)

// servePage answers a session's page. A page is made once per state of its
// file: it is kept in the page cache on disk (or, without one, in memory)
// under a key of the file's content hash and the options, so a second
// view, or a view after a restart, reads it back. A first view is sent
// while it is rendered: the page is written end of path first, so the
// browser draws the leaf's last message before the rest arrives.
func (s *server) servePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		s.notFound(w, r)
		return
	}
	info, err := s.cat.Current(r.Context(), id)
	if err == nil {
		err = info.Err
	}
	if err != nil {
		s.answerError(w, r, err)
		return
	}
	links := s.links(id)
	key := s.pageKey(info.Hash, links)
	h := w.Header()
	h.Set("ETag", etag(info.Hash, key))
	if r.Header.Get("If-None-Match") == h.Get("ETag") {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if s.pages == nil {
		s.serveFromMemory(w, r, id, key, links)
		return
	}
	if s.sendCached(w, r, key) {
		return
	}
	// Views of a page not yet made wait for the one making it, then read
	// it from the cache. The page may not be there even so: its session
	// changed meanwhile (it was kept under its new key), the cache could
	// not keep it, or making it failed. Such a view makes the page
	// itself, so that it never answers with nothing.
	for waited := 0; ; waited++ {
		fl, first := s.flights.start(key)
		if first {
			// Ended however rendering ends: a panic, or a reader gone
			// mid-page, must not leave the views waiting for it to
			// wait for ever.
			defer s.flights.end(key, fl)
			fl.err = s.render(w, r, id, key, links)
			return
		}
		<-fl.done
		if s.sendCached(w, r, key) {
			return
		}
		if waited == 1 {
			s.render(w, r, id, key, links)
			return
		}
	}
}

// etag names a page's version: the content hash of its session (the
// version its follow script watches) and a part of its key, which also
// changes with the options.
func etag(hash, key string) string {
	return strconv.Quote(hash + "." + key[:12])
}

// pageKey is the key of a session's page in the page cache: its content
// hash, and all else the page shows: the options, and its links to other
// sessions.
func (s *server) pageKey(hash string, links pageLinks) string {
	o := s.opt
	mask := ""
	if o.Mask != nil {
		mask = o.Mask.Key()
	}
	// page.Version: a page is made again by a build whose pages differ,
	// and only then. The mask's key: a page masked by --redact is never
	// served unmasked, nor the other way round.
	parts := []string{"serve", page.Version(), mask, o.Theme, o.Home, o.Generator, hash, links.parent.URL, links.parent.Title}
	// The page carries its sub-agents' transcripts: it is made again
	// when one of them changes.
	parts = append(parts, links.agents.states...)
	for _, r := range links.related {
		parts = append(parts, r.Label)
		for _, l := range r.Links {
			parts = append(parts, l.Title, l.URL)
		}
	}
	return catalog.PageKey(parts...)
}

// pageLinks are a page's links to the sessions it has to do with: the
// one its header names as the one it came from, and the others.
type pageLinks struct {
	parent  page.Link
	related []page.Related
	// agents are the sub-agents whose transcripts the page carries.
	agents subAgentTree
}

// links returns the links of a session's page.
func (s *server) links(id string) pageLinks {
	byID := s.byID()
	related := append(pageRelated(byID[id], byID), s.shared(id)...)
	return pageLinks{parent: parentLink(byID[id], byID), related: related, agents: subAgentsOf(id, byID)}
}

// sendCached sends the page stored under key, if there is one. It reports
// whether the page was sent (or failed while being sent).
func (s *server) sendCached(w http.ResponseWriter, r *http.Request, key string) bool {
	p, err := s.pages.Open(key)
	if err != nil {
		return false
	}
	defer p.Close()
	setHTML(w.Header())
	w.Header().Set("Content-Length", strconv.FormatInt(p.Size, 10))
	if r.Method == http.MethodHead {
		return true
	}
	n, err := p.WriteTo(w)
	if err != nil && n == 0 && !isClientGone(r) {
		// Found damaged before anything was sent: it was removed, and the
		// page is made anew.
		w.Header().Del("Content-Length")
		s.logf("warning: %v", err)
		return false
	}
	if err != nil {
		// Part of the page went out: end the response as broken rather
		// than let it pass for a whole page.
		panic(http.ErrAbortHandler)
	}
	return true
}

func isClientGone(r *http.Request) bool { return r.Context().Err() != nil }

// render loads the session, sends its page as it is written, and stores
// it under key. A reader who leaves early does not stop it: the page is
// finished for the next one.
func (s *server) render(w http.ResponseWriter, r *http.Request, id, key string, links pageLinks) error {
	sess, info, err := s.cat.Load(id)
	if err != nil {
		s.answerError(w, r, err)
		return err
	}
	if k := s.pageKey(info.Hash, links); k != key {
		// The file changed since the request began: this is its page now.
		key = k
		w.Header().Set("ETag", etag(info.Hash, key))
	}
	opt := s.pageOptions(info.Hash, links)
	opt.SubAgents = links.agents.load(s, id)
	pg, err := page.NewPage(sess, opt)
	if err != nil {
		s.answerError(w, r, err)
		return err
	}
	setHTML(w.Header())
	out := &pageOut{w: w, rc: http.NewResponseController(w), head: r.Method == http.MethodHead}
	// The reader gets the page first; the cache gets a copy if it can
	// take one. A cache that cannot (a full disk) costs the page its
	// copy, never the reader the page.
	kept := &pageCopy{}
	kept.w, kept.err = s.pages.Create(key)
	err = pg.Write(teeWriter{out, kept})
	s.logWarnings(pg)
	if err != nil {
		kept.abort()
		err = fmt.Errorf("%s: %w", info.Path, err)
		if out.n == 0 {
			s.answerError(w, r, err)
			return err
		}
		s.logf("error: %v", err)
		panic(http.ErrAbortHandler)
	}
	if err := kept.commit(); err != nil {
		s.cacheFailed(err)
	} else {
		s.cacheWarned.Store(false)
	}
	return nil
}

// logWarnings logs what went wrong while pg was made that did not stop
// it: entries shown unformatted. A page is made once per state of its
// session, so each is said once.
func (s *server) logWarnings(pg *page.Page) {
	for _, w := range pg.Warnings() {
		s.logf("warning: %s", w)
	}
}

// cacheFailed says once that the page cache cannot keep pages, until one
// is kept again: pages are still served, and made anew at each view.
func (s *server) cacheFailed(err error) {
	if s.cacheWarned.CompareAndSwap(false, true) {
		s.logf("warning: %v; pages are served without being kept until it can", err)
	}
}

// pageCopy is a page's copy for the cache, given up at the first error.
type pageCopy struct {
	w   *catalog.PageWriter
	err error
}

func (c *pageCopy) Write(b []byte) (int, error) {
	if c.err == nil {
		if _, c.err = c.w.Write(b); c.err != nil {
			c.w.Abort()
		}
	}
	return len(b), nil
}

func (c *pageCopy) abort() {
	if c.err == nil {
		c.w.Abort()
	}
}

// commit stores the copy, or says why there is none.
func (c *pageCopy) commit() error {
	if c.err != nil {
		return fmt.Errorf("the page cache: %w", c.err)
	}
	return c.w.Commit()
}

// teeWriter writes to the reader, then to the cache's copy, which never
// fails a write.
type teeWriter struct {
	out  io.Writer
	copy *pageCopy
}

func (t teeWriter) Write(b []byte) (int, error) {
	n, err := t.out.Write(b)
	t.copy.Write(b[:n])
	return n, err
}

// pageOut sends a page as it is written, flushing each piece the renderer
// hands over (its buffer is 256 KB), so the browser starts drawing early.
// Once the reader has gone it only counts: the page is still finished for
// the cache.
type pageOut struct {
	w    io.Writer
	rc   *http.ResponseController
	head bool
	gone bool
	n    int64
}

func (o *pageOut) Write(b []byte) (int, error) {
	o.n += int64(len(b))
	if o.gone || o.head {
		return len(b), nil
	}
	if _, err := o.w.Write(b); err != nil {
		o.gone = true
		return len(b), nil
	}
	if o.rc.Flush() != nil {
		o.gone = true
	}
	return len(b), nil
}

// serveFromMemory answers a page without a page cache on disk: rendered
// pages are kept in memory, the least recently used dropped first.
func (s *server) serveFromMemory(w http.ResponseWriter, r *http.Request, id, key string, links pageLinks) {
	body, err := s.memPages.get(key, func() ([]byte, error) {
		sess, info, err := s.cat.Load(id)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		opt := s.pageOptions(info.Hash, links)
		opt.SubAgents = links.agents.load(s, id)
		pg, err := page.NewPage(sess, opt)
		if err != nil {
			return nil, err
		}
		err = pg.Write(&buf)
		s.logWarnings(pg)
		return buf.Bytes(), err
	})
	if err != nil {
		s.answerError(w, r, err)
		return
	}
	writeHTML(w, r, body)
}

// pageOptions are the options a served page is rendered with; version is
// the content hash of the session it shows.
func (s *server) pageOptions(version string, links pageLinks) page.Options {
	return page.Options{Theme: s.opt.Theme, Home: s.opt.Home, Generator: s.opt.Generator,
		FollowURL: followURL(version), ParentURL: links.parent.URL, ParentName: links.parent.Title, Related: links.related, IndexURL: "/"}
}

// followURL is the script a served page loads to follow its file; version
// is the state of the file the page shows.
func followURL(version string) string {
	return "/assets/follow.js?v=" + url.QueryEscape(version)
}

// flights are renderings under way, by page key.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
	// joined, when set, is told of each caller that found the flight
	// for key under way and will wait for it: a test's way to know that
	// views are waiting.
	joined func(key string)
}

type flight struct {
	done chan struct{}
	err  error
}

// start returns the flight for key, and whether the caller is the first
// and must do the work.
func (f *flights) start(key string) (*flight, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[string]*flight{}
	}
	if fl := f.m[key]; fl != nil {
		if f.joined != nil {
			f.joined(key)
		}
		return fl, false
	}
	fl := &flight{done: make(chan struct{})}
	f.m[key] = fl
	return fl, true
}

func (f *flights) end(key string, fl *flight) {
	f.mu.Lock()
	delete(f.m, key)
	f.mu.Unlock()
	close(fl.done)
}

// memPages keeps rendered pages in memory by key, the least recently used
// dropped first beyond a total size. Concurrent requests for a page not
// yet rendered wait for one rendering.
type memPages struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List // of *memPage, most recent first
	byKey    map[string]*list.Element
	flights  flights
}

type memPage struct {
	key  string
	body []byte
}

func newMemPages(maxBytes int) *memPages {
	return &memPages{maxBytes: maxBytes, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *memPages) get(key string, render func() ([]byte, error)) ([]byte, error) {
	for {
		c.mu.Lock()
		if el := c.byKey[key]; el != nil {
			c.order.MoveToFront(el)
			c.mu.Unlock()
			return el.Value.(*memPage).body, nil
		}
		c.mu.Unlock()
		fl, first := c.flights.start(key)
		if !first {
			<-fl.done
			if fl.err != nil {
				return nil, fl.err
			}
			continue
		}
		// Ended however rendering ends, a panic included.
		defer c.flights.end(key, fl)
		body, err := render()
		if err == nil {
			c.put(key, body)
		}
		fl.err = err
		return body, err
	}
}

func (c *memPages) put(key string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKey[key] = c.order.PushFront(&memPage{key: key, body: body})
	c.bytes += len(body)
	for c.order.Len() > 1 && c.bytes > c.maxBytes {
		el := c.order.Back()
		p := el.Value.(*memPage)
		c.order.Remove(el)
		delete(c.byKey, p.key)
		c.bytes -= len(p.body)
	}
}

func setHTML(h http.Header) {
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages are always checked again: the file behind them can change at
	// any time.
	h.Set("Cache-Control", "no-cache")
}

// writeHTML sends a whole page.
func writeHTML(w http.ResponseWriter, r *http.Request, page []byte) {
	h := w.Header()
	setHTML(h)
	if etag := h.Get("ETag"); etag != "" && r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(page)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(page)
}
