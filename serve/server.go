package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/recovered"
	"github.com/piexport/piexport/site"
	"github.com/piexport/piexport/teamcatalog"
)

// server answers the routes of Run.
type server struct {
	cat    Source
	opt    Options
	notice string
	hosts  *hostGuard
	// stopping is closed when the server shuts down, ending event streams.
	stopping chan struct{}

	log *logger

	// pages is the page cache on disk; nil without a cache directory,
	// when memPages keeps pages instead.
	pages    *catalog.Pages
	memPages *memPages
	flights  flights

	indexMu  sync.Mutex
	indexGen uint64
	indexAt  time.Time
	index    []byte

	// sessions is s.list() by id as of the catalog's generation
	// sessionsGen, for the links of a page: listing (and, when the server
	// masks, masking) every session for each view would cost as much as
	// the history is long.
	sessionsMu  sync.Mutex
	sessionsGen uint64
	sessions    map[string]catalog.Info

	followJS []byte

	// cacheWarned says the page cache's failure to keep pages was
	// logged (see cacheFailed).
	cacheWarned atomic.Bool
}

func newServer(cat Source, pages *catalog.Pages, opt Options, log *logger, notice string) *server {
	js, err := fs.ReadFile(piexport.Assets(), "follow.js")
	if err != nil {
		// The file is embedded in the binary: missing, the build is broken.
		panic(err)
	}
	s := &server{
		cat: cat, opt: opt, log: log, notice: notice, hosts: newHostGuard(opt.AllowHosts),
		stopping: make(chan struct{}),
		pages:    pages,
		followJS: js,
	}
	if pages == nil {
		s.memPages = newMemPages(64 << 20)
	}
	return s
}

// logf writes a line to the log (see logger).
func (s *server) logf(format string, args ...any) { s.log.printf(format, args...) }

func (s *server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.serveIndex)
	mux.HandleFunc("GET /search", s.serveSearch)
	mux.HandleFunc("GET /s/{id}", s.servePage)
	mux.HandleFunc("GET /s/{id}/events", s.serveEvents)
	mux.HandleFunc("GET /assets/follow.js", s.serveFollowJS)
	mux.HandleFunc("GET /", s.notFound)
	return s.recovering(s.guard(mux))
}

// recovering answers a request whose handler panicked as one that
// failed (see answerError), when nothing was sent yet, and logs it:
// net/http would only drop the connection and print a stack trace. A
// response under way is cut off, so that a part of a page does not pass
// for a whole one.
func (s *server) recovering(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &sentWriter{ResponseWriter: w}
		defer func() {
			x := recover()
			if x == nil {
				return
			}
			if x == http.ErrAbortHandler {
				panic(x)
			}
			err := fmt.Errorf("%s %s: %s", r.Method, r.URL.Path, recovered.Describe(x))
			if sw.sent {
				s.logf("error: %v", err)
				panic(http.ErrAbortHandler)
			}
			s.answerError(sw, r, err)
		}()
		next.ServeHTTP(sw, r)
	})
}

// sentWriter notes whether a response has begun. Unwrap lets
// http.ResponseController reach the connection beneath it.
type sentWriter struct {
	http.ResponseWriter
	sent bool
}

func (w *sentWriter) WriteHeader(code int) {
	w.sent = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *sentWriter) Write(b []byte) (int, error) {
	w.sent = true
	return w.ResponseWriter.Write(b)
}

