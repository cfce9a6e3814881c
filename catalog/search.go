package catalog

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
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
	s := &searchRun{c: c, q: parseQuery(q)}
	if err := s.expandPrefixes(ctx); err != nil {
		return Results{}, err
	}
	if s.expr = s.q.expr(); s.expr == "" {
		return s.res, nil
	}
	s.scope()
	all := s.candidates(ctx)
	if err := ctx.Err(); err != nil {
		return Results{}, cmp.Or(s.failed, err)
	}
	all = s.rows(ctx, all, false)
	if err := ctx.Err(); err != nil {
		return Results{}, err
	}
	s.count(all)
	s.rank(all)
	s.res.Offset = max(offset, 0)
	hits := slices.Clone(all[min(s.res.Offset, len(all)):min(s.res.Offset+max(limit, 0), len(all))])
	hits = s.rows(ctx, hits, true)
	if err := ctx.Err(); err != nil {
		return Results{}, err
	}
	s.show(hits)
	return s.res, s.failed
}

// A searchRun is one query's way through the shards, in stages: prefixes
// expanded, the files and span of time it covers, the candidates of
// every shard at once, their rows, ranking, and what the hits show. A
// shard that fails leaves the others' hits: its error is kept in failed
// and returned with them.
type searchRun struct {
	c      *Catalog
	q      query
	expr   string            // the FTS5 expression of q
	files  map[int64]*record // the files searched, by gid
	lo, hi int64             // the keys searched: [lo, hi)
	shard  [shards]shardSearch
	failed error
	res    Results
}

// shardSearch is what a search found in one shard.
type shardSearch struct {
	cands []candidate
	// more says that the shard holds more matches than cands; stopped,
	// when not zero, is the key above which it looked through every
	// entry before its deadline.
	more    bool
	stopped int64
	figs    shardFigures
	err     error
}

// expandPrefixes gives each prefix term (word*) the words it stands for,
// and notes when they are only the commonest.
func (s *searchRun) expandPrefixes(ctx context.Context) error {
	for _, ts := range [][]queryTerm{s.q.terms, s.q.not} {
		for i := range ts {
			if !ts[i].prefix {
				continue
			}
			cut, err := s.c.expand(ctx, &ts[i])
			if err != nil {
				return err
			}
			if cut {
				s.res.Notes = append(s.res.Notes, fmt.Sprintf("%s* stands for the %s that start with %q.",
					strings.Join(ts[i].words, " "), session.Count(maxExpansions, "commonest word", "commonest words"),
					ts[i].words[len(ts[i].words)-1]))
			}
		}
	}
	return nil
}

// scope sets the words the hits mark, the files searched and the keys of
// the span of time the query names.
func (s *searchRun) scope() {
	for _, t := range s.q.terms {
		s.res.Words = append(s.res.Words, t.words...)
		if t.prefix {
			s.res.Words[len(s.res.Words)-1] += "*"
		}
	}
	s.files, s.res.Unread = s.c.searchable(s.q)
	if s.res.Unread > 0 {
		s.res.ReadBack = s.c.ReadBack()
	}
	s.lo, s.hi = 0, 1<<63-1
	if !s.q.after.IsZero() {
		s.lo = keyBase(s.q.after.UnixMilli(), 0)
	}
	if !s.q.before.IsZero() {
		s.hi = keyBase(s.q.before.UnixMilli(), 0)
	}
}

