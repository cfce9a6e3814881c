package catalog

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/piexport/piexport/session"
)

// Hit is one entry that matches a query.
type Hit struct {
	// Key is the session's id in the catalog.
	Key     string
	EntryID string
	// Role says what the text is: "user", "assistant", "tool", "bash",
	// "summary", "name", "custom".
	Role string
	// Snippet is the part of the entry's text around the first match, on
	// one line, with "…" where it was cut; "" when the file changed since
	// it was indexed. Marks are the byte ranges [start, end) of Snippet
	// that match the query, in order and not overlapping.
	Snippet string
	Marks   [][2]int
	// Branch is the number of the branch the entry is on, Branches the
	// number of branches of its session: branches are numbered in the
	// order they begin in the file.
	Branch, Branches int
	// Line is the entry's line in the file, Time its time.
	Line int
	Time time.Time
}

// Results are the answer to a query.
type Results struct {
	// Hits are the matches asked for, best first: those ranked Offset to
	// Offset+len(Hits)-1, counted from 0.
	Hits   []Hit
	Offset int
	// Total counts the matching entries and Sessions the sessions they
	// are in. More says that more entries match than were looked at:
	// ranking looks at the newest maxCandidates, and Total is then a lower
	// bound. Oldest is the time of the oldest entry ranked: older matches
	// are found by searching before it.
	Total, Sessions int
	More            bool
	// Unread counts the session files found but not read yet (the
	// catalog is being filled, or rebuilt after damage): their entries
	// are not searched, so the results may be incomplete. ReadBack says
	// how far back the search reached then (see Catalog.ReadBack).
	Unread   int
	ReadBack time.Time
	Oldest   time.Time
	// Notes say, in a sentence each, where the query was read otherwise
	// than it was written: a prefix that stood for its commonest words.
	Notes []string
	// Words are the words the hits hold, folded as the index folds them,
	// a prefix with * after it: for a page to mark them.
	Words []string
}

// maxCandidates bounds the matching entries a search ranks, newest first:
// a word in every session would otherwise cost time in proportion to the
// whole history. The entries of a search that finds more are ranked among
// the newest ones.
const maxCandidates = 1000

// Search runs q (see query for its syntax) over every session of the
// catalog and returns the best limit hits, ranked by BM25 among the
// newest matching entries. An empty query matches nothing. It stops when
// ctx is done; the error says what cut the results short, if anything: a
// shard that fails leaves the others' hits, which are returned with it.
func (c *Catalog) Search(ctx context.Context, q string, limit int) (Results, error) {
	return c.SearchPage(ctx, q, 0, limit)
}