func (w *sentWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// guard answers what no route should see: requests for a host name the
// user did not mean (a DNS rebinding attack makes a browser send them to
// this server; see hostGuard), whatever address the server listens on,
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
		if !s.hosts.allowed(r.Host) {
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		p := r.URL.Path
		if r.URL.RawPath != "" || !strings.HasPrefix(p, "/") || (p != "/" && path.Clean(p) != p) ||
			strings.ContainsAny(p, "\\\x00") || strings.Contains(p, "..") {
			s.notFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
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

// list is the catalog's list of sessions as the server shows them: their
// paths masked, when it masks (see Options.PrepareText).
func (s *server) list() []catalog.Info {
	list := s.cat.List()
	for k := range list {
		list[k] = s.shown(list[k])
	}
	return list
}

// byID is list by id, made again only when the catalog changed. The map
// is shared: it must not be changed.
func (s *server) byID() map[string]catalog.Info {
	gen := s.cat.Generation()
	s.sessionsMu.Lock()
	defer s.sessionsMu.Unlock()
	if s.sessions == nil || s.sessionsGen != gen {
		list := s.list()
		s.sessions = make(map[string]catalog.Info, len(list))
		for _, i := range list {
			s.sessions[i.ID] = i
		}
		s.sessionsGen = gen
	}
	return s.sessions
}

// info is what the catalog knows of one session, as the server shows it.
func (s *server) info(id string) (catalog.Info, bool) {
	i, ok := s.cat.Info(id)
	return s.shown(i), ok
}

// shown masks what i says of its file, when the server masks.
func (s *server) shown(i catalog.Info) catalog.Info {
	if m := s.opt.Mask; m != nil {
		i.Path = m.Text(i.Path)
		i.ParentSession = m.Text(i.ParentSession)
	}
	return i
}

// item is how the index and the search page show a catalogued session.
func item(i catalog.Info) site.IndexItem {
	it := site.IndexItem{URL: "s/" + i.ID, Path: i.Path, Cwd: i.Cwd, SessionID: i.SessionID, Summary: i.Summary, Err: i.Err}
	if i.Err != nil {
		it.URL = ""
	}
	if !i.Indexed {
		// Listed before it is read: by its file name, for now.
		it.Summary.Title = filepath.Base(i.Path)
		it.Summary.End = i.ModTime
	}
	return it
}

// indexEvery bounds how often the index page is made again while the
// catalog is being read and changes with every file.
const indexEvery = time.Second

func (s *server) serveIndex(w http.ResponseWriter, r *http.Request) {
	// The page is made again only when the catalog changed.
	gen := s.cat.Generation()
	s.indexMu.Lock()
	page := s.index
	if page == nil || s.indexGen != gen && time.Since(s.indexAt) >= indexEvery {
		page = nil
	}
	s.indexMu.Unlock()
	if page == nil {
		list := s.list()
		byID := make(map[string]catalog.Info, len(list))
		for _, i := range list {
			byID[i.ID] = i
		}
		var items []site.IndexItem
		for _, i := range list {
			// Sub-agent transcripts are not sessions of their own: they
			// are listed under their session. One that cannot be read is
			// listed with the others that cannot.
			if i.Parent == "" || i.Err != nil {
				it := item(i)
				it.Related = siteRelated(i, byID, "s/")
				items = append(items, it)
			}
		}
		opt := s.indexOptions()
		_, opt.SubAgents, _ = catalog.Counted(list)
		// The usage report is one query over the catalog's usage rows.
		if records, err := s.cat.Usage(r.Context(), ""); err != nil {
			s.logf("warning: the usage report: %v", err)
		} else {
			opt.Usage = records
		}
		if p := s.cat.Progress(); p.Running {
			opt.Reading = reading(p)
		}
		var buf bytes.Buffer
		if err := site.WriteIndex(&buf, items, opt); err != nil {
			s.answerError(w, r, err)
			return
		}
		page = buf.Bytes()
		s.indexMu.Lock()
		s.index, s.indexGen, s.indexAt = page, gen, time.Now()
		s.indexMu.Unlock()
	}
	writeHTML(w, r, page)
}

// maxQuery bounds a search's length; longer ones are cut.
const maxQuery = 200

// maxHits bounds the entries a search page lists; ?page=N shows the
// next ones.
const maxHits = 50

func (s *server) serveSearch(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if len(q) > maxQuery {
		q = strings.ToValidUTF8(q[:maxQuery], "")
	}
	// Ranking looks at the newest thousand matches (catalog): pages
	// past them are empty.
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = min(max(page, 1), 1000)
	res := site.SearchResults{Query: q, PageSize: maxHits, Offset: (page - 1) * maxHits}
	opt := s.indexOptions()
	if q != "" {
		found, err := s.cat.SearchPage(r.Context(), q, res.Offset, maxHits)
		if unavailable(err) {
			s.answerError(w, r, err)
			return
		}
		if err != nil && r.Context().Err() == nil {
			s.logf("warning: search %q: %v", q, err)
		}
		if why := incomplete(err); why != "" {
			opt.Notice = strings.TrimSpace(opt.Notice + " " + why)
		}
		if found.Unread > 0 {
			p := s.cat.Progress()
			if !p.Running {
				// Files found by a look for changes, and not read yet.
				p = catalog.Progress{Files: found.Unread}
			}
			opt.Reading = reading(p)
			opt.Reading.Back = found.ReadBack
		}
		res.Total, res.Sessions, res.More = found.Total, found.Sessions, found.More
		res.Oldest, res.Notes, res.Words = found.Oldest, found.Notes, found.Words
		// Best first, and the hits of a session together: a session is
		// where its best hit ranks.
		bySession := map[string][]catalog.Hit{}
		var order []string
		for _, h := range found.Hits {
			if bySession[h.Key] == nil {
				order = append(order, h.Key)
			}
			bySession[h.Key] = append(bySession[h.Key], h)
		}
		var byID map[string]catalog.Info
		for _, key := range order {
			i, ok := s.info(key)
			if !ok {
				continue
			}
			it := item(i)
			if i.Parent != "" {
				// A sub-agent's hits say whose it is.
				if byID == nil {
					byID = s.byID()
				}
				it.Trail = trail(i, byID)
			}
			for _, h := range bySession[key] {
				res.Hits = append(res.Hits, site.SearchHit{Session: it, EntryID: h.EntryID, Role: h.Role,
					Snippet: h.Snippet, Marks: h.Marks, Branch: h.Branch, Branches: h.Branches})
			}
		}
	}
	var buf bytes.Buffer
	if err := site.WriteSearchResults(&buf, res, opt); err != nil {
		s.answerError(w, r, err)
		return
	}
	writeHTML(w, r, buf.Bytes())
}

func (s *server) serveFollowJS(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	w.Write(s.followJS)
}

// notFound answers 404 with a page in the index's style that links back
// to the index. It does not repeat the address asked for.
func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	opt := s.indexOptions()
	opt.SearchURL = "/search" // the page can be at any depth
	var buf bytes.Buffer
	if err := site.WriteNotFound(&buf, "No session or page has this address: the link may be mistyped, or the session's file was moved or deleted.", "/", opt); err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Del("ETag")
	h.Del("Content-Length")
	w.WriteHeader(http.StatusNotFound)
	if r == nil || r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// answerError answers a request that failed with err: the one place
// where errors become statuses. What is not there (a session the catalog
// does not know, a file deleted since) is 404, with the page that says
// so; anything else is 500, logged, with a page that names the problem
// (a file that cannot be read, a page that could not be made).
func (s *server) answerError(w http.ResponseWriter, r *http.Request, err error) {
	if gone(err) {
		s.notFound(w, r)
		return
	}
	s.logf("error: %v", err)
	opt := s.indexOptions()
	opt.SearchURL = "/search" // the page can be at any depth
	status, problem := http.StatusInternalServerError, "The server could not make this page: "
	if unavailable(err) {
		status, problem = http.StatusServiceUnavailable, "The shared catalog cannot be reached now; try again in a moment: "
	}
	var buf bytes.Buffer
	if site.WriteProblem(&buf, problem+strings.TrimSuffix(s.publicError(err), ".")+".", "/", opt) != nil {
		http.Error(w, s.publicError(err), status)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Del("ETag")
	h.Del("Content-Length")
	w.WriteHeader(status)
	if r == nil || r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// gone reports whether err says a session is not there: an id the
// catalog does not know, or a file deleted or moved since it was found.
func gone(err error) bool {
	return errors.Is(err, catalog.ErrNotFound) || errors.Is(err, fs.ErrNotExist)
}

// unavailable reports whether err says the shared catalog cannot be
// reached: the page is 503, to try again.
func unavailable(err error) bool { return errors.Is(err, teamcatalog.ErrUnreachable) }

// publicError is err as a response says it: masked when the server masks,
// since it can name a session file.
func (s *server) publicError(err error) string {
	if s.opt.Mask != nil {
		return s.opt.Mask.Text(err.Error())
	}
	return err.Error()
}

// incomplete says why a search's results may lack matches other than
// sessions not read yet (see reading), "" when they lack none: a part of
// the cache that failed.
func incomplete(err error) string {
	if err == nil {
		return ""
	}
	return "The results may be incomplete: part of the cache could not be searched. Search again in a moment."
}

// reading says how far the catalog is in reading the sessions (at a first
// start, or while a damaged cache is rebuilt), for a page to say so.
func reading(p catalog.Progress) *site.Reading {
	return &site.Reading{Done: p.Done, Files: p.Files, Read: min(p.BytesRead, p.Bytes), Bytes: p.Bytes, Back: p.ReadBack}
}
