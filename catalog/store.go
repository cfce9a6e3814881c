package catalog

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/piexport/piexport/humanize"
)

// schemaVersion names what the cache database holds and how: its tables,
// and what reading a session puts in them (summaries, words, the figures
// ranking uses). It changes with any of those, and with nothing else: a new
// build or release of piexport that reads sessions as the last one did
// keeps its cache. It is part of the files' names, so builds that expect
// different versions never open each other's: two of them can share a
// cache directory, each keeping its own database (see removeOldDBs).
const schemaVersion = 4

// shards is how many databases the catalog's files are spread over, by a
// hash of their path. SQLite writes one transaction at a time per
// database, and FTS5 indexing is most of the work of reading a history: with
// two, both cores of a small machine index at once (measured, see the
// commit that made them). A search asks every shard.
const shards = 2

// dbName is the file name of a shard of the cache database. A catalog that
// prepares sessions (see Options.Mask) keeps its own.
func dbName(prepareKey string, shard int) string {
	if prepareKey == "" {
		return fmt.Sprintf("catalog-v%d.%d.db", schemaVersion, shard)
	}
	sum := sha256.Sum256([]byte(prepareKey))
	return fmt.Sprintf("catalog-v%d-%x.%d.db", schemaVersion, sum[:6], shard)
}

// oldDBAge is how long a database of another schema version may go
// unused before a catalog removes it: another build of piexport sharing
// the cache directory may still use it, and a rebuild costs that build a
// whole reading of its history.
const oldDBAge = 14 * 24 * time.Hour

// dbFile matches the names of the cache database's files (and their
// journals), of any schema version: catalog-v3.0.db, catalog-v3-….1.db-wal.
var dbFile = regexp.MustCompile(`^catalog-v(\d+)(-[0-9a-f]+)?\.\d+\.db(-wal|-shm|-journal)?$`)

// removeOldDBs removes the databases of other schema versions in dir
// that no process has written for oldDBAge, with their journals.
func removeOldDBs(dir string) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	latest := map[string]time.Time{} // by database file
	for _, d := range list {
		m := dbFile.FindStringSubmatch(d.Name())
		if m == nil || m[1] == strconv.Itoa(schemaVersion) || !d.Type().IsRegular() {
			continue
		}
		fi, err := d.Info()
		if err != nil {
			continue
		}
		db := strings.TrimSuffix(d.Name(), m[3])
		if t := fi.ModTime(); t.After(latest[db]) {
			latest[db] = t
		}
	}
	for db, t := range latest {
		if time.Since(t) > oldDBAge {
			removeDB(filepath.Join(dir, db))
		}
	}
}

// shardOf is the shard that holds the file at path.
func shardOf(path string) int {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int(h.Sum32() % shards)
}

// store is the catalog's SQLite database: one connection that writes and
// a pool that reads. In WAL mode readers never wait for the writer, and
// other processes sharing the file (two servers, an archive run) take
// turns writing, each write one short transaction.
type store struct {
	// shard is the store's number among the catalog's.
	shard int
	// prepared says the store holds prepared sessions (see
	// Options.Mask): what it deletes is scrubbed.
	prepared bool
	// path is the database file, "" for one held in memory.
	path string
	// opened is the database file as it was opened, to notice when another
	// process replaced it (after finding it corrupt).
	opened os.FileInfo
	w, r   *sql.DB
	// dirty says a scrub is owed: something was deleted and the log may
	// still hold it.
	dirty atomic.Bool
}

// pageSize is the database's page size.
const pageSize = 16 << 10

// busyTimeout is how long a statement waits for another process's write
// to finish before it fails.
const busyTimeout = 10000 // ms

// errCorrupt reports a cache database that SQLite cannot read as one.
var errCorrupt = errors.New("the cache database is damaged")

