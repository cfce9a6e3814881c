package teamcatalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// Catalog is the shared catalog as a server reads it: the sessions the
// connecting role may read (the database decides which), listed, searched
// and loaded as the local catalog's are, by the same ids (keys that tell
// nothing of who or where). It is safe for concurrent use.
type Catalog struct {
	db *DB

	mu    sync.RWMutex
	list  []catalog.Info
	byKey map[string]catalog.Info
	// seen is the list's keys and hashes, to tell a change.
	seen string
	gen  atomic.Uint64

	loadMu sync.Mutex
	loaded map[string]loadedSession // a few sessions, by key
}

type loadedSession struct {
	hash string
	s    *session.Session
	used time.Time
}

// maxLoaded bounds the sessions kept loaded.
const maxLoaded = 4

// loadTimeout bounds the reading of a session's text, which Load (as the
// server calls it) does without a context.
const loadTimeout = time.Minute

// Open connects to the shared catalog at url, checks its schema (see
// DB.Check) and lists its sessions.
func Open(ctx context.Context, url string) (*Catalog, error) {
	db, err := Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := db.Check(ctx); err != nil {
		db.Close()
		return nil, err
	}
	c := &Catalog{db: db, loaded: map[string]loadedSession{}}
	if _, err := c.Refresh(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return c, nil
}

// Where names the database for people, without its password.
func (c *Catalog) Where() string { return c.db.Where() }

// Close closes the connections.
func (c *Catalog) Close() error {
	c.db.Close()
	return nil
}

const sessionColumns = `key, owner, machine, session_id, path, cwd, parent_session, summary, size, hash, pushed`

func scanInfo(row pgx.Row) (catalog.Info, error) {
	var i catalog.Info
	var owner, machine string
	var summary []byte
	err := row.Scan(&i.ID, &owner, &machine, &i.SessionID, &i.Path, &i.Cwd, &i.ParentSession, &summary, &i.Size, &i.Hash, &i.ModTime)
	if err != nil {
		return i, err
	}
	i.Indexed = true
	// Who pushed it, and from where, head its path and its project,
	// which the index shows.
	who := owner + "@" + machine + ":"
	i.Path, i.Cwd = who+" "+i.Path, who+i.Cwd
	if err := json.Unmarshal(summary, &i.Summary); err != nil {
		return i, err
	}
	i.Branches = max(1, i.Summary.Leaves)
	return i, nil
}

// Refresh lists the sessions again, and reports whether the list changed.
func (c *Catalog) Refresh(ctx context.Context) (bool, error) {
	rows, err := c.db.pool.Query(ctx, `SELECT `+sessionColumns+` FROM piexport.sessions ORDER BY owner, machine, path`)
	if err != nil {
		return false, c.db.wrap(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (catalog.Info, error) { return scanInfo(r) })
	if err != nil {
		return false, c.db.wrap(err)
	}
	var seen bytes.Buffer
	byKey := make(map[string]catalog.Info, len(list))
	for _, i := range list {
		byKey[i.ID] = i
		seen.WriteString(i.ID + i.Hash)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if seen.String() == c.seen {
		return false, nil
	}
	c.list, c.byKey, c.seen = list, byKey, seen.String()
	c.gen.Add(1)
	return true, nil
}

// List returns the sessions as last listed.
func (c *Catalog) List() []catalog.Info {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]catalog.Info(nil), c.list...)
}

// Generation returns a number that changes whenever what List returns
// does.
func (c *Catalog) Generation() uint64 { return c.gen.Load() }

// Info returns the session with the given key, as last listed.
func (c *Catalog) Info(id string) (catalog.Info, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	i, ok := c.byKey[id]
	return i, ok
}

// Current reads the session with the given key from the database now.
func (c *Catalog) Current(ctx context.Context, id string) (catalog.Info, error) {
	i, err := scanInfo(c.db.pool.QueryRow(ctx, `SELECT `+sessionColumns+` FROM piexport.sessions WHERE key = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return i, catalog.ErrNotFound
	}
	return i, c.db.wrap(err)
}

// Stat returns the version of the session with the given key: the hash
// of its masked text.
func (c *Catalog) Stat(id string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()
	i, err := c.Current(ctx, id)
	return i.Hash, err
}

// Load returns the session with the given key, loaded from its masked
// text: from memory when it has not changed since it was last loaded.
func (c *Catalog) Load(id string) (*session.Session, catalog.Info, error) {
	ctx, cancel := context.WithTimeout(context.Background(), loadTimeout)
	defer cancel()
	info, err := c.Current(ctx, id)
	if err != nil {
		return nil, info, err
	}
	c.loadMu.Lock()
	l, ok := c.loaded[id]
	c.loadMu.Unlock()
	if ok && l.hash == info.Hash {
		return l.s, info, nil
	}
	text, err := c.db.Text(ctx, id)
	if err != nil {
		return nil, info, err
	}
	s, err := session.ReadContext(ctx, bytes.NewReader(text), info.Path)
	if err != nil {
		return nil, info, err
	}
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if len(c.loaded) >= maxLoaded {
		var oldest string
		for k, v := range c.loaded {
			if oldest == "" || v.used.Before(c.loaded[oldest].used) {
				oldest = k
			}
		}
		delete(c.loaded, oldest)
	}
	c.loaded[id] = loadedSession{hash: info.Hash, s: s, used: time.Now()}
	return s, info, nil
}

// Progress is the zero Progress: the shared catalog is filled by pushes,
// never read here.
func (c *Catalog) Progress() catalog.Progress { return catalog.Progress{} }

// Usage returns the usage rows of the sessions the role may read, from
// the day since on ("" for all), each with its session's key and
// project. Person names the role that pushed it (see UsageByPerson).
func (c *Catalog) Usage(ctx context.Context, since string) ([]usage.Record, error) {
	records, _, err := c.usage(ctx, since)
	return records, err
}

// UsageByPerson is Usage with, for each record, the role that pushed it.
func (c *Catalog) UsageByPerson(ctx context.Context, since string) ([]usage.Record, []string, error) {
	return c.usage(ctx, since)
}

func (c *Catalog) usage(ctx context.Context, since string) ([]usage.Record, []string, error) {
	if since == "" {
		since = "0001-01-01"
	}
	rows, err := c.db.pool.Query(ctx, `SELECT s.key, s.owner, s.cwd, to_char(u.day, 'YYYY-MM-DD'), u.model, u.messages,
			u.input, u.output, u.cache_read, u.cache_write, u.cost
		FROM piexport.usage u JOIN piexport.sessions s ON s.sid = u.sid
		WHERE u.day >= $1::date`, since)
	if err != nil {
		return nil, nil, c.db.wrap(err)
	}
	defer rows.Close()
	var out []usage.Record
	var people []string
	for rows.Next() {
		var r usage.Record
		var owner string
		if err := rows.Scan(&r.Session, &owner, &r.Project, &r.Day, &r.Model, &r.Messages,
			&r.Input, &r.Output, &r.CacheRead, &r.CacheWrite, &r.Cost); err != nil {
			return nil, nil, c.db.wrap(err)
		}
		out, people = append(out, r), append(people, owner)
	}
	return out, people, c.db.wrap(rows.Err())
}

// Text returns the masked text of the session with the given key, as its
// parts join, or catalog.ErrNotFound for a session the role may not read.
func (db *DB) Text(ctx context.Context, key string) ([]byte, error) {
	var text []byte
	err := db.pool.QueryRow(ctx, `SELECT coalesce(string_agg(p.data, ''::bytea ORDER BY p.off), ''::bytea)
		FROM piexport.sessions s JOIN piexport.parts p ON p.sid = s.sid WHERE s.key = $1 GROUP BY s.sid`, key).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, catalog.ErrNotFound
	}
	if err != nil {
		return nil, db.wrap(err)
	}
	return text, nil
}