// SearchPage is Search for the hits ranked offset to
// offset+limit-1: the pages after the first of a search's results.
func (c *Catalog) SearchPage(ctx context.Context, q string, offset, limit int) (Results, error) {
	c.searches.enter()
	defer c.searches.leave()
	pq := parseQuery(q)
	var res Results
	for _, ts := range [][]queryTerm{pq.terms, pq.not} {
		for i := range ts {
			if !ts[i].prefix {
				continue
			}
			cut, err := c.expand(ctx, &ts[i])
			if err != nil {
				return Results{}, err
			}
			if cut {
				res.Notes = append(res.Notes, fmt.Sprintf("%s* stands for the %s that start with %q.",
					strings.Join(ts[i].words, " "), session.Count(maxExpansions, "commonest word", "commonest words"),
					ts[i].words[len(ts[i].words)-1]))
			}
		}
	}
	expr := pq.expr()
	if expr == "" {
		return res, nil
	}
	for _, t := range pq.terms {
		res.Words = append(res.Words, t.words...)
		if t.prefix {
			res.Words[len(res.Words)-1] += "*"
		}
	}
	files, unread := c.searchable(pq)
	lo, hi := int64(0), int64(1<<63-1)
	if !pq.after.IsZero() {
		lo = keyBase(pq.after.UnixMilli(), 0)
	}
	if !pq.before.IsZero() {
		hi = keyBase(pq.before.UnixMilli(), 0)
	}
	// The candidates of every shard, newest first, found at once, with
	// what ranking needs of each shard; the newest maxCandidates of them
	// all are ranked.
	var cands [shards][]candidate
	var more [shards]bool
	var stopped [shards]int64
	var figs [shards]shardFigures
	var errs [shards]error
	var wg sync.WaitGroup
	deadline := time.Now().Add(c.walk.budget)
	for i := range shards {
		wg.Go(func() {
			defer recoverAs(&errs[i], "searching")
			cands[i], more[i], stopped[i], errs[i] = c.candidates(ctx, i, expr, lo, hi, files, deadline)
			if errs[i] == nil {
				figs[i], errs[i] = c.figures(ctx, i, pq.terms)
			}
		})
	}
	wg.Wait()
	// A shard that fails leaves the others' hits, returned with its
	// error.
	failed := errors.Join(errs[:]...)
	if err := ctx.Err(); err != nil {
		return Results{}, cmp.Or(failed, err)
	}
	for i := range shards {
		if errs[i] != nil {
			cands[i], more[i], figs[i] = nil, false, shardFigures{}
		}
	}
	all := slices.Concat(cands[:]...)
	slices.SortFunc(all, func(a, b candidate) int { return cmp.Compare(b.rid, a.rid) })
	res.Unread = unread
	if unread > 0 {
		res.ReadBack = c.ReadBack()
	}
	res.More = slices.Contains(more[:], true) || len(all) > maxCandidates
	all = all[:min(len(all), maxCandidates)]
	// A shard that stopped at its deadline looked through the keys above
	// where it stopped: the others' older candidates go too, so that the
	// results cover one span of time, which the last page says.
	var stoppedAt time.Time // zero when the search looked through every key
	if stop := slices.Max(stopped[:]); stop > 0 {
		// (A search stopped before its first window had no upper bound
		// but now.)
		stop = min(stop, keyBase(time.Now().Add(24*time.Hour).UnixMilli(), 0))
		all = slices.DeleteFunc(all, func(k candidate) bool { return k.rid < stop })
		res.More = true
		stoppedAt = time.UnixMilli(stop >> keyShift)
	}
	// Then the rows of those ranked, each shard's at once.
	for i := range shards {
		wg.Go(func() {
			defer recoverAs(&errs[i], "searching")
			errs[i] = c.entryRows(ctx, i, all, false)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Results{}, err
	}
	failed = errors.Join(failed, errors.Join(errs[:]...))
	// An entry deleted since FTS5 listed it has no row; nor has one of
	// a shard whose rows could not be read.
	all = slices.DeleteFunc(all, func(k candidate) bool { return files[k.gid] == nil })
	res.Total = len(all)
	sessions := map[int64]bool{}
	for _, k := range all {
		sessions[k.gid] = true
	}
	res.Sessions = len(sessions)
	if len(all) > 0 {
		res.Oldest = time.UnixMilli(all[len(all)-1].rid >> keyShift)
	}
	if !stoppedAt.IsZero() {
		res.Oldest = stoppedAt
		res.Notes = append(res.Notes, "The search stopped at "+stoppedAt.Format(time.DateOnly)+
			": looking further back took too long; the last page links to the older matches.")
	}

	terms, avgdl := rankTerms(pq.terms, figs[:])
	for i := range all {
		all[i].score = score(terms, all[i].words, all[i].tf, avgdl)
	}
	// Best first; among equals, the newer.
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
	res.Offset = max(offset, 0)
	hits := slices.Clone(all[min(res.Offset, len(all)):min(res.Offset+max(limit, 0), len(all))])
	// And what the hits show.
	for i := range shards {
		wg.Go(func() {
			defer recoverAs(&errs[i], "searching")
			errs[i] = c.entryRows(ctx, i, hits, true)
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Results{}, err
	}
	failed = errors.Join(failed, errors.Join(errs[:]...))
	hits = slices.DeleteFunc(hits, func(k candidate) bool { return files[k.gid] == nil })

	res.Hits = make([]Hit, len(hits))
	for i, k := range hits {
		r := files[k.gid]
		h := &res.Hits[i]
		*h = Hit{Key: r.id, EntryID: k.id, Role: k.kind, Branch: k.branch, Line: k.line,
			Time: time.UnixMilli(k.rid >> keyShift)}
		if r.row != nil {
			h.Branches = r.row.Branches
		}
	}
	snippetTerms := pq.terms
	// Each snippet reads a line of a file, on one goroutine per core: one
	// per hit would hold a reading buffer per hit at once (megabytes
	// each), where a few reuse theirs.
	next := make(chan int)
	wg = sync.WaitGroup{}
	for range min(runtime.GOMAXPROCS(0), len(hits)) {
		wg.Go(func() {
			for i := range next {
				k := hits[i]
				res.Hits[i].Snippet, res.Hits[i].Marks = c.hitSnippetSafely(files[k.gid], k, snippetTerms)
			}
		})
	}
	for i := range hits {
		next <- i
	}
	close(next)
	wg.Wait()
	return res, failed
}

// candidates returns the entries of shard that match expr, newest first,
// at most maxCandidates of them, and whether there are more. It reads
// only FTS5's lists: an entry's key tells most often whether its file is
// searched (see fileSlots); the rows of the entries ranked are read after
// (entryRows).
func (c *Catalog) candidates(ctx context.Context, shard int, expr string, lo, hi int64, files map[int64]*record, deadline time.Time) ([]candidate, bool, int64, error) {
	st, err := c.store(shard)
	if err != nil {
		return nil, false, 0, err
	}
	slots := c.fileSlots(shard, files)
	// The newest key bounds the range: the first window (see
	// spanCandidates) is the newest day of entries, not of time.
	var newest sql.NullInt64
	if err := st.r.QueryRowContext(ctx, `SELECT max(rid) FROM entries`).Scan(&newest); err != nil {
		return nil, false, 0, c.checkStore(shard, err)
	}
	if !newest.Valid {
		return nil, false, 0, nil
	}
	hi = min(hi, newest.Int64+1)
	spans, err := c.spans(ctx, st, shard, files, lo, hi)
	if err != nil {
		return nil, false, 0, err
	}
	var out []candidate
	for _, span := range spans {
		more, stopped, err := c.spanCandidates(ctx, st, shard, expr, span[0], span[1], files, slots, deadline, &out)
		if more || err != nil {
			return out, more, stopped, err
		}
	}
	return out, false, 0, nil
}

// A search looks through the keys newest first, a window at a time: the
// newest few thousand entries, then more as the last took little time.
// At its deadline (its budget after it began) it stops, and says how
// far back it got; the results then link to the older matches. A
// phrase of common words that seldom meet, say, would otherwise walk
// every entry that holds them all, in the whole history. The first
// window is always looked through, so that a search on a busy machine
// still finds the newest matches.
type searchWalk struct {
	// budget is how long a search looks before it stops.
	budget time.Duration
	// firstWindow is how many entries the first window holds: the
	// newest ones.
	firstWindow int
}

// defaultWalk is the walk of every catalog: 40 ms answers within the
// search targets on a 5 GB history with a busy machine's margin.
var defaultWalk = searchWalk{budget: 40 * time.Millisecond, firstWindow: 4096}

// spanCandidates adds to *out the entries of shard with keys in [lo, hi)
// that match expr, newest first, until it holds maxCandidates; it
// reports whether there are more. Past the deadline it stops, and
// stopped is the key above which it looked through everything (there are
// more then).
func (c *Catalog) spanCandidates(ctx context.Context, st *store, shard int, expr string, lo, hi int64,
	files map[int64]*record, slots *[1024]uint8, deadline time.Time, out *[]candidate) (more bool, stopped int64, err error) {
	// The first window ends at the walk's firstWindow-th newest entry; the next
	// ones span keys, as many again as the last or more.
	var window int64
	for first := true; hi > lo; first = false {
		if !first && time.Now().After(deadline) {
			return true, hi, nil
		}
		wlo := lo
		if first {
			var k sql.NullInt64
			err := st.r.QueryRowContext(ctx, `SELECT rid FROM entries WHERE rid < ? AND rid >= ? ORDER BY rid DESC LIMIT 1 OFFSET ?`, hi, lo, c.walk.firstWindow).Scan(&k)
			switch {
			case err == nil && k.Int64 > lo:
				wlo = k.Int64
			case err != nil && !errors.Is(err, sql.ErrNoRows):
				return false, 0, c.checkStore(shard, err)
			}
			window = hi - wlo
		} else if hi-lo > window {
			wlo = hi - window
		}
		began := time.Now()
		wctx, cancel := ctx, context.CancelFunc(func() {})
		if !first {
			// A window cut short at the deadline still counts for the
			// keys it looked through: hi says how far it got.
			wctx, cancel = context.WithDeadline(ctx, deadline)
		}
		more, err := c.windowCandidates(wctx, st, shard, expr, wlo, &hi, files, slots, out)
		cancel()
		if err != nil && !first && wctx.Err() != nil && ctx.Err() == nil {
			return true, hi, nil
		}
		if more || err != nil {
			return more, 0, err
		}
		hi = wlo
		switch took := time.Since(began); {
		case took < 2*time.Millisecond:
			window *= 4
		case took < 8*time.Millisecond:
			window *= 2
		}
	}
	return false, 0, nil
}

// windowCandidates adds to *out the entries of shard with keys in [lo,
// *hi) that match expr, newest first, until it holds maxCandidates; it
// reports whether there are more. *hi goes down as keys are read, so that
// it bounds what is left.
func (c *Catalog) windowCandidates(ctx context.Context, st *store, shard int, expr string, lo int64, hi *int64,
	files map[int64]*record, slots *[1024]uint8, out *[]candidate) (bool, error) {
	// The keys come a chunk at a time, each chunk one row of text: a row
	// per key would cost more to step through than FTS5 to find.
	for {
		var list sql.NullString
		err := st.r.QueryRowContext(ctx, `SELECT group_concat(rowid) FROM (SELECT rowid FROM fts
			WHERE fts MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT ?)`, expr, lo, *hi, candidateChunk).Scan(&list)
		if err != nil {
			return false, c.checkStore(shard, err)
		}
		// group_concat keeps no order: the chunk is sorted here, newest
		// first.
		var chunk []int64
		for f := range strings.SplitSeq(list.String, ",") {
			if f == "" {
				continue
			}
			rid, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return false, fmt.Errorf("%w: a key of the index is %q", errCorrupt, f)
			}
			chunk = append(chunk, rid)
		}
		slices.Sort(chunk)
		slices.Reverse(chunk)
		for _, rid := range chunk {
			k := candidate{shard: shard, rid: rid, gid: -1}
			switch slots[k.rid>>10&0x3ff] {
			case slotNone:
				continue
			case slotSome:
				// Files searched and others share the key's bits: the row
				// says which.
				var fid int64
				if err := st.r.QueryRowContext(ctx, `SELECT fid FROM entries WHERE rid = ?`, k.rid).Scan(&fid); err != nil {
					return false, c.checkStore(shard, err)
				}
				if files[fid*shards+int64(shard)] == nil {
					continue
				}
			}
			if len(*out) == maxCandidates {
				return true, nil
			}
			*out = append(*out, k)
		}
		if len(chunk) < candidateChunk {
			return false, nil
		}
		*hi = chunk[len(chunk)-1]
	}
}

// maxSpans is the most files a search narrows its key ranges to: a
// filter that keeps a few sessions (a small project) is searched in their
// key ranges alone, not through every match of the others.
const maxSpans = 256

// spans returns the key ranges within [lo, hi) that a search of files
// looks through in shard, newest first: the whole range when files
// holds many of the shard's files (more than maxSpans, or a quarter of
// them), else the range of each file's keys, merged where they overlap.
func (c *Catalog) spans(ctx context.Context, st *store, shard int, files map[int64]*record, lo, hi int64) ([][2]int64, error) {
	whole := [][2]int64{{lo, hi}}
	var fids []int64
	total := 0
	c.mu.RLock()
	for _, row := range c.known {
		if row.Shard == shard {
			total++
			if files[row.gid()] != nil {
				fids = append(fids, row.FID)
			}
		}
	}
	c.mu.RUnlock()
	if len(fids) > maxSpans || len(fids)*4 >= total {
		return whole, nil
	}
	var out [][2]int64
	for _, fid := range fids {
		var first, last sql.NullInt64
		if err := st.r.QueryRowContext(ctx, `SELECT min(rid), max(rid) FROM entries WHERE fid = ?`, fid).Scan(&first, &last); err != nil {
			return nil, c.checkStore(shard, err)
		}
		if !first.Valid {
			continue
		}
		if a, b := max(first.Int64, lo), min(last.Int64+1, hi); a < b {
			out = append(out, [2]int64{a, b})
		}
	}
	// Merged, newest first.
	slices.SortFunc(out, func(a, b [2]int64) int { return cmp.Compare(b[1], a[1]) })
	merged := out[:0]
	for _, r := range out {
		if n := len(merged); n > 0 && r[1] >= merged[n-1][0] {
			merged[n-1][0] = min(merged[n-1][0], r[0])
			continue
		}
		merged = append(merged, r)
	}
	return merged, nil
}

// candidateChunk is how many keys a query for candidates returns at once.
const candidateChunk = 1024

// The entry keys of a shard carry ten bits of their file's id (see
// keyBase): a file slot, for each value of those bits, says whether the
// shard's files with them are all searched, none, or some.
const (
	slotNone = iota
	slotAll
	slotSome
)

// fileSlots returns the file slots of shard for a search of files.
func (c *Catalog) fileSlots(shard int, files map[int64]*record) *[1024]uint8 {
	var searched, other [1024]bool
	c.mu.RLock()
	for _, row := range c.known {
		if row.Shard == shard {
			if files[row.gid()] != nil {
				searched[row.FID&0x3ff] = true
			} else {
				other[row.FID&0x3ff] = true
			}
		}
	}
	c.mu.RUnlock()
	var slots [1024]uint8
	for i := range slots {
		switch {
		case searched[i] && other[i]:
			slots[i] = slotSome
		case searched[i]:
			slots[i] = slotAll
		}
	}
	return &slots
}

// entryRows fills in, for the candidates of shard among all, their file
// and what ranking needs of their rows; with details, what a hit shows
// too. A candidate whose row is gone (its file was read again meanwhile)
// keeps gid -1.
func (c *Catalog) entryRows(ctx context.Context, shard int, all []candidate, details bool) error {
	st, err := c.store(shard)
	if err != nil {
		return err
	}
	byRID := map[int64]*candidate{}
	var args []any
	for i := range all {
		if all[i].shard == shard {
			all[i].gid = -1
			byRID[all[i].rid] = &all[i]
			args = append(args, all[i].rid)
		}
	}
	cols := "rid, fid, words, tf"
	if details {
		cols += ", id, kind, branch, line, part, off, len"
	}
	for len(args) > 0 {
		n := min(len(args), 500)
		rows, err := st.r.QueryContext(ctx, `SELECT `+cols+` FROM entries WHERE rid IN (?`+strings.Repeat(", ?", n-1)+`)`, args[:n]...)
		if err != nil {
			return c.checkStore(shard, err)
		}
		for rows.Next() {
			var fid int64
			e := candidate{shard: shard}
			dest := []any{&e.rid, &fid, &e.words, &e.tf}
			if details {
				dest = append(dest, &e.id, &e.kind, &e.branch, &e.line, &e.part, &e.off, &e.len)
			}
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return c.checkStore(shard, err)
			}
			if k := byRID[e.rid]; k != nil {
				// Field by field: the other shards' goroutines read
				// each candidate's shard meanwhile.
				k.gid, k.words, k.tf = fid*shards+int64(shard), e.words, e.tf
				if details {
					k.id, k.kind, k.branch, k.line, k.part, k.off, k.len = e.id, e.kind, e.branch, e.line, e.part, e.off, e.len
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return c.checkStore(shard, err)
		}
		args = args[n:]
	}
	return nil
}

// shardFigures are what ranking needs of a shard: its entries with text,
// their words, and how many of them hold each query term.
type shardFigures struct {
	entries, words int64
	df             []float64
}

// figures reads a shard's figures for terms. Document frequencies only
// weigh terms against each other: a query of one term needs none.
func (c *Catalog) figures(ctx context.Context, shard int, terms []queryTerm) (shardFigures, error) {
	var f shardFigures
	st, err := c.store(shard)
	if err != nil {
		return f, err
	}
	if f.entries, f.words, err = st.shardCounts(ctx); err != nil {
		return f, c.checkStore(shard, err)
	}
	if len(terms) < 2 {
		return f, nil
	}
	for _, t := range terms {
		df, err := st.docFreq(ctx, t)
		if err != nil {
			return f, c.checkStore(shard, err)
		}
		f.df = append(f.df, df)
	}
	return f, nil
}

// rankTerms returns the query's terms weighed by the figures of every
// shard, and the average entry's words.
func rankTerms(terms []queryTerm, figs []shardFigures) ([]rankTerm, float64) {
	var n, words float64
	for _, f := range figs {
		n += float64(f.entries)
		words += float64(f.words)
	}
	out := make([]rankTerm, len(terms))
	for i, t := range terms {
		out[i] = rankTermOf(t)
		if len(terms) > 1 {
			df := 0.0
			for _, f := range figs {
				// A shard that failed (its hits are left out) has no
				// figures.
				if i < len(f.df) {
					df += f.df[i]
				}
			}
			out[i].idf = idf(n, min(df, n))
		}
	}
	return out, words / max(n, 1)
}

// candidate is an entry that matches a query.
type candidate struct {
	// shard is the entry's shard, gid its file's fileRow.gid.
	shard        int
	gid          int64
	rid          int64
	words        int
	tf           []byte
	score        float64
	id, kind     string
	branch, line int
	part         int
	off, len     int64
}

// searchable returns the records a query may find entries of, by gid:
// the files of this catalog (the store may hold other catalogs' too) that
// pass the query's filters; and how many files are not read yet, whose
// entries cannot be found.
func (c *Catalog) searchable(pq query) (map[int64]*record, int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	unread := 0
	for _, r := range c.records {
		if r.row == nil {
			unread++
		}
	}
	out := make(map[int64]*record, len(c.byGID))
	for gid, r := range c.byGID {
		row := r.row
		where := r.f.path
		if c.opt.Prepare != nil {
			where = r.hidden // a masked word must not be confirmed
		}
		if row.Err != "" || !containsAll(strings.ToLower(row.Cwd+"\n"+where), pq.project) ||
			!containsAll(strings.ToLower(strings.Join(row.Summary.Models, "\n")), pq.model) {
			continue
		}
		out[gid] = r
	}
	return out, unread
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// readers are buffers of the size session.Read reads through, which it
// uses as they are.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 1<<20) }}

// maxSnippetLine bounds the line read to cut a snippet from: a line of
// tens of megabytes (a tool's output) would cost more than the search.
const maxSnippetLine = 8 << 20

// hitSnippet reads the entry's line from its file and cuts a snippet from
// its text. The text is not in the cache: the session files hold it. A
// file that changed since it was indexed gives "" when the line no longer
// holds the entry.
func (c *Catalog) hitSnippet(r *record, k candidate, terms []queryTerm) (string, [][2]int) {
	if k.len <= 0 || k.len > maxSnippetLine {
		return "", nil
	}
	if c.opt.Prepare != nil {
		// Masking needs the whole session: a value found in one entry is
		// masked in all.
		s, _, err := c.Load(r.id)
		if err != nil {
			return "", nil
		}
		if e := s.Entry(k.id); e != nil {
			var b strings.Builder
			_, text := entryText(e, &b)
			return snippet(text, terms)
		}
		return "", nil
	}
	c.mu.RLock()
	f, row := r.f, r.row
	c.mu.RUnlock()
	fh, err := c.open(f)
	if err != nil {
		return "", nil
	}
	defer fh.Close()
	ra, ok := fh.(io.ReaderAt)
	if !ok {
		return "", nil
	}
	line := make([]byte, k.len)
	if _, err := ra.ReadAt(line, k.off); err != nil && err != io.EOF {
		return "", nil
	}
	var src io.Reader = bytes.NewReader(line)
	headerLines := 0
	if row != nil && row.Header != nil && k.line > 1 {
		src = io.MultiReader(bytes.NewReader(row.Header), src)
		headerLines = 1
	}
	// The loader reads through a 1 MB buffer; one kept from earlier
	// snippets saves allocating and clearing it for each.
	br := readers.Get().(*bufio.Reader)
	br.Reset(src)
	s, err := session.Read(br, f.path)
	br.Reset(nil)
	readers.Put(br)
	if err != nil {
		return "", nil
	}
	for _, e := range s.Entries {
		if e.Line != headerLines+1 || e.Part != k.part {
			continue
		}
		// An id the file gave must still be there; one made from the line
		// number (v1 files) cannot be compared.
		derived := strings.HasPrefix(k.id, fmt.Sprintf("L%d", k.line))
		if !derived && e.FileID != k.id && !strings.HasPrefix(k.id, e.FileID+"~") {
			return "", nil // the file changed under the index
		}
		var b strings.Builder
		_, text := entryText(e, &b)
		return snippet(text, terms)
	}
	return "", nil
}

// String is a hit in a form fit for tests and logs.
func (h Hit) String() string { return fmt.Sprintf("%s/%s", h.Key, h.EntryID) }
