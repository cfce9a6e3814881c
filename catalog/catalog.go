// Package catalog keeps track of many session files: it finds them, loads
// them, remembers what each holds, and answers searches over all of them.
//
// A Catalog is what the server reads sessions through. It hands out opaque
// ids, never paths, so nothing outside it can name a file it does not know.
package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/piexport/piexport/session"
)

// ErrNotFound reports an id the catalog does not know.
var ErrNotFound = errors.New("no such session")

// Info is what the catalog knows of one session file without holding the
// session itself.
type Info struct {
	// ID is the file's opaque, stable id: the same file has the same id in
	// every run.
	ID string
	// Path names the file for people.
	Path    string
	Size    int64
	ModTime time.Time
	// Cwd and SessionID come from the session header; "" without one.
	Cwd       string
	SessionID string
	Summary   session.Summary
	// Warnings counts the problems met while reading the file.
	Warnings int
	// Err says why the file could not be loaded; the other fields but ID,
	// Path, Size and ModTime are then empty.
	Err error
}

// Version identifies the state of the file the Info describes: its size
// and modification time.
func (i Info) Version() string { return version(i.Size, i.ModTime) }

func version(size int64, mtime time.Time) string {
	return strconv.FormatInt(size, 36) + "-" + strconv.FormatInt(mtime.UnixNano(), 36)
}

// Options configure a Catalog.
type Options struct {
	// FS, when set, is where the files are: paths name files and
	// directories in it. Nil means the OS's file system.
	FS fs.FS
	// MaxLoaded bounds how many whole sessions stay in memory; the least
	// recently used go first. Zero means 8.
	MaxLoaded int
	// MaxLoadedBytes bounds the summed file size of the sessions kept
	// (the most recent one is always kept). Zero means 512 MB.
	MaxLoadedBytes int64
	// Workers bounds how many files load at once. Zero means one per core.
	Workers int
	// Prepare, when set, is applied to every session right after it is
	// read, before it is summarised, indexed or handed out: the server
	// masks secrets with it (package redact), so that nothing it lists,
	// searches or shows holds them. What is kept across runs (a cache)
	// must be keyed by PrepareKey too.
	Prepare func(*session.Session)
	// PrepareKey names what Prepare does: two catalogs with the same key
	// prepare sessions the same way.
	PrepareKey string
}

// Catalog is a set of session files, their summaries, a few whole sessions
// kept in memory, and a search index over all of them. It is safe for
// concurrent use.
type Catalog struct {
	paths []string
	opt   Options
	index *Index

	mu      sync.RWMutex
	records map[string]*record // by id
	roots   map[string]*os.Root

	lru *lru
	// gen counts changes to records, so a caller can tell whether what it
	// made from List is still current.
	gen atomic.Uint64

	flightMu sync.Mutex
	flights  map[string]*flight // loads under way, by id and version
}

type record struct {
	f    file
	info Info
}

type flight struct {
	done chan struct{}
	s    *session.Session
	info Info
	err  error
}

// New finds the session files under paths (see Find), loads each once to
// learn its summary and index it, and returns the catalog. A file that
// fails to load is kept, with its error.
func New(ctx context.Context, paths []string, opt Options) (*Catalog, error) {
	if opt.MaxLoaded <= 0 {
		opt.MaxLoaded = 8
	}
	if opt.MaxLoadedBytes <= 0 {
		opt.MaxLoadedBytes = 512 << 20
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	c := &Catalog{
		paths:   slices.Clone(paths),
		opt:     opt,
		index:   NewIndex(),
		records: map[string]*record{},
		roots:   map[string]*os.Root{},
		lru:     newLRU(opt.MaxLoaded, opt.MaxLoadedBytes),
		flights: map[string]*flight{},
	}
	if _, err := c.refresh(ctx, false); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close releases the directories the catalog holds open.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for k, r := range c.roots {
		errs = append(errs, r.Close())
		delete(c.roots, k)
	}
	return errors.Join(errs...)
}

// idOf derives a file's id from its real path: stable across runs, and
// telling nothing of the path.
func idOf(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:6])
}

