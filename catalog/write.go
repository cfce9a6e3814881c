package catalog

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/usage"
)

// Entry rows are keyed by time: the key is the entry's time in Unix
// milliseconds shifted left by keyShift bits, with the low bits telling
// apart the entries of one millisecond (ten bits of the file's id, ten of a
// counter). Searching in key order is then searching newest first, and a
// date filter is a key range, which FTS5 answers without reading the rest.
const (
	keyShift = 20
	maxMilli = 1<<(63-keyShift) - 1
)

func keyBase(ms, fid int64) int64 {
	ms = min(max(ms, 0), maxMilli)
	return ms<<keyShift | (fid&0x3ff)<<10
}

// errChanged says another process wrote the file's rows since they were
// read: the work is done again from what the store holds now.
var errChanged = errors.New("the file's rows changed meanwhile")

// batch is a write transaction that stores several files. FTS5 flushes
// its in-memory index at every commit (and every savepoint), making a
// segment that later has to be merged with the others; committing many
// files at once makes fewer, larger segments (measured on a generated
// history: a commit per file spent 35% of indexing time merging).
type batch struct {
	st    *store
	tx    *sql.Tx
	files int
	bytes int64
	began time.Time
	// texts wait for the commit, to be indexed in the order of their
	// rowids: FTS5 also flushes whenever a rowid is lower than the one
	// before.
	texts []ftsText
	// terms and the counts are what the batch adds to the terms and
	// counts tables (see termstats.go).
	terms          termCounts
	entries, words int64
	// gate, when set, is waited at before each text is indexed: indexing
	// a batch takes a second or more, which searches would otherwise
	// share the cores with.
	gate *searchGate
}

type ftsText struct {
	rid  int64
	text string
}

func (st *store) begin(ctx context.Context) (*batch, error) {
	tx, err := st.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &batch{st: st, tx: tx, began: time.Now()}, nil
}