// isCorrupt reports whether err says the database file is damaged or is
// not a database at all.
func isCorrupt(err error) bool {
	if errors.Is(err, errCorrupt) {
		return true
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// openStore opens shard of the database in dir for sessions prepared as
// prepareKey says, creating it if needed, or one in memory when dir is "".
// A database that is damaged is removed and made anew; warning then says
// so.
//
// Only damage rebuilds a database: a file that cannot be opened for
// another reason (no permission to read it, a link that leads nowhere)
// is left as it is, and the error says why.
func openStore(ctx context.Context, dir, prepareKey string, shard int) (st *store, warning string, err error) {
	prepared := prepareKey != ""
	defer func() {
		if st != nil {
			st.shard = shard
		}
	}()
	if dir == "" {
		st, err = openDB(ctx, "", prepared)
		return st, "", err
	}
	// The cache holds what the sessions say: it is the user's alone.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("cache directory: %w", err)
	}
	path := filepath.Join(dir, dbName(prepareKey, shard))
	if err := checkHeader(path); err != nil {
		if !errors.Is(err, errCorrupt) {
			return nil, "", accessError(path, err)
		}
		warning = fmt.Sprintf("%s: %v; it is rebuilt from the session files", path, err)
		if err := removeDB(path); err != nil {
			return nil, "", err
		}
	}
	if err := makePrivate(path); err != nil {
		return nil, "", accessError(path, err)
	}
	st, err = openDB(ctx, path, prepared)
	if err != nil && isCorrupt(err) {
		warning = fmt.Sprintf("%s: %v; it is rebuilt from the session files", path, errCorrupt)
		if err := removeDB(path); err != nil {
			return nil, "", err
		}
		if err := makePrivate(path); err != nil {
			return nil, "", accessError(path, err)
		}
		st, err = openDB(ctx, path, prepared)
	}
	if err != nil {
		return nil, "", accessError(path, err)
	}
	return st, warning, nil
}

// accessError says that the cache database at path cannot be used for a
// reason that is not damage: it is kept, and the catalog does not open.
func accessError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = pe.Err // the path is named once
	}
	return fmt.Errorf("cannot open the cache database %s: %w (it is not damaged, so it is left as it is)", path, err)
}

// makePrivate makes the database file, if there is none, readable and
// writable by its owner alone, and takes the other users' access away
// from one made before (and from its journal files). SQLite gives the
// -wal and -shm files it makes the database's permissions.
func makePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o077 != 0 {
			// Best effort: a file this user cannot change is reported
			// when SQLite opens it, if it cannot.
			os.Chmod(p, fi.Mode().Perm()&0o700)
		}
	}
	return nil
}

// checkHeader looks at the database file's header without SQLite: garbage
// and a file cut short are found here at once, where SQLite would only
// notice when a query reaches a missing page. A missing file is fine.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() == 0 {
		return nil // made but never written: SQLite starts it afresh
	}
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return fmt.Errorf("%w: %s, shorter than a header", errCorrupt, humanize.Count(int(fi.Size()), "byte", "bytes"))
	}
	if !bytes.Equal(h[:16], []byte("SQLite format 3\x00")) {
		return fmt.Errorf("%w: not an SQLite database", errCorrupt)
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	// The page count in the header is valid when the change counter
	// matches the "version valid for" number. A write-ahead log may hold
	// pages past the end of the file, so the size is only checked without
	// one.
	valid := binary.BigEndian.Uint32(h[24:28]) == binary.BigEndian.Uint32(h[92:96])
	if _, err := os.Stat(path + "-wal"); valid && errors.Is(err, os.ErrNotExist) && pages*pageSize > fi.Size() {
		return fmt.Errorf("%w: %s where its header says %d", errCorrupt, humanize.Count(int(fi.Size()), "byte", "bytes"), pages*pageSize)
	}
	return nil
}

// removeDB removes a database file and its journal files.
func removeDB(path string) error {
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing the damaged cache: %w", err)
		}
	}
	return nil
}