// Refresh looks for files again: it adds new ones, drops those that are
// gone (a whole directory included), and reloads those whose size or
// modification time changed. It reports whether anything changed.
func (c *Catalog) Refresh(ctx context.Context) (bool, error) {
	return c.refresh(ctx, true)
}

func (c *Catalog) refresh(ctx context.Context, lenient bool) (bool, error) {
	found, err := find(c.opt.FS, c.paths, lenient)
	if err != nil {
		return false, err
	}
	if err := c.openRoots(found); err != nil {
		return false, err
	}
	type job struct {
		id string
		f  file
	}
	c.mu.RLock()
	known := make(map[string]Info, len(c.records))
	for id, r := range c.records {
		known[id] = r.info
	}
	c.mu.RUnlock()
	var jobs []job
	ids := make(map[string]bool, len(found))
	for _, f := range found {
		id := idOf(f.key)
		for ids[id] {
			// Two paths whose ids collide: so unlikely that a
			// deterministic rename is enough.
			id = idOf(id + f.key)
		}
		ids[id] = true
		info, ok := known[id]
		if !ok {
			jobs = append(jobs, job{id, f})
			continue
		}
		fi, err := c.stat(f)
		if err != nil || version(fi.Size(), fi.ModTime()) != info.Version() {
			jobs = append(jobs, job{id, f})
		}
	}
	var gone []string
	for id := range known {
		if !ids[id] {
			gone = append(gone, id)
		}
	}

	// Load in parallel; each result is applied as soon as it is ready.
	work := make(chan job)
	var wg sync.WaitGroup
	for range min(c.opt.Workers, max(1, len(jobs))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				s, info := c.loadFile(j.id, j.f)
				c.apply(j.f, info, s)
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()

	c.mu.Lock()
	for _, id := range gone {
		c.gen.Add(1)
		delete(c.records, id)
		c.lru.remove(id)
		c.index.Remove(id)
	}
	c.mu.Unlock()
	return len(jobs) > 0 || len(gone) > 0, ctx.Err()
}

// openRoots opens the directories files were found in, so that reading
// them cannot be led out of those directories by a symbolic link or a
// rename made in the meantime.
func (c *Catalog) openRoots(found []file) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range found {
		if f.root == "" || c.roots[f.root] != nil {
			continue
		}
		r, err := os.OpenRoot(f.root)
		if err != nil {
			return err
		}
		c.roots[f.root] = r
	}
	return nil
}

// apply records what loading a file found, unless a newer state of the
// file was recorded meanwhile.
func (c *Catalog) apply(f file, info Info, s *session.Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.records[info.ID]
	if r != nil && !info.ModTime.IsZero() && r.info.ModTime.After(info.ModTime) {
		return
	}
	c.records[info.ID] = &record{f: f, info: info}
	c.gen.Add(1)
	if info.Err != nil {
		c.index.Remove(info.ID)
		return
	}
	t := info.Summary.End
	if t.IsZero() {
		t = info.Summary.Start
	}
	c.index.Replace(info.ID, t, searchTexts(s))
}

// open opens f for reading, never for writing.
func (c *Catalog) open(f file) (fs.File, error) {
	switch {
	case c.opt.FS != nil:
		return c.opt.FS.Open(f.path)
	case f.root != "":
		c.mu.RLock()
		r := c.roots[f.root]
		c.mu.RUnlock()
		if r == nil {
			return nil, fmt.Errorf("%s: %w", f.path, fs.ErrNotExist)
		}
		return r.Open(f.rel)
	}
	return os.Open(f.key)
}

func (c *Catalog) stat(f file) (fs.FileInfo, error) {
	switch {
	case c.opt.FS != nil:
		return fs.Stat(c.opt.FS, f.path)
	case f.root != "":
		c.mu.RLock()
		r := c.roots[f.root]
		c.mu.RUnlock()
		if r == nil {
			return nil, fmt.Errorf("%s: %w", f.path, fs.ErrNotExist)
		}
		return r.Stat(f.rel)
	}
	return os.Stat(f.key)
}

