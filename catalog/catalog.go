// Package catalog keeps track of many session files: it finds them,
// remembers what each holds in a cache database that outlives the process,
// loads them, and answers searches over all of them.
//
// The cache is SQLite with FTS5 (see schema.go), in the user's cache
// directory. A file is read once: at the next start a stat tells whether it
// changed, and a file that only grew is read from where reading stopped.
// The cache is only ever a cache: deleted, damaged or shared by several
// processes at once, it never loses a session or shows a wrong one (a
// damaged one is rebuilt, with one warning).
//
// A Catalog is what the server reads sessions through. It hands out opaque
// ids, never paths, so nothing outside it can name a file it does not know.
//
// docs/shared-catalog.md says how the same catalog would run on a shared
// engine (PostgreSQL full text) for a team, and an archive on object
// storage behind a CDN, and what in this schema helps or stands in the
// way.
package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/piexport/piexport/session"
)

// ErrNotFound reports an id the catalog does not know.
var ErrNotFound = errors.New("no such session")

// errClosed reports a use of the catalog after Close.
var errClosed = errors.New("the catalog is closed")

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
	// Indexed says the file was read: the fields below describe it. A file
	// found but not yet read has only ID, Path, Size and ModTime.
	Indexed bool
	// Hash is the SHA-256 of the file's content as read, in hex; in a
	// catalog that prepares sessions, of that and of the contents of the
	// session's family, which what it shows depends on (see session.Masker).
	Hash string
	// Cwd and SessionID come from the session header; "" without one.
	Cwd       string
	SessionID string
	Summary   session.Summary
	// Branches counts the session's branches: 1 for one that never
	// branched.
	Branches int
	// Warnings counts the problems met while reading the file.
	Warnings int
	// Err says why the file could not be loaded; the fields above but ID,
	// Path, Size, ModTime and Hash are then empty.
	Err error
	// Parent is the id of the session a sub-agent transcript belongs to
	// (omp keeps them in a directory named after their session); Agents
	// are the ids of a session's sub-agents.
	Parent string
	Agents []string
	// ForkOf is the id of the session this one was forked or cloned from,
	// when the catalog has it; Forks are the sessions forked from this one.
	ForkOf string
	Forks  []string

	// ParentSession is the session this one was forked from (or, for a
	// sub-agent, started by), as its header names it: a path.
	ParentSession string

	stamp stamp
}

// Version identifies the state of the file the Info describes, as a stat
// sees it.
func (i Info) Version() string { return i.stamp.String() }

// Options configure a Catalog.
type Options struct {
	// FS, when set, is where the files are: paths name files and
	// directories in it. Nil means the OS's file system.
	FS fs.FS
	// CacheDir is the directory the catalog keeps its database in. Empty:
	// it is kept in memory and lost with the process.
	CacheDir string
	// Warn receives warnings about the cache (a damaged one rebuilt). Nil
	// discards them.
	Warn func(string)
	// MaxLoaded bounds how many whole sessions stay in memory; the least
	// recently used go first. Zero means 4.
	MaxLoaded int
	// MaxLoadedBytes bounds the summed file size of the sessions kept
	// (the most recent one is always kept). Zero means 48 MB: a session in
	// memory takes a few times its file's size.
	MaxLoadedBytes int64
	// Workers bounds how many files are read at once. Zero means one per
	// core.
	Workers int
	// Mask, when set, masks every session right after it is read, before
	// it is summarised, indexed or handed out, with what was found in its
	// whole family (see session.Masker): the server masks secrets with it
	// (package redact), so that nothing it lists, searches or shows holds
	// them. The cache keeps what each Mask.Key made apart; Mask.Text masks
	// the catalog's own text that is in no session: the error of a file
	// that cannot be read.
	//
	// Masking looks at a whole session (a value found anywhere is masked
	// everywhere), so with Mask a file that grew is read whole, and
	// snippets are cut from the loaded session, not from the line.
	//
	// A catalog that masks sessions keeps nothing unmasked in its cache:
	// each file is keyed by a digest of its path, not the path; the
	// header line is not kept; an error is kept masked; and what is
	// deleted or replaced is scrubbed from the database and its
	// write-ahead log (see store.scrub), so that a value found to be
	// secret only once a file grew does not linger there.
	Mask session.Masker
}

