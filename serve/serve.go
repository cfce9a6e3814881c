// Package serve is a small web server for browsing sessions: an index of
// every session, each session's page rendered on demand, a search over all
// of them, and pages that follow a session as it is written.
//
// It never writes outside its cache directory (the catalog's database and
// rendered pages; with none, nothing at all). It listens on the loopback
// interface unless told otherwise, answers only for the sessions its
// catalog found (addressed by opaque ids, never by paths), and, wherever
// it listens, refuses requests addressed to a host name the user did not
// allow, so that a web page cannot reach it through DNS rebinding.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
)

// Options configure Run.
type Options struct {
	// Addr is the address to listen on; "" means "127.0.0.1:8080", and
	// port 0 picks a free port.
	Addr string
	// Paths are the session files and directories to serve. Empty means
	// catalog.DefaultRoots(), or the bundled examples when those hold no
	// session.
	Paths []string
	// Theme, Home and Generator are as in page.Options.
	Theme, Home, Generator string
	// CacheDir is where the catalog and the rendered pages are kept (see
	// catalog.Options.CacheDir); empty keeps nothing.
	CacheDir string
	// Progress, when set, is called while the catalog reads the sessions,
	// about twice a second, and once more when it is done.
	Progress func(catalog.Progress)
	// Ready, when set, is called with the server's URL once it listens.
	Ready func(url string)
	// Log receives warnings and notices; nil discards them. Quiet
	// keeps them out of it but for errors and the warning that the
	// server can be reached beyond loopback.
	Log   io.Writer
	Quiet bool
	// Mask, when set, masks every session as it is loaded, with what its
	// family holds, before the server lists, searches or shows it
	// (catalog.Options), and the server's own text that is in no session:
	// the paths of session files, which the index shows for a file not
	// read yet or that cannot be read, and errors.
	//
	// A server that masks its sessions keeps the pages it renders in
	// memory, never in the page cache: a page of an earlier state of a
	// session can show a value found to be secret only once the session
	// grew. Its catalog keeps only what Mask made (see catalog.Options).
	Mask session.Masker
	// Redacting says Mask masks secrets: the index says so.
	Redacting bool
	// FollowEvery is how often a page's file is checked for what was
	// written to it since; zero means every 500 ms.
	FollowEvery time.Duration
	// AllowHosts are host names requests may be addressed to, besides
	// localhost, this machine's name and its addresses (see hostGuard).
	AllowHosts []string
	// Shared, when set, returns the links about where the session file
	// at path was shared (piexport --share): the session's page lists
	// them. It is called at every view of a page, so it should answer
	// from memory while what it reads has not changed.
	Shared func(path string) []page.Related
	// Source, when set, is what the server reads its sessions through
	// instead of a catalog of Paths: a team's shared catalog. It is
	// looked at again (Source.Refresh) as a catalog is, and closed when
	// Run returns.
	Source Source
}

// Timeouts of the http.Server: a client gets this long to send its request
// and to read an answer (the event stream excepted), and an idle
// connection is closed after IdleTimeout.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	// shutdownTimeout bounds how long Run waits for requests under way
	// once its context is done.
	shutdownTimeout = 3 * time.Second
	// refreshEvery is how often the catalog looks for new, changed and
	// deleted files: a stat of every file, so that a session being
	// written is searchable within about a second. A history whose look
	// takes long is looked at less often, so that looking never takes
	// more than a tenth of the time.
	refreshEvery = 500 * time.Millisecond
	// progressEvery is how often Options.Progress hears how far reading
	// is.
	progressEvery = 250 * time.Millisecond
)

// Run serves sessions until ctx is done, then shuts the server down,
// waiting a few seconds at most for requests under way. It listens before
// anything else, so a busy port is reported at once; it then opens the
// catalog (what the cache knows is known at once), starts serving, calls
// opt.Ready, and reads the files the cache lacks in the background.
func Run(ctx context.Context, opt Options) error {
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:8080"
	}
	logw := &logger{w: opt.Log, quiet: opt.Quiet}
	ln, err := net.Listen("tcp", opt.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", opt.Addr, err)
	}
	defer ln.Close()
	addr := ln.Addr().(*net.TCPAddr)

	var cat Source
	var notice, where string
	if opt.Source != nil {
		cat, where = opt.Source, "the shared catalog"
	} else {
		cat, notice, where, err = openCatalog(ctx, opt, logw)
	}
	if ctx.Err() != nil {
		// Stopped while cataloguing: not a failure.
		return nil
	}
	if err != nil {
		return err
	}
	defer cat.Close()
	if notice != "" {
		logw.printf("%s", notice)
	}
	if opt.Redacting {
		notice = strings.TrimSpace(redactingNotice + " " + notice)
	}
	var pages *catalog.Pages
	if opt.CacheDir != "" && opt.Mask == nil && opt.Source == nil {
		if pages, err = catalog.OpenPages(opt.CacheDir, catalog.PagesBytes); err != nil {
			// Pages are then kept in memory: a cache is never a reason
			// not to serve.
			logw.printf("warning: %v; pages are kept in memory instead", err)
		}
	}

	s := newServer(cat, pages, opt, logw, notice)
	if !addr.IP.IsLoopback() {
		warnExposed(logw, s.hosts, addr, where)
	}
	srv := &http.Server{
		Handler:           s.handler(),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          log.New(logw, "", 0),
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	rctx, stopRefresh := context.WithCancel(ctx)
	refreshed := make(chan struct{})
	go func() {
		defer close(refreshed)
		local, ok := cat.(*catalog.Catalog)
		if !ok {
			s.refreshLoop(rctx)
			return
		}
		s.update(rctx, local, logw)
		var tidied sync.WaitGroup
		tidied.Go(func() { s.tidy(rctx, local) })
		s.refreshLoop(rctx)
		tidied.Wait()
	}()
	// The catalog is closed when Run returns: not while it is looking.
	defer func() {
		stopRefresh()
		<-refreshed
	}()

	if opt.Ready != nil {
		opt.Ready(serverURL(addr))
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	// Event streams last as long as their page is open: end them, or
	// Shutdown would wait for them until its deadline.
	close(s.stopping)
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err = srv.Shutdown(sctx)
	if err != nil {
		srv.Close()
	}
	if serr := <-served; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	return err
}

// serverURL is the URL to open for a listener on addr: an unspecified
// address (all interfaces) is reached through the loopback one.
func serverURL(addr *net.TCPAddr) string {
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(addr.Port)) + "/"
}