// commit indexes the batch's texts and commits it.
func (b *batch) commit() error {
	if len(b.texts) > 0 {
		slices.SortFunc(b.texts, func(x, y ftsText) int { return cmp.Compare(x.rid, y.rid) })
		ins, err := b.tx.Prepare(`INSERT INTO fts(rowid, text) VALUES(?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, t := range b.texts {
			if b.gate != nil {
				b.gate.wait(context.Background())
			}
			if _, err := ins.Exec(t.rid, t.text); err != nil {
				return err
			}
		}
		b.texts = nil
	}
	if err := b.writeTerms(); err != nil {
		return err
	}
	if err := b.tx.Commit(); err != nil {
		return err
	}
	// What the batch replaced may hold what is now masked: it goes from
	// the log too. A scrub that fails leaves the store dirty, for the
	// next one.
	b.st.scrub(context.Background())
	return nil
}

// writeTerms adds the batch's word counts to the terms table, and its
// entries and words to the counts.
func (b *batch) writeTerms() error {
	if kept := b.terms.kept(); len(kept) > 0 {
		up, err := b.tx.Prepare(`INSERT INTO terms(term, df) VALUES(?, ?)
			ON CONFLICT(term) DO UPDATE SET df = df + excluded.df`)
		if err != nil {
			return err
		}
		defer up.Close()
		for _, t := range kept {
			if _, err := up.Exec(t.word, int64(t.n)*dfSample); err != nil {
				return err
			}
		}
	}
	b.terms = nil
	if b.entries != 0 || b.words != 0 {
		if _, err := b.tx.Exec(`UPDATE counts SET entries = entries + ?, words = words + ?`, b.entries, b.words); err != nil {
			return err
		}
		b.entries, b.words = 0, 0
	}
	return nil
}
func (b *batch) rollback() { b.tx.Rollback() }

// write stores one file in its own transaction (see batch.add).
func (st *store) write(ctx context.Context, d *fileData) error {
	b, err := st.begin(ctx)
	if err != nil {
		return err
	}
	defer b.rollback()
	if err := b.add(ctx, d); err != nil {
		return err
	}
	return b.commit()
}

// add stores what reading a file gave. Another process sharing the store
// may have stored the same state of the file meanwhile; then nothing is
// written. An appended read whose starting point is no longer what the
// store holds fails with errChanged before writing anything; after any
// other error the batch must be rolled back.
func (b *batch) add(ctx context.Context, d *fileData) error {
	if err := b.addFile(ctx, d); err != nil {
		return err
	}
	b.files++
	b.bytes += d.textBytes()
	return nil
}

func (b *batch) addFile(ctx context.Context, d *fileData) error {
	tx := b.tx
	r := &d.row
	var (
		fid      int64
		cur      stamp
		sum      []byte
		readSize int64
		lines    int
		exists   = true
	)
	err := tx.QueryRowContext(ctx, `SELECT fid, size, mtime, ctime, inode, sha256, read_size, lines FROM files WHERE path = ?`, r.Path).
		Scan(&fid, &cur.Size, &cur.MTime, &cur.CTime, &cur.Inode, &sum, &readSize, &lines)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		exists = false
	case err != nil:
		return err
	}
	switch {
	case d.appended && (!exists || fid != r.FID):
		return errChanged
	case d.appended && cur == r.Stamp && readSize == r.ReadSize:
		return nil // stored by another process
	case d.appended && (readSize != d.fromSize || lines != d.fromLines):
		return errChanged
	case !d.appended && !d.again && exists && cur == r.Stamp && string(sum) == string(r.Sum[:]):
		r.FID = fid
		return nil // stored by another process
	case exists && cur.Inode == r.Stamp.Inode && cur.CTime > r.Stamp.CTime:
		// Another process stored a later state of the file; this read
		// started before it.
		return errChanged
	}

	summary, err := json.Marshal(r.Summary)
	if err != nil {
		return err
	}
	cols := []any{r.Stamp.Size, r.Stamp.MTime, r.Stamp.CTime, int64(r.Stamp.Inode), r.Sum[:], r.State, r.Anchor[:],
		r.ReadSize, r.Lines, r.Tail, r.Header, r.SessionID, r.Cwd, r.ParentSession, r.Name, r.FirstTitle,
		summary, r.Summary.Start.UnixMilli(), r.Summary.End.UnixMilli(), strings.Join(r.Summary.Models, "\n"),
		r.Branches, r.Warnings, r.Err}
	const set = `size=?, mtime=?, ctime=?, inode=?, sha256=?, state=?, anchor=?, read_size=?, lines=?, tail=?,
		header=?, session_id=?, cwd=?, parent_session=?, name=?, first_title=?, summary=?, start_ms=?, end_ms=?,
		models=?, branches=?, warnings=?, err=?`
	switch {
	case !exists:
		res, err := tx.ExecContext(ctx, `INSERT INTO files(path, size, mtime, ctime, inode) VALUES(?, 0, 0, 0, 0)`, r.Path)
		if err != nil {
			return err
		}
		if fid, err = res.LastInsertId(); err != nil {
			return err
		}
	case !d.appended:
		if b.st.prepared {
			b.st.dirty.Store(true)
		}
		if err := b.forget(ctx, fid); err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM fts WHERE rowid IN (SELECT rid FROM entries WHERE fid = ?)`,
			`DELETE FROM entries WHERE fid = ?`,
			`DELETE FROM usage WHERE fid = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, fid); err != nil {
				return err
			}
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE files SET `+set+` WHERE fid = ?`, append(cols, fid)...); err != nil {
		return err
	}
	if err := b.writeEntries(ctx, fid, d.entries); err != nil {
		return err
	}
	// A store of prepared sessions keeps no words of its own: a word
	// found to be a secret only once a file grew must not stay in the
	// cache (see store.scrub), and the terms table's counts outlive the
	// entries they came from.
	if len(d.terms) > 0 && !b.st.prepared {
		if b.terms == nil {
			b.terms = termCounts{}
		}
		b.terms.add(d.terms)
	}
	if err := writeUsage(ctx, tx, fid, d.usage); err != nil {
		return err
	}
	r.FID = fid
	return nil
}

// forget takes a file's entries out of the counts, before they are
// deleted. The terms table keeps them: its counts are estimates that a
// file read again only raises a little.
func (b *batch) forget(ctx context.Context, fid int64) error {
	var n, words int64
	err := b.tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(words), 0) FROM entries WHERE fid = ? AND kind != ''`, fid).Scan(&n, &words)
	if err != nil {
		return err
	}
	b.entries -= n
	b.words -= words
	return nil
}

// textBytes is how much text d adds to the index.
func (d *fileData) textBytes() int64 {
	var n int64
	for _, e := range d.entries {
		n += int64(len(e.Text))
	}
	return n
}

// writeEntries inserts a file's entries and queues their texts.
func (b *batch) writeEntries(ctx context.Context, fid int64, entries []entryRow) error {
	if len(entries) == 0 {
		return nil
	}
	ins, err := b.tx.PrepareContext(ctx, `INSERT INTO entries(rid, fid, line, part, id, parent, branch, kind, off, len, words, tf)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(rid) DO NOTHING`)
	if err != nil {
		return err
	}
	defer ins.Close()
	next := map[int64]int64{} // the next counter to try, by millisecond
	for _, e := range entries {
		base := keyBase(e.Time, fid)
		kind := e.Kind
		if e.Text == "" {
			kind = ""
		}
		var rid int64
		for {
			n := next[base]
			if n >= 1<<10 {
				// A thousand entries in one millisecond: the next one
				// takes the next millisecond's keys.
				base += 1 << keyShift
				continue
			}
			next[base] = n + 1
			rid = base | n
			res, err := ins.ExecContext(ctx, rid, fid, e.Line, e.Part, e.ID, e.Parent, e.Branch, kind, e.Off, e.Len, e.Words, e.TF)
			if err != nil {
				return err
			}
			if k, err := res.RowsAffected(); err != nil {
				return err
			} else if k == 1 {
				break
			}
			// Another file's entry of the same millisecond whose id has the
			// same low bits: try the next counter.
		}
		if kind != "" {
			b.texts = append(b.texts, ftsText{rid, e.Text})
			b.entries++
			b.words += int64(e.Words)
		}
	}
	return nil
}

func writeUsage(ctx context.Context, tx *sql.Tx, fid int64, rows []usage.Record) error {
	for _, u := range rows {
		_, err := tx.ExecContext(ctx, `INSERT INTO usage(fid, day, model, messages, input, output, cache_read, cache_write, cost)
			VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(fid, day, model) DO UPDATE SET messages = messages + excluded.messages,
				input = input + excluded.input, output = output + excluded.output,
				cache_read = cache_read + excluded.cache_read, cache_write = cache_write + excluded.cache_write,
				cost = cost + excluded.cost`,
			fid, u.Day, u.Model, u.Messages, u.Input, u.Output, u.CacheRead, u.CacheWrite, u.Cost)
		if err != nil {
			return err
		}
	}
	return nil
}
