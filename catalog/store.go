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
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// schemaVersion names the layout of the cache database. It is part of the
// files' names, so a piexport that expects another layout never opens
// these: two versions of the program can share a cache directory.
const schemaVersion = 2

// shards is how many databases the catalog's files are spread over, by a
// hash of their path. SQLite writes one transaction at a time per
// database, and FTS5 indexing is most of the work of reading a history: with
// two, both cores of a small machine index at once (measured, see the
// commit that made them). A search asks every shard.
const shards = 2

// dbName is the file name of a shard of the cache database. A catalog that
// prepares sessions (see Options.Prepare) keeps its own.
func dbName(prepareKey string, shard int) string {
	if prepareKey == "" {
		return fmt.Sprintf("catalog-v%d.%d.db", schemaVersion, shard)
	}
	sum := sha256.Sum256([]byte(prepareKey))
	return fmt.Sprintf("catalog-v%d-%x.%d.db", schemaVersion, sum[:6], shard)
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
	// path is the database file, "" for one held in memory.
	path string
	// opened is the database file as it was opened, to notice when another
	// process replaced it (after finding it corrupt).
	opened os.FileInfo
	w, r   *sql.DB
}

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
// prepareKey says, creating it if needed, or one in memory when dir is "". program identifies the piexport that fills it: a
// database last filled by another program is emptied, since what it indexed
// may differ. A database that is damaged is removed and made anew; warning
// then says so.
func openStore(ctx context.Context, dir, program, prepareKey string, shard int) (st *store, warning string, err error) {
	defer func() {
		if st != nil {
			st.shard = shard
		}
	}()
	if dir == "" {
		st, err = openDB(ctx, "", program)
		return st, "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, "", fmt.Errorf("cache directory: %w", err)
	}
	path := filepath.Join(dir, dbName(prepareKey, shard))
	if err := checkHeader(path); err != nil {
		warning = fmt.Sprintf("%s: %v; it is rebuilt from the session files", path, err)
		if err := removeDB(path); err != nil {
			return nil, "", err
		}
	}
	st, err = openDB(ctx, path, program)
	if err != nil && isCorrupt(err) {
		warning = fmt.Sprintf("%s: %v; it is rebuilt from the session files", path, errCorrupt)
		if err := removeDB(path); err != nil {
			return nil, "", err
		}
		st, err = openDB(ctx, path, program)
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return st, warning, nil
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
		return fmt.Errorf("%w: %d bytes, shorter than a header", errCorrupt, fi.Size())
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
		return fmt.Errorf("%w: %d bytes where its header says %d", errCorrupt, fi.Size(), pages*pageSize)
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

func openDB(ctx context.Context, path, program string) (*store, error) {
	st := &store{path: path}
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
	common := fmt.Sprintf("&_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)&_pragma=temp_store(MEMORY)", busyTimeout)
	var err error
	// Writes begin IMMEDIATE: a transaction that reads and then writes
	// would otherwise fail with "database is locked" when another process
	// wrote in between, instead of waiting its turn.
	if st.w, err = sql.Open("sqlite", dsn+common+"&_txlock=immediate"); err != nil {
		return nil, err
	}
	st.w.SetMaxOpenConns(1)
	st.w.SetConnMaxIdleTime(0)
	if st.r, err = sql.Open("sqlite", dsn+common+"&_pragma=query_only(1)"); err != nil {
		st.w.Close()
		return nil, err
	}
	st.r.SetMaxOpenConns(4)
	if err := st.init(ctx, program); err != nil {
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

// init creates the tables of a new database, and empties one that another
// program filled.
func (st *store) init(ctx context.Context, program string) error {
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
	err = tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'program'").Scan(&have)
	switch {
	case err == nil && have == program:
		return tx.Commit()
	case err == nil:
		// Filled by another piexport: what it indexed and how may
		// differ, so every file is read again.
		for _, q := range []string{
			"DELETE FROM files", "DELETE FROM entries", "DELETE FROM usage",
			"INSERT INTO fts(fts) VALUES('delete-all')",
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	case errors.Is(err, sql.ErrNoRows) || strings.Contains(err.Error(), "no such table"):
		for _, q := range schema {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("creating the cache: %w", err)
			}
		}
	default:
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES('program', ?)", program); err != nil {
		return err
	}
	return tx.Commit()
}