// redactingNotice heads the index of a server that masks secrets.
const redactingNotice = "Secrets are masked: this server shows every session redacted (--redact)."

// openCatalog opens the catalog of opt.Paths; with none, of the default
// roots, or of the bundled examples when those hold no session. notice
// then says so; where names what is served.
func openCatalog(ctx context.Context, opt Options, logw *logger) (c *catalog.Catalog, notice, where string, err error) {
	copt := catalog.Options{
		CacheDir: opt.CacheDir,
		Mask:     opt.Mask,
		Warn:     func(msg string) { logw.printf("warning: %s", msg) },
	}
	if len(opt.Paths) > 0 {
		c, err := catalog.OpenOrInMemory(ctx, opt.Paths, copt)
		return c, "", strings.Join(opt.Paths, ", "), err
	}
	roots, warnings := catalog.DefaultRoots()
	for _, w := range warnings {
		logw.printf("warning: %s", w)
	}
	if len(roots) > 0 {
		c, err := catalog.OpenOrInMemory(ctx, roots, copt)
		if err != nil {
			return nil, "", "", err
		}
		if len(c.List()) > 0 {
			return c, "", strings.Join(roots, ", "), nil
		}
		c.Close()
	}
	copt.FS = piexport.Examples()
	c, err = catalog.New(ctx, nil, copt)
	if err != nil {
		return nil, "", "", err
	}
	return c, "No pi sessions were found (in " + catalog.DefaultRootsHelp + "): these are the bundled examples.", "the bundled examples", nil
}

// onlyCacheErrors reports whether err is a cache error, or joins only
// cache errors: the catalog says those itself, once (see
// catalog.CacheError), and they are not repeated at every look.
func onlyCacheErrors(err error) bool {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			if !onlyCacheErrors(e) {
				return false
			}
		}
		return true
	}
	return catalog.IsCacheError(err)
}

// warnExposed says, for a server listening beyond loopback, who can read
// what: the addresses it can be reached at, the sessions it serves, and
// the host names it answers for.
func warnExposed(logw *logger, hosts *hostGuard, addr *net.TCPAddr, where string) {
	at := "this machine's addresses"
	if list := hosts.exposedAddrs(addr); len(list) > 0 {
		at = strings.Join(list, ", ")
	}
	logw.always("warning: listening on %s, which is not a loopback address: anyone who can reach port %d at %s can read and search the sessions under %s; requests are answered only when addressed to %s, an address of this machine, or a name given with --allow-host",
		addr, addr.Port, at, where, strings.Join(hosts.sortedNames(), ", "))
}

// update reads the files the catalog lacks, telling opt.Progress how far
// it is, and then logs the files that could not be read.
func (s *server) update(ctx context.Context, cat *catalog.Catalog, logw *logger) {
	var err error
	if s.opt.Progress != nil {
		_, err = cat.UpdateTelling(ctx, progressEvery, s.opt.Progress)
	} else {
		_, err = cat.Update(ctx)
	}
	if ctx.Err() != nil {
		return
	}
	if s.opt.Progress != nil {
		s.opt.Progress(cat.Progress())
	}
	if err != nil && !onlyCacheErrors(err) {
		s.logf("warning: reading the sessions: %v", err)
	}
	list := s.cat.List()
	for _, i := range list {
		if i.Err != nil {
			logw.printf("warning: %v", i.Err)
		}
	}
	// Counted as the index counts them.
	sessions, agents, failed := catalog.Counted(list)
	line := "catalogued " + humanize.Sessions(sessions, agents)
	if failed > 0 {
		line += "; " + humanize.CouldNotRead(failed)
	}
	logw.printf("%s", line)
}

// tidy merges what a first reading left unmerged in the search index,
// giving way to searches (see catalog.Tidy).
func (s *server) tidy(ctx context.Context, cat *catalog.Catalog) {
	if err := cat.Tidy(ctx); err != nil && ctx.Err() == nil && !onlyCacheErrors(err) {
		s.logf("warning: merging the search index: %v", err)
	}
}

// refreshLoop keeps the catalog current until ctx is done.
func (s *server) refreshLoop(ctx context.Context) {
	wait := refreshEvery
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		start := time.Now()
		if _, err := s.cat.Refresh(ctx); err != nil && ctx.Err() == nil && !onlyCacheErrors(err) {
			s.logf("warning: looking for sessions: %v", err)
		}
		wait = max(refreshEvery, 10*time.Since(start))
	}
}