// eachShard runs do for every shard at once, and joins their errors to
// failed.
func (s *searchRun) eachShard(do func(shard int) error) {
	var wg sync.WaitGroup
	errs := [shards]error{}
	for i := range shards {
		wg.Go(func() {
			defer recoverAs(&errs[i], "searching")
			errs[i] = do(i)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && s.shard[i].err == nil {
			s.shard[i].err = err
		}
	}
	s.failed = errors.Join(s.failed, errors.Join(errs[:]...))
}

// candidates finds the candidates of every shard at once, newest first,
// with what ranking needs of each shard, and returns the newest
// maxCandidates of them all. When a shard stopped at its deadline, the
// others' older candidates go too, so that the results cover one span of
// time, which a note says.
func (s *searchRun) candidates(ctx context.Context) []candidate {
	deadline := time.Now().Add(s.c.walk.budget)
	s.eachShard(func(i int) error {
		sh := &s.shard[i]
		var err error
		if sh.cands, sh.more, sh.stopped, err = s.c.candidates(ctx, i, s.expr, s.lo, s.hi, s.files, deadline); err != nil {
			return err
		}
		sh.figs, err = s.c.figures(ctx, i, s.q.terms)
		return err
	})
	var all []candidate
	var stop int64
	for i := range s.shard {
		sh := &s.shard[i]
		if sh.err != nil {
			*sh = shardSearch{err: sh.err}
			continue
		}
		all = append(all, sh.cands...)
		s.res.More = s.res.More || sh.more
		stop = max(stop, sh.stopped)
	}
	slices.SortFunc(all, func(a, b candidate) int { return cmp.Compare(b.rid, a.rid) })
	s.res.More = s.res.More || len(all) > maxCandidates
	all = all[:min(len(all), maxCandidates)]
	if stop > 0 {
		// (A search stopped before its first window had no upper bound
		// but now.)
		stop = min(stop, keyBase(time.Now().Add(24*time.Hour).UnixMilli(), 0))
		all = slices.DeleteFunc(all, func(k candidate) bool { return k.rid < stop })
		s.res.More = true
		at := time.UnixMilli(stop >> keyShift)
		s.res.Oldest = at
		s.res.Notes = append(s.res.Notes, "The search stopped at "+at.Format(time.DateOnly)+
			": looking further back took too long; the last page links to the older matches.")
	}
	return all
}

// rows reads the rows of cands, each shard's at once: what ranking needs,
// and with details what a hit shows. An entry deleted since FTS5 listed
// it has no row, nor has one of a shard whose rows could not be read:
// those go.
func (s *searchRun) rows(ctx context.Context, cands []candidate, details bool) []candidate {
	s.eachShard(func(i int) error { return s.c.entryRows(ctx, i, cands, details) })
	return slices.DeleteFunc(cands, func(k candidate) bool { return s.files[k.gid] == nil })
}

// count says how many entries and sessions matched, and how far back.
func (s *searchRun) count(all []candidate) {
	s.res.Total = len(all)
	sessions := map[int64]bool{}
	for _, k := range all {
		sessions[k.gid] = true
	}
	s.res.Sessions = len(sessions)
	if len(all) > 0 && s.res.Oldest.IsZero() {
		s.res.Oldest = time.UnixMilli(all[len(all)-1].rid >> keyShift)
	}
}

// rank orders all best first (BM25 over the shards' figures); among
// equals, the newer.
func (s *searchRun) rank(all []candidate) {
	figs := make([]shardFigures, len(s.shard))
	for i := range s.shard {
		figs[i] = s.shard[i].figs
	}
	terms, avgdl := rankTerms(s.q.terms, figs)
	for i := range all {
		all[i].score = score(terms, all[i].words, all[i].tf, avgdl)
	}
	slices.SortStableFunc(all, func(a, b candidate) int { return cmp.Compare(b.score, a.score) })
}

// show makes the hits, each with its snippet. Each snippet reads a line
// of a file, on one goroutine per core: one per hit would hold a reading
// buffer per hit at once (megabytes each), where a few reuse theirs.
func (s *searchRun) show(hits []candidate) {
	s.res.Hits = make([]Hit, len(hits))
	for i, k := range hits {
		r := s.files[k.gid]
		h := &s.res.Hits[i]
		*h = Hit{Key: r.id, EntryID: k.id, Role: k.kind, Branch: k.branch, Line: k.line,
			Time: time.UnixMilli(k.rid >> keyShift)}
		if r.row != nil {
			h.Branches = r.row.Branches
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(hits)) {
		wg.Go(func() {
			for i := range next {
				k := hits[i]
				s.res.Hits[i].Snippet, s.res.Hits[i].Marks = s.c.hitSnippetSafely(s.files[k.gid], k, s.q.terms)
			}
		})
	}
	for i := range hits {
		next <- i
	}
	close(next)
	wg.Wait()
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
		if c.opt.Mask != nil {
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
	if c.opt.Mask != nil {
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
