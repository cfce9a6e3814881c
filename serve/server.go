package serve

import (
	"bytes"
	"container/list"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/site"
)

// server answers the routes of Run.
type server struct {
	cat      *catalog.Catalog
	opt      Options
	notice   string
	loopback bool
	// stopping is closed when the server shuts down, ending event streams.
	stopping chan struct{}

	logMu   sync.Mutex
	lastLog string

	pages *pageCache

	indexMu  sync.Mutex
	indexGen uint64
	index    []byte

	followJS []byte
}

func newServer(cat *catalog.Catalog, opt Options, notice string, loopback bool) *server {
	js, err := fs.ReadFile(piexport.Assets(), "follow.js")
	if err != nil {
		// The file is embedded in the binary: missing, the build is broken.
		panic(err)
	}
	return &server{
		cat: cat, opt: opt, notice: notice, loopback: loopback,
		stopping: make(chan struct{}),
		pages:    newPageCache(64 << 20),
		followJS: js,
	}
}

// logf writes a line to the log, once for a run of the same line.
func (s *server) logf(format string, args ...any) {
	if s.opt.Log == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	s.logMu.Lock()
	defer s.logMu.Unlock()
	if line == s.lastLog {
		return
	}
	s.lastLog = line
	fmt.Fprintln(s.opt.Log, line)
}

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET /search", s.serveSearch)
	mux.HandleFunc("GET /s/{id}", s.servePage)
	mux.HandleFunc("GET /s/{id}/events", s.serveEvents)
	mux.HandleFunc("GET /assets/follow.js", s.serveFollowJS)
	return s.guard(mux)
}

// guard answers what no route should see: requests for another host name
// (a DNS rebinding attack makes a browser send them to a loopback server),
// and paths that are not in canonical form (dot segments, encoded
// characters, doubled or back slashes), which never name a page of ours.
// Every answer gets the headers that keep a browser from sniffing types,
// sending referrers or framing the page.
func (s *server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if s.loopback && !loopbackHost(r.Host) {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		p := r.URL.Path
		if r.URL.RawPath != "" || !strings.HasPrefix(p, "/") || (p != "/" && path.Clean(p) != p) ||
			strings.ContainsAny(p, "\\\x00") || strings.Contains(p, "..") {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header names this machine's
// loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validID reports whether id has the form of a catalog id; anything else
// is not looked up at all.
func validID(id string) bool {
	if len(id) < 8 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func (s *server) indexOptions() site.IndexOptions {
	return site.IndexOptions{Theme: s.opt.Theme, Home: s.opt.Home, Generator: s.opt.Generator,
		Search: true, SearchURL: "search", Notice: s.notice}
}

// item is how the index and the search page show a catalogued session.
func item(i catalog.Info) site.IndexItem {
	it := site.IndexItem{URL: "s/" + i.ID, Path: i.Path, Cwd: i.Cwd, SessionID: i.SessionID, Summary: i.Summary, Err: i.Err}
	if i.Err != nil {
		it.URL = ""
	}
	return it
}

func (s *server) serveIndex(w http.ResponseWriter, r *http.Request) {
	// The page is made again only when the catalog changed.
	gen := s.cat.Generation()
	s.indexMu.Lock()
	page := s.index
	if page == nil || s.indexGen != gen {
		page = nil
	}
	s.indexMu.Unlock()
	if page == nil {
		infos := s.cat.List()
		items := make([]site.IndexItem, len(infos))
		for k, i := range infos {
			items[k] = item(i)
		}
		var buf bytes.Buffer
		if err := site.WriteIndex(&buf, items, s.indexOptions()); err != nil {
			s.fail(w, err)
			return
		}
		page = buf.Bytes()
		s.indexMu.Lock()
		s.index, s.indexGen = page, gen
		s.indexMu.Unlock()
	}
	writeHTML(w, r, page)
}

// maxQuery bounds a search's length; longer ones are cut.
const maxQuery = 200

// maxHits bounds the entries a search page lists.
const maxHits = 200

func (s *server) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q) > maxQuery {
		q = strings.ToValidUTF8(q[:maxQuery], "")
	}
	res := site.SearchResults{Query: q}
	if q != "" {
		found := s.cat.Search(q, maxHits)
		res.Total, res.Sessions = found.Total, found.Sessions
		for _, h := range found.Hits {
			i, ok := s.cat.Info(h.Key)
			if !ok {
				continue
			}
			res.Hits = append(res.Hits, site.SearchHit{Session: item(i), EntryID: h.EntryID, Role: h.Role, Snippet: h.Snippet, Marks: h.Marks})
		}
	}
	var buf bytes.Buffer
	if err := site.WriteSearchResults(&buf, res, s.indexOptions()); err != nil {
		s.fail(w, err)
		return
	}
	writeHTML(w, r, buf.Bytes())
}

func (s *server) servePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		http.NotFound(w, r)
		return
	}
	if _, ok := s.cat.Info(id); !ok {
		http.NotFound(w, r)
		return
	}
	v, err := s.cat.Stat(id)
	if err != nil {
		// Deleted since it was catalogued.
		http.NotFound(w, r)
		return
	}
	body, version, err := s.pages.get(id, v, func() ([]byte, string, error) {
		sess, info, err := s.cat.Load(id)
		if err != nil {
			return nil, "", err
		}
		var buf bytes.Buffer
		err = page.WriteHTML(&buf, sess, s.pageOptions(info.Version()))
		return buf.Bytes(), info.Version(), err
	})
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("ETag", strconv.Quote(version))
	writeHTML(w, r, body)
}