// loadFile reads and summarises one file. The session is nil when it
// failed; info.Err then says why.
func (c *Catalog) loadFile(id string, f file) (*session.Session, Info) {
	info := Info{ID: id, Path: f.path}
	s, fi, err := c.read(f)
	if fi != nil {
		info.Size, info.ModTime = fi.Size(), fi.ModTime()
	}
	if err != nil {
		info.Err = err
		return nil, info
	}
	if c.opt.Prepare != nil {
		c.opt.Prepare(s)
	}
	info.Summary = s.Summarize()
	info.Warnings = len(s.Warnings)
	if s.Header != nil {
		info.Cwd = s.Header.Cwd
		info.SessionID = s.Header.ID
	}
	return s, info
}

func (c *Catalog) read(f file) (*session.Session, fs.FileInfo, error) {
	fh, err := c.open(f)
	if err != nil {
		return nil, nil, pathError(f.path, err)
	}
	defer fh.Close()
	// The size and time are taken before reading: if the file grows
	// meanwhile, the next look sees a newer version and reloads it.
	fi, err := fh.Stat()
	if err != nil {
		return nil, nil, pathError(f.path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fi, fmt.Errorf("%s: not a regular file", f.path)
	}
	s, err := session.Read(fh, f.path)
	return s, fi, err
}

// pathError names the file in err unless it does already.
func pathError(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.HasSuffix(name, filepath.Base(pe.Path)) {
		return fmt.Errorf("%s: %w", name, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// List returns what the catalog knows of every file, sorted by path.
func (c *Catalog) List() []Info {
	c.mu.RLock()
	out := make([]Info, 0, len(c.records))
	for _, r := range c.records {
		out = append(out, r.info)
	}
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Generation returns a number that changes whenever what List returns
// does.
func (c *Catalog) Generation() uint64 { return c.gen.Load() }

// Info returns what the catalog knows of the file with the given id.
func (c *Catalog) Info(id string) (Info, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.records[id]
	if r == nil {
		return Info{}, false
	}
	return r.info, true
}

// Stat returns the current version of the file with the given id (see
// Info.Version), read from the file system now.
func (c *Catalog) Stat(id string) (string, error) {
	c.mu.RLock()
	r := c.records[id]
	c.mu.RUnlock()
	if r == nil {
		return "", ErrNotFound
	}
	fi, err := c.stat(r.f)
	if err != nil {
		return "", pathError(r.f.path, err)
	}
	return version(fi.Size(), fi.ModTime()), nil
}

// Load returns the session with the given id, as its file is now: from
// memory when the file has not changed since it was last loaded, else
// loaded again (which also updates its summary and its part of the search
// index). Concurrent calls for the same file load it once.
func (c *Catalog) Load(id string) (*session.Session, Info, error) {
	c.mu.RLock()
	r := c.records[id]
	c.mu.RUnlock()
	if r == nil {
		return nil, Info{}, ErrNotFound
	}
	fi, err := c.stat(r.f)
	if err != nil {
		return nil, r.info, pathError(r.f.path, err)
	}
	v := version(fi.Size(), fi.ModTime())
	if s, info, ok := c.lru.get(id, v); ok {
		return s, info, nil
	}

	key := id + "@" + v
	c.flightMu.Lock()
	if fl := c.flights[key]; fl != nil {
		c.flightMu.Unlock()
		<-fl.done
		return fl.s, fl.info, fl.err
	}
	fl := &flight{done: make(chan struct{})}
	c.flights[key] = fl
	c.flightMu.Unlock()

	fl.s, fl.info = c.loadFile(id, r.f)
	fl.err = fl.info.Err
	if fl.info.Version() != r.info.Version() {
		c.apply(r.f, fl.info, fl.s)
	}
	if fl.s != nil {
		c.lru.put(id, fl.info, fl.s)
	}
	c.flightMu.Lock()
	delete(c.flights, key)
	c.flightMu.Unlock()
	close(fl.done)
	return fl.s, fl.info, fl.err
}

// Search runs q over every session's entries (see Index) and returns the
// first limit hits; Hit.Key is the session's id.
func (c *Catalog) Search(q string, limit int) Results {
	return c.index.Search(q, limit)
}