// Catalog is a set of session files, their summaries, a few whole sessions
// kept in memory, and a search index over all of them. It is safe for
// concurrent use.
type Catalog struct {
	paths []string
	opt   Options

	stMu sync.RWMutex
	st   [shards]*store
	// known is every row of the stores by path, as last read, and
	// dataVersion each store's data_version then: when another process
	// writes, it changes, and the store's rows are read again.
	known       map[string]*fileRow
	dataVersion [shards]int64

	mu      sync.RWMutex
	records map[string]*record // by id
	byGID   map[int64]*record  // by fileRow.gid
	roots   map[string]*os.Root

	lru *lru
	// walk bounds how far back a search looks (see searchWalk).
	walk searchWalk
	// gen counts changes to records, so a caller can tell whether what it
	// made from List is still current.
	gen atomic.Uint64

	flightMu sync.Mutex
	flights  map[string]*flight // reads under way, by id

	// bulk is how many bytes an update reads, at least, to be a bulk read
	// (see merge.go): bulkBytes, but in tests.
	bulk int64

	// searches are the searches under way, which reading waits for.
	searches searchGate

	// unwritable says a write to the cache failed, and this was said
	// (see wrote).
	unwritable atomic.Bool

	// updateMu lets one Update run at a time.
	updateMu sync.Mutex
	prog     progressCounters

	// The families of a catalog that prepares sessions (family.go):
	// linkGen counts changes to what joins them, families are as of
	// familiesAt; stored is, per record, what was found in its file as
	// the store holds it, seen what was found in a file read for another.
	// famMu is taken before mu, never while mu is held.
	linkGen      atomic.Uint64
	famMu        sync.Mutex
	families     map[string][]string
	familiesAt   uint64
	stored, seen map[string]kept
}

// record is one file the catalog found.
type record struct {
	id string
	f  file
	// found is the file's stamp when it was last found.
	found stamp
	// row is what the store holds of the file; nil until it is read.
	row *fileRow
	// parent is the id of the session whose sub-agent this file is.
	parent string
	// hidden is the file's path as Options.PrepareText masks it, in a
	// catalog that prepares sessions: what a search's project filter
	// matches.
	hidden string
	// from is, in a catalog that prepares sessions, what the file's
	// header says it was forked from, as read at fromAt: a path, kept in
	// memory only, which joins it to its family.
	from   string
	fromAt stamp
}

type flight struct {
	done chan struct{}
	s    *session.Session
	info Info
	err  error
}