func openDB(ctx context.Context, path string, prepared bool) (*store, error) {
	st := &store{path: path, prepared: prepared}
	var dsn string
	if path == "" {
		// A private database in memory, shared by this process's
		// connections.
		var b [8]byte
		rand.Read(b[:])
		dsn = "file:/piexport-" + hex.EncodeToString(b[:]) + "?vfs=memdb"
	} else {
		dsn = "file:" + uriPath(path) + "?"
	}
	// Pages of 16 KB (the first pragma: it only counts before the file's
	// first write): FTS5's index is written and merged a segment page at
	// a time, and a page of its own size is one read or write instead of
	// four (system calls were a tenth of indexing's time with 4 KB ones).
	common := fmt.Sprintf("&_pragma=page_size(%d)&_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)", pageSize, busyTimeout)
	if prepared {
		// What is deleted is overwritten with zeros, not left in free
		// pages (see scrub).
		common += "&_pragma=secure_delete(1)"
	}
	var err error
	// Writes begin IMMEDIATE: a transaction that reads and then writes
	// would otherwise fail with "database is locked" when another process
	// wrote in between, instead of waiting its turn.
	if st.w, err = sql.Open("sqlite", dsn+common+"&_txlock=immediate"); err != nil {
		return nil, err
	}
	st.w.SetMaxOpenConns(1)
	st.w.SetConnMaxIdleTime(0)
	// Readers do not map the file: the pages a search touches would count
	// in the server's resident memory (70 MB after 700 searches of a
	// 1.4 GB history), for a tenth of a search's time saved.
	if st.r, err = sql.Open("sqlite", dsn+common+"&_pragma=query_only(1)"); err != nil {
		st.w.Close()
		return nil, err
	}
	st.r.SetMaxOpenConns(4)
	if err := st.init(ctx); err != nil {
		st.close()
		return nil, err
	}
	if path != "" {
		if st.opened, err = os.Stat(path); err != nil {
			st.close()
			return nil, err
		}
	}
	return st, nil
}

// uriPath writes an absolute file path as the path of an SQLite URI
// filename: forward slashes, a drive letter after a slash, and the three
// characters a URI gives a meaning to escaped.
func uriPath(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(p)
}

func (st *store) close() error {
	st.scrub(context.Background())
	return errors.Join(st.r.Close(), st.w.Close())
}

// replaced reports whether the database file was removed or replaced
// since it was opened: another process found it damaged and made a new
// one, which this process should use too.
func (st *store) replaced() bool {
	if st.path == "" {
		return false
	}
	fi, err := os.Stat(st.path)
	return err != nil || !os.SameFile(fi, st.opened)
}

// init creates the tables of a new database.
func (st *store) init(ctx context.Context) error {
	if st.path != "" {
		var mode string
		if err := st.w.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
			return err
		}
	}
	tx, err := st.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have string
	err = tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'schema'").Scan(&have)
	switch {
	case err == nil && have == strconv.Itoa(schemaVersion):
		if err := endBulk(ctx, tx); err != nil {
			return err
		}
		return tx.Commit()
	case err == nil, errors.Is(err, sql.ErrNoRows):
		// A file named for this version holds another: it was not made
		// by piexport.
		return fmt.Errorf("%w: it says it holds version %q", errCorrupt, have)
	case strings.Contains(err.Error(), "no such table"):
	default:
		return err
	}
	for _, q := range append(slices.Clone(schema), ftsSchema(st.prepared)...) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("creating the cache: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('schema', ?)", strconv.Itoa(schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// scrub removes every trace of what a write deleted or replaced, in a
// store of prepared sessions: secure_delete has overwritten it in the
// database's pages, and FTS5's secure-delete in the index, but the
// write-ahead log still holds the pages as they were until a checkpoint
// copies them back and the log is emptied. A checkpoint that readers
// hold up is done again after the next write, or when the store closes.
func (st *store) scrub(ctx context.Context) error {
	if !st.prepared || st.path == "" || !st.dirty.Load() {
		return nil
	}
	var busy, frames, done int
	err := st.w.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &done)
	if err == nil && busy == 0 {
		st.dirty.Store(false)
	}
	return err
}