// pageOptions are the options a served page is rendered with.
func (s *server) pageOptions(version string) page.Options {
	return page.Options{Theme: s.opt.Theme, Home: s.opt.Home, Generator: s.opt.Generator, FollowURL: followURL(version)}
}

// followURL is the script a served page loads to follow its file; version
// is the state of the file the page shows.
func followURL(version string) string {
	return "/assets/follow.js?v=" + url.QueryEscape(version)
}

func (s *server) serveFollowJS(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.Write(s.followJS)
}

// writeHTML sends a whole page; pages are always checked again, since the
// file behind them can change at any time.
func writeHTML(w http.ResponseWriter, r *http.Request, page []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
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

// fail answers 500 with err, and logs it.
func (s *server) fail(w http.ResponseWriter, err error) {
	s.logf("error: %v", err)
	if errors.Is(err, catalog.ErrNotFound) {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	http.Error(w, err.Error(), http.StatusInternalServerError)
}

// pageCache keeps rendered pages by session id and file version, the
// least recently used dropped first beyond a total size. Concurrent
// requests for a page not yet rendered wait for one rendering.
type pageCache struct {
	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List // of *cachedPage, most recent first
	byID     map[string]*list.Element
	flights  map[string]*pageFlight
}

type cachedPage struct {
	id, version string
	body        []byte
}

type pageFlight struct {
	done    chan struct{}
	body    []byte
	version string
	err     error
}

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{maxBytes: maxBytes, order: list.New(), byID: map[string]*list.Element{}, flights: map[string]*pageFlight{}}
}

// get returns the page of id at version v, rendering it with render when
// it is not kept. render returns the version it actually rendered, which
// is newer than v if the file changed meanwhile.
func (c *pageCache) get(id, v string, render func() ([]byte, string, error)) ([]byte, string, error) {
	c.mu.Lock()
	if el := c.byID[id]; el != nil && el.Value.(*cachedPage).version == v {
		c.order.MoveToFront(el)
		p := el.Value.(*cachedPage)
		c.mu.Unlock()
		return p.body, p.version, nil
	}
	key := id + "@" + v
	if f := c.flights[key]; f != nil {
		c.mu.Unlock()
		<-f.done
		return f.body, f.version, f.err
	}
	f := &pageFlight{done: make(chan struct{})}
	c.flights[key] = f
	c.mu.Unlock()

	f.body, f.version, f.err = render()

	c.mu.Lock()
	delete(c.flights, key)
	if f.err == nil {
		if el := c.byID[id]; el != nil {
			c.drop(el)
		}
		c.byID[id] = c.order.PushFront(&cachedPage{id: id, version: f.version, body: f.body})
		c.bytes += len(f.body)
		for c.order.Len() > 1 && c.bytes > c.maxBytes {
			c.drop(c.order.Back())
		}
	}
	c.mu.Unlock()
	close(f.done)
	return f.body, f.version, f.err
}

func (c *pageCache) drop(el *list.Element) {
	p := el.Value.(*cachedPage)
	c.order.Remove(el)
	delete(c.byID, p.id)
	c.bytes -= len(p.body)
}

// serveEvents streams Server-Sent Events to a page: a "change" event when
// the session's file is no longer in the state the page shows (the version
// given as ?v=, or the last event's id on a reconnection), and "gone" when
// the file is deleted. The file's size and time are polled: cheap, and the
// same on every system.
func (s *server) serveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		http.NotFound(w, r)
		return
	}
	if _, ok := s.cat.Info(id); !ok {
		http.NotFound(w, r)
		return
	}
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("v")
	}
	if last == "" {
		v, err := s.cat.Stat(id)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		last = v
	}
	rc := http.NewResponseController(w)
	// The stream lasts as long as the page is open: no write deadline,
	// but a heartbeat that finds closed connections.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, "retry: 2000\n\n"); err != nil {
		return
	}
	rc.Flush()

	poll := time.NewTicker(pollEvery)
	defer poll.Stop()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	for {
		var msg string
		select {
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		case <-beat.C:
			msg = ": ping\n\n"
		case <-poll.C:
			v, err := s.cat.Stat(id)
			switch {
			case err != nil:
				io.WriteString(w, "event: gone\ndata: \n\n")
				rc.Flush()
				return
			case v == last:
				continue
			}
			last = v
			msg = "id: " + v + "\nevent: change\ndata: " + v + "\n\n"
		}
		if _, err := io.WriteString(w, msg); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// The event stream polls the file this often, and sends a comment this
// often so that a closed connection is noticed.
var (
	pollEvery      = 500 * time.Millisecond
	heartbeatEvery = 15 * time.Second
)
