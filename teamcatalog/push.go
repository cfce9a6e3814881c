package teamcatalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// PushOptions configure Push.
type PushOptions struct {
	// Machine names the machine the files are on; with the pushing role,
	// it keeps two people's and two machines' sessions apart.
	Machine string
	// Visibility is "team" (every member reads the sessions) or
	// "private" (only their owner does); "" is "team".
	Visibility string
	// Redactor masks every session before anything of it is sent. It
	// must be set: the database never sees an unmasked byte.
	Redactor *redact.Redactor
	// Progress, when set, hears how far the push is after each file.
	Progress func(PushProgress)
	// Warn receives what was wrong with a file that was left out.
	Warn func(string)
}

// PushProgress says how far a push is.
type PushProgress struct {
	Files, Done      int
	Bytes, BytesDone int64
}

// PushStats say what a push did.
type PushStats struct {
	// Sessions counts the sessions sent, New those the database did not
	// hold, Appended those of which only what was appended was sent, and
	// Unchanged those left as they were. Bytes counts the masked bytes
	// sent.
	Sessions, New, Appended, Unchanged, Failed int
	Bytes                                      int64
}

// partBytes bounds one part of a session's text.
const partBytes = 4 << 20

// pushed is what the database holds of one of this machine's sessions.
type pushed struct {
	sid         int64
	sessionID   string
	source      string
	sourceSize  int64
	sourceMtime time.Time
	size        int64
	hash        string
	lines       int
	visibility  string
}

// Push sends the session files to the database, masked (see maskFile):
// a file not pushed before whole, one that only grew by what was
// appended, one unchanged not at all. Each session goes in one
// transaction, so that a push stopped at any point (ctx) leaves every
// session as it was or as it is now, and the next push sends what is
// left.
func (db *DB) Push(ctx context.Context, files []string, opt PushOptions) (PushStats, error) {
	var stats PushStats
	if opt.Redactor == nil {
		return stats, errors.New("teamcatalog: a push needs a Redactor")
	}
	if opt.Visibility == "" {
		opt.Visibility = "team"
	}
	if opt.Visibility != "team" && opt.Visibility != "private" {
		return stats, fmt.Errorf("the visibility %q is neither team nor private", opt.Visibility)
	}
	var owner string
	if err := db.pool.QueryRow(ctx, `SELECT current_user`).Scan(&owner); err != nil {
		return stats, db.wrap(err)
	}
	known, err := db.pushedFrom(ctx, opt.Machine)
	if err != nil {
		return stats, err
	}
	prog := PushProgress{Files: len(files)}
	sizes := make([]int64, len(files))
	for i, f := range files {
		if fi, err := os.Stat(f); err == nil {
			sizes[i] = fi.Size()
			prog.Bytes += fi.Size()
		}
	}
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return stats, err
		}
		err := db.pushFile(ctx, path, owner, known, opt, &stats)
		if err != nil && (ctx.Err() != nil || errors.Is(err, ErrUnreachable)) {
			return stats, err
		}
		if err != nil {
			stats.Failed++
			if opt.Warn != nil {
				opt.Warn(err.Error())
			}
		}
		prog.Done++
		prog.BytesDone += sizes[i]
		if opt.Progress != nil {
			opt.Progress(prog)
		}
	}
	return stats, nil
}

// pushedFrom is what the database holds of the pushing role's sessions
// from machine, by source (see sourceKey) and by session id.
func (db *DB) pushedFrom(ctx context.Context, machine string) (map[string]*pushed, error) {
	rows, err := db.pool.Query(ctx, `SELECT sid, session_id, source, source_size, source_mtime, size, hash, lines, visibility
		FROM piexport.sessions WHERE owner = current_user AND machine = $1`, machine)
	if err != nil {
		return nil, db.wrap(err)
	}
	known := map[string]*pushed{}
	for rows.Next() {
		p := &pushed{}
		if err := rows.Scan(&p.sid, &p.sessionID, &p.source, &p.sourceSize, &p.sourceMtime, &p.size, &p.hash, &p.lines, &p.visibility); err != nil {
			rows.Close()
			return nil, db.wrap(err)
		}
		known["src:"+p.source] = p
		known["id:"+p.sessionID] = p
	}
	return known, db.wrap(rows.Err())
}

// sourceKey names a file on its machine without telling its path.
func sourceKey(machine, path string) string {
	sum := sha256.Sum256([]byte(machine + "\x00" + path))
	return hex.EncodeToString(sum[:16])
}

// sessionKey is the id the server addresses a session by.
func sessionKey(owner, machine, sessionID string) string {
	sum := sha256.Sum256([]byte(owner + "\x00" + machine + "\x00" + sessionID))
	return hex.EncodeToString(sum[:8])
}