// Open opens the cache and finds the session files under paths (see Find).
// It reads no file: what the cache knows is known at once, and Update
// reads the rest.
func Open(ctx context.Context, paths []string, opt Options) (*Catalog, error) {
	if opt.MaxLoaded <= 0 {
		opt.MaxLoaded = 4
	}
	if opt.MaxLoadedBytes <= 0 {
		opt.MaxLoadedBytes = 48 << 20
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	c := &Catalog{
		paths:   slices.Clone(paths),
		opt:     opt,
		records: map[string]*record{},
		byGID:   map[int64]*record{},
		known:   map[string]*fileRow{},
		roots:   map[string]*os.Root{},
		lru:     newLRU(opt.MaxLoaded, opt.MaxLoadedBytes),
		walk:    defaultWalk,
		flights: map[string]*flight{},
		stored:  map[string]kept{},
		seen:    map[string]kept{},
		bulk:    bulkBytes,
	}
	dir := opt.CacheDir
	if opt.FS != nil {
		dir = "" // files in an fs.FS have no real path to key them by
	}
	if dir != "" {
		removeOldDBs(dir)
	}
	for i := range shards {
		st, warning, err := openStore(ctx, dir, c.maskKey(), i)
		if err != nil {
			c.Close()
			return nil, &CacheError{Err: err}
		}
		c.st[i] = st
		if warning != "" {
			c.warn(warning)
		}
	}
	if err := c.find(ctx, false); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// New opens a catalog (see Open) and reads every file it does not know
// yet.
func New(ctx context.Context, paths []string, opt Options) (*Catalog, error) {
	c, err := Open(ctx, paths, opt)
	if err != nil {
		return nil, err
	}
	if _, err := c.Update(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Catalog) warn(msg string) {
	if c.opt.Warn != nil {
		c.opt.Warn(msg)
	}
}

// Close releases the cache and the directories the catalog holds open.
func (c *Catalog) Close() error {
	c.mu.Lock()
	var errs []error
	for k, r := range c.roots {
		errs = append(errs, r.Close())
		delete(c.roots, k)
	}
	c.mu.Unlock()
	c.stMu.Lock()
	for i, st := range c.st {
		if st != nil {
			errs = append(errs, st.close())
			c.st[i] = nil
		}
	}
	c.stMu.Unlock()
	return errors.Join(errs...)
}

// store returns shard i of the store, or an error once the catalog is
// closed.
func (c *Catalog) store(i int) (*store, error) {
	c.stMu.RLock()
	defer c.stMu.RUnlock()
	if c.st[i] == nil {
		return nil, errClosed
	}
	return c.st[i], nil
}

// rowKey is how the store keys the file at path: the path itself, or in
// a catalog that prepares sessions a digest of it, since a path holds
// the home directory, the user's name and the project's (pi names a
// session's folder after its working directory).
func (c *Catalog) rowKey(path string) string {
	if c.opt.Mask == nil {
		return path
	}
	sum := sha256.Sum256([]byte(c.maskKey() + "\x00" + path))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// prepareText masks s as Options.Mask masks text, if set.
func (c *Catalog) prepareText(s string) string {
	if c.opt.Mask == nil {
		return s
	}
	return c.opt.Mask.Text(s)
}

// maskKey is the key of Options.Mask, "" without one.
func (c *Catalog) maskKey() string {
	if c.opt.Mask == nil {
		return ""
	}
	return c.opt.Mask.Key()
}

// idOf derives a file's id from its real path: stable across runs, and
// telling nothing of the path.
func idOf(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:6])
}

// Counted tells apart the files of list (as List returns them) as every
// list of many sessions counts them: the sessions, the sub-agents'
// transcripts (listed under their sessions), and the files that could
// not be read, which are neither.
func Counted(list []Info) (sessions, subAgents, failed int) {
	for _, i := range list {
		switch {
		case i.Err != nil:
			failed++
		case i.Parent != "":
			subAgents++
		default:
			sessions++
		}
	}
	return sessions, subAgents, failed
}

// List returns what the catalog knows of every file, sorted by path, with
// the links between sessions (sub-agents, forks) filled in.
func (c *Catalog) List() []Info {
	c.mu.RLock()
	out := make([]Info, 0, len(c.records))
	for _, r := range c.records {
		out = append(out, c.info(r))
	}
	c.mu.RUnlock()
	for k := range out {
		c.withFamily(&out[k])
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Path, b.Path) })
	c.link(out)
	return out
}

// Generation returns a number that changes whenever what List returns
// does.
func (c *Catalog) Generation() uint64 { return c.gen.Load() }

// Info returns what the catalog knows of the file with the given id.
func (c *Catalog) Info(id string) (Info, bool) {
	c.mu.RLock()
	r := c.records[id]
	if r == nil {
		c.mu.RUnlock()
		return Info{}, false
	}
	i := c.info(r)
	c.mu.RUnlock()
	c.withFamily(&i)
	return i, true
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
	return stampOf(fi).String(), nil
}
