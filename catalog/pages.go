package catalog

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Pages keeps rendered pages on disk, so a second view of a session, or a
// view after a restart, costs a file read instead of a rendering. A page
// is stored under a key made of everything it depends on (PageKey): the
// session's content hash, the program, the options. Each file carries the
// SHA-256 of the page, checked before a byte is served from it, so a
// damaged file is never shown: it is removed and the page made again.
// Files are written to a temporary name and renamed, so processes sharing
// the directory never see half a page. The least recently used pages go
// once the directory holds more than its limit.
type Pages struct {
	dir string
	max int64

	mu    sync.Mutex
	total int64 // bytes in dir; -1 until counted
}

// PagesBytes is how much the page cache holds by default: the server and
// an archive run sharing it keep it below that.
const PagesBytes = 2 << 30

// pagesDir is the directory of pages in a cache directory.
const pagesDir = "pages"

// pageMagic starts every page file; the SHA-256 and the length of the page
// follow it.
var pageMagic = []byte("piexport page 1\n")

const pageHeader = 16 + 32 + 8

// OpenPages opens the page cache in cacheDir, creating it if needed. max
// bounds the bytes it keeps.
func OpenPages(cacheDir string, max int64) (*Pages, error) {
	dir := filepath.Join(cacheDir, pagesDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("page cache: %w", err)
	}
	return &Pages{dir: dir, max: max, total: -1}, nil
}

// PageKey makes a page's key from what the page depends on.
func PageKey(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (p *Pages) path(key string) string {
	return filepath.Join(p.dir, key[:2], key+".page")
}

// ErrNoPage reports a page that is not in the cache.
var ErrNoPage = errors.New("no such page in the cache")

// CachedPage is a page found in the cache, open for reading.
type CachedPage struct {
	f    *os.File
	path string
	sum  [32]byte
	// Size is the page's length in bytes.
	Size int64
}

// Open returns the page stored under key, or ErrNoPage. A file that is
// not a whole page file is removed and reported as missing.
func (p *Pages) Open(key string) (*CachedPage, error) {
	if len(key) != 64 {
		return nil, ErrNoPage
	}
	path := p.path(key)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoPage
	}
	if err != nil {
		return nil, err
	}
	var h [pageHeader]byte
	fi, err := f.Stat()
	if err == nil {
		_, err = io.ReadFull(f, h[:])
	}
	size := int64(binary.BigEndian.Uint64(h[48:]))
	if err != nil || !bytes.Equal(h[:16], pageMagic) || fi.Size() != pageHeader+size {
		f.Close()
		p.drop(path)
		return nil, ErrNoPage
	}
	// The file's time says when it was last used: the oldest go first.
	now := time.Now()
	os.Chtimes(path, now, now)
	c := &CachedPage{f: f, path: path, Size: size}
	copy(c.sum[:], h[16:48])
	return c, nil
}

// wholeBelow is the size under which a page is read whole and checked
// before it is sent; a larger one is checked as it is sent.
const wholeBelow = 64 << 20

// errDamaged says a cached page did not match its checksum.
var errDamaged = errors.New("a cached page was damaged; it is made again")

// WriteTo sends the page to w. A page below 64 MB is checked before its
// first byte is sent; a larger one as it is sent, and a mismatch then
// fails once most of it was sent. Either way a damaged file is removed.
func (c *CachedPage) WriteTo(w io.Writer) (int64, error) {
	h := sha256.New()
	if c.Size < wholeBelow {
		b := make([]byte, c.Size)
		if _, err := io.ReadFull(c.f, b); err != nil {
			return 0, err
		}
		h.Write(b)
		if !bytes.Equal(h.Sum(nil), c.sum[:]) {
			c.remove()
			return 0, errDamaged
		}
		n, err := w.Write(b)
		return int64(n), err
	}
	n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(c.f, c.Size))
	if err == nil && !bytes.Equal(h.Sum(nil), c.sum[:]) {
		c.remove()
		err = errDamaged
	}
	return n, err
}

func (c *CachedPage) remove() {
	c.f.Close()
	os.Remove(c.path)
}

// Close closes the page's file.
func (c *CachedPage) Close() error { return c.f.Close() }

// PageWriter writes a page into the cache; the page is there once Commit
// returns.
type PageWriter struct {
	p    *Pages
	key  string
	f    *os.File
	h    hash.Hash
	n    int64
	err  error
	done bool
}

// Create starts writing the page stored under key.
func (p *Pages) Create(key string) (*PageWriter, error) {
	path := p.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	var r [6]byte
	rand.Read(r[:])
	f, err := os.OpenFile(path+"."+hex.EncodeToString(r[:])+".tmp", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(make([]byte, pageHeader)); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &PageWriter{p: p, key: key, f: f, h: sha256.New()}, nil
}

// Write adds to the page. An error is kept for Commit; the page is then
// not stored.
func (w *PageWriter) Write(b []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(b)
	w.h.Write(b[:n])
	w.n += int64(n)
	w.err = err
	return n, err
}

// Commit stores the page.
func (w *PageWriter) Commit() error {
	if w.done {
		return errors.New("page already committed or aborted")
	}
	w.done = true
	var h [pageHeader]byte
	copy(h[:], pageMagic)
	copy(h[16:48], w.h.Sum(nil))
	binary.BigEndian.PutUint64(h[48:], uint64(w.n))
	err := w.err
	if err == nil {
		_, err = w.f.WriteAt(h[:], 0)
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.p.path(w.key))
	}
	if err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("page cache: %w", err)
	}
	w.p.added(pageHeader + w.n)
	return nil
}

// Abort drops the page.
func (w *PageWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.f.Close()
	os.Remove(w.f.Name())
}

func (p *Pages) drop(path string) {
	os.Remove(path)
}

// added counts a new page and, past the limit, removes the pages used
// least recently until the cache holds three quarters of it.
func (p *Pages) added(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total >= 0 {
		p.total += n
		if p.total <= p.max {
			return
		}
	}
	type page struct {
		path string
		size int64
		used time.Time
	}
	var pages []page
	var total int64
	filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if strings.HasSuffix(path, ".tmp") {
			// A writer killed before it could clean up; an hour-old one
			// is no live writer's.
			if time.Since(fi.ModTime()) > time.Hour {
				os.Remove(path)
			}
			return nil
		}
		pages = append(pages, page{path, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if total > p.max {
		slices.SortFunc(pages, func(a, b page) int { return a.used.Compare(b.used) })
		for _, pg := range pages {
			if total <= p.max*3/4 {
				break
			}
			if os.Remove(pg.path) == nil {
				total -= pg.size
			}
		}
	}
	p.total = total
}