func (db *DB) pushFile(ctx context.Context, path, owner string, known map[string]*pushed, opt PushOptions, stats *PushStats) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return err
	}
	source := sourceKey(opt.Machine, real)
	mtime := fi.ModTime().UTC().Truncate(time.Microsecond) // as PostgreSQL keeps it
	if p := known["src:"+source]; p != nil && p.sourceSize == fi.Size() && p.sourceMtime.Equal(mtime) && p.visibility == opt.Visibility {
		stats.Unchanged++
		return nil
	}
	raw, err := os.ReadFile(real)
	if err != nil {
		return err
	}
	s, err := session.ReadContext(ctx, bytes.NewReader(raw), path)
	if err != nil {
		return err
	}
	var family []*session.Session
	for _, p := range session.Family(real) {
		if p == real {
			continue
		}
		if fs, err := session.LoadContext(ctx, p); err == nil {
			family = append(family, fs)
		}
	}
	masked := maskFile(opt.Redactor, raw, s, family)
	sessionID := "file-" + source
	if s.Header != nil && s.Header.ID != "" {
		sessionID = s.Header.ID // masked: an id that holds a secret is masked too
	}
	prev := known["id:"+sessionID]
	if prev == nil {
		prev = known["src:"+source]
	}
	row := sessionRow{
		key: sessionKey(owner, opt.Machine, sessionID), machine: opt.Machine, sessionID: sessionID,
		visibility: opt.Visibility, source: source, sourceSize: fi.Size(), sourceMtime: mtime,
		path: opt.Redactor.Text(real), text: masked, lines: bytes.Count(masked, []byte("\n")),
	}
	if s.Header != nil {
		row.cwd, row.parentSession = s.Header.Cwd, s.Header.ParentSession
	}
	sum := sha256.Sum256(masked)
	row.hash = hex.EncodeToString(sum[:])
	summary := s.Summarize()
	if row.summary, err = json.Marshal(summary); err != nil {
		return err
	}
	records := usage.Tally(s.Entries, summary.Start)

	from := 0 // the first byte to send
	if prev != nil && prev.visibility == opt.Visibility && prev.size <= int64(len(masked)) && prev.source == source {
		head := sha256.Sum256(masked[:prev.size])
		if hex.EncodeToString(head[:]) == prev.hash {
			from = int(prev.size)
		}
	}
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var err error
		if from > 0 {
			err = appendSession(ctx, tx, prev, row, from, s, records)
		} else {
			if prev != nil {
				if _, err := tx.Exec(ctx, `DELETE FROM piexport.sessions WHERE sid = $1`, prev.sid); err != nil {
					return err
				}
			}
			err = insertSession(ctx, tx, row, s, records)
		}
		if err == nil && inTransaction != nil {
			inTransaction(ctx)
		}
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%s: %w", path, db.wrap(err))
	}
	stats.Sessions++
	stats.Bytes += int64(len(masked) - from)
	switch {
	case prev == nil:
		stats.New++
	case from > 0:
		stats.Appended++
	}
	p := &pushed{sessionID: sessionID, source: source, sourceSize: row.sourceSize, sourceMtime: mtime,
		size: int64(len(masked)), hash: row.hash, lines: row.lines, visibility: opt.Visibility}
	if prev != nil && from > 0 {
		p.sid = prev.sid
	}
	known["src:"+source], known["id:"+sessionID] = p, p
	return nil
}

// sessionRow is a session as the sessions table holds it.
type sessionRow struct {
	key, machine, sessionID, visibility, source string
	sourceSize                                  int64
	sourceMtime                                 time.Time
	path, cwd, parentSession                    string
	summary                                     []byte
	text                                        []byte
	hash                                        string
	lines                                       int
}

func insertSession(ctx context.Context, tx pgx.Tx, row sessionRow, s *session.Session, records []usage.Record) error {
	var sid int64
	err := tx.QueryRow(ctx, `INSERT INTO piexport.sessions (key, machine, session_id, visibility, source, source_size,
			source_mtime, path, cwd, parent_session, summary, size, hash, lines)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING sid`,
		row.key, row.machine, row.sessionID, row.visibility, row.source, row.sourceSize, row.sourceMtime,
		row.path, row.cwd, row.parentSession, row.summary, len(row.text), row.hash, row.lines).Scan(&sid)
	if err != nil {
		return err
	}
	if err := insertParts(ctx, tx, sid, row.visibility, row.text, 0); err != nil {
		return err
	}
	if err := insertEntries(ctx, tx, sid, row.visibility, s.Entries); err != nil {
		return err
	}
	return insertUsage(ctx, tx, sid, row.visibility, records)
}

// appendSession sends what was appended to a session pushed before: the
// text from byte from on, the entries of the lines after those pushed,
// and its summary and usage anew (a few rows).
func appendSession(ctx context.Context, tx pgx.Tx, prev *pushed, row sessionRow, from int, s *session.Session, records []usage.Record) error {
	_, err := tx.Exec(ctx, `UPDATE piexport.sessions SET source_size = $2, source_mtime = $3, path = $4, cwd = $5,
			parent_session = $6, summary = $7, size = $8, hash = $9, lines = $10, pushed = now()
		WHERE sid = $1`,
		prev.sid, row.sourceSize, row.sourceMtime, row.path, row.cwd, row.parentSession, row.summary,
		len(row.text), row.hash, row.lines)
	if err != nil {
		return err
	}
	if err := insertParts(ctx, tx, prev.sid, row.visibility, row.text[from:], int64(from)); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM piexport.entries WHERE sid = $1 AND line > $2`, prev.sid, prev.lines); err != nil {
		return err
	}
	i, _ := slices.BinarySearchFunc(s.Entries, prev.lines+1, func(e *session.Entry, line int) int { return e.Line - line })
	if err := insertEntries(ctx, tx, prev.sid, row.visibility, s.Entries[i:]); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM piexport.usage WHERE sid = $1`, prev.sid); err != nil {
		return err
	}
	return insertUsage(ctx, tx, prev.sid, row.visibility, records)
}

func insertParts(ctx context.Context, tx pgx.Tx, sid int64, visibility string, text []byte, off int64) error {
	var rows [][]any
	for len(text) > 0 {
		n := min(len(text), partBytes)
		rows = append(rows, []any{sid, visibility, off, text[:n]})
		text, off = text[n:], off+int64(n)
	}
	return copyRows(ctx, tx, "parts", []string{"sid", "visibility", "off", "data"}, pgx.CopyFromRows(rows))
}

// insertEntries sends the index rows of entries: each entry's text as the
// local catalog indexes it, and its words as a tsvector.
func insertEntries(ctx context.Context, tx pgx.Tx, sid int64, visibility string, entries []*session.Entry) error {
	k := 0
	src := pgx.CopyFromFunc(func() ([]any, error) {
		for ; k < len(entries); k++ {
			e := entries[k]
			role, text := catalog.EntryText(e)
			if text == "" {
				continue
			}
			k++
			var at pgtype.Timestamptz
			if !e.Time.IsZero() {
				at = pgtype.Timestamptz{Time: e.Time, Valid: true}
			}
			return []any{sid, visibility, e.Line, e.Part, e.ID, role, at, 0, text, wordVector(catalog.Words(text))}, nil
		}
		return nil, nil
	})
	return copyRows(ctx, tx, "entries",
		[]string{"sid", "visibility", "line", "part", "entry_id", "role", "at", "branch", "text", "words"}, src)
}

func insertUsage(ctx context.Context, tx pgx.Tx, sid int64, visibility string, records []usage.Record) error {
	rows := make([][]any, len(records))
	for i, r := range records {
		rows[i] = []any{sid, visibility, r.Day, r.Model, r.Messages, r.Input, r.Output, r.CacheRead, r.CacheWrite, r.Cost}
	}
	return copyRows(ctx, tx, "usage",
		[]string{"sid", "visibility", "day", "model", "messages", "input", "output", "cache_read", "cache_write", "cost"},
		pgx.CopyFromRows(rows))
}

// copyRows writes rows into the table of the schema with COPY, which
// PostgreSQL refuses on a table with row-level security: they are copied
// into a temporary table of the same columns, and inserted from there,
// under the table's policies.
func copyRows(ctx context.Context, tx pgx.Tx, table string, columns []string, src pgx.CopyFromSource) error {
	temp := "incoming_" + table
	_, err := tx.Exec(ctx, `CREATE TEMP TABLE IF NOT EXISTS `+temp+` (LIKE piexport.`+table+` INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`)
	if err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{temp}, columns, src); err != nil {
		return err
	}
	list := strings.Join(columns, ", ")
	_, err = tx.Exec(ctx, `INSERT INTO piexport.`+table+` (`+list+`) SELECT `+list+` FROM `+temp)
	return err
}

// PostgreSQL's limits on a tsvector's positions: a lexeme keeps at most
// maxPositions of them, and none is above maxPosition.
const (
	maxPositions = 256
	maxPosition  = 16383
)

// wordVector is a tsvector of words, as the local catalog makes them:
// the engine does not split or fold them again.
func wordVector(words []string) pgtype.TSVector {
	at := map[string][]pgtype.TSVectorPosition{}
	for i, w := range words {
		pos := min(i+1, maxPosition)
		if list := at[w]; len(list) < maxPositions && (len(list) == 0 || list[len(list)-1].Position != uint16(pos)) {
			at[w] = append(list, pgtype.TSVectorPosition{Position: uint16(pos)})
		}
	}
	v := pgtype.TSVector{Valid: true, Lexemes: make([]pgtype.TSVectorLexeme, 0, len(at))}
	for w, list := range at {
		v.Lexemes = append(v.Lexemes, pgtype.TSVectorLexeme{Word: w, Positions: list})
	}
	slices.SortFunc(v.Lexemes, func(a, b pgtype.TSVectorLexeme) int {
		return strings.Compare(a.Word, b.Word)
	})
	return v
}

// inTransaction, when set (by tests), is called in each session's
// transaction once its rows are written, before it commits.
var inTransaction func(ctx context.Context)
