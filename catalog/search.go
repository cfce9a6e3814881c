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
	// Hits are the best matches, best first.
	Hits []Hit
	// Total counts the matching entries and Sessions the sessions they
	// are in. More says that more entries match than were looked at:
	// ranking looks at the newest maxCandidates, and Total is then a lower
	// bound.
	Total, Sessions int
	More            bool
	// Unread counts the session files found but not read yet (the
	// catalog is being filled, or rebuilt after damage): their entries
	// are not searched, so the results may be incomplete.
	Unread int
}

// maxCandidates bounds the matching entries a search ranks, newest first:
// a word in every session would otherwise cost time in proportion to the
// whole history. The entries of a search that finds more are ranked among
// the newest ones.
const maxCandidates = 1000

// Search runs q (see query for its syntax) over every session of the
// catalog and returns the best limit hits, ranked by BM25 among the
// newest matching entries. An empty query matches nothing.
func (c *Catalog) Search(q string, limit int) Results {
	res, _ := c.SearchContext(context.Background(), q, limit)
	return res
}

// SearchContext is Search, stopped when ctx is done, and with the error
// that cut the results short, if any: a shard that fails leaves the
// others' hits, which are returned with the error.
func (c *Catalog) SearchContext(ctx context.Context, q string, limit int) (Results, error) {
	pq := parseQuery(q)
	if pq.match == "" {
		return Results{}, nil
	}
	files, unread := c.searchable(pq)
	lo, hi := int64(0), int64(1<<63-1)
	if !pq.after.IsZero() {
		lo = keyBase(pq.after.UnixMilli(), 0)
	}
	if !pq.before.IsZero() {
		hi = keyBase(pq.before.UnixMilli(), 0)
	}
	// The candidates of every shard, newest first, found at once; the
	// newest maxCandidates of them all are ranked.
	var cands [shards][]candidate
	var more [shards]bool
	var errs [shards]error
	var wg sync.WaitGroup
	for i := range shards {
		wg.Go(func() { cands[i], more[i], errs[i] = c.candidates(ctx, i, pq.match, lo, hi, files) })
	}
	wg.Wait()
	failed := errors.Join(errs[:]...)
	if err := ctx.Err(); err != nil {
		return Results{}, cmp.Or(failed, err)
	}
	all := slices.Concat(cands[:]...)
	slices.SortFunc(all, func(a, b candidate) int { return cmp.Compare(b.rid, a.rid) })
	res := Results{Unread: unread}
	res.More = slices.Contains(more[:], true) || len(all) > maxCandidates
	all = all[:min(len(all), maxCandidates)]
	res.Total = len(all)
	best := newTopK(limit)
	sessions := map[int64]bool{}
	for _, k := range all {
		sessions[k.gid] = true
		best.add(k)
	}
	res.Sessions = len(sessions)

	// Then what the best ones show.
	var hits []candidate
	for _, k := range best.sorted() {
		st, err := c.store(k.shard)
		if err == nil {
			err = st.r.QueryRowContext(ctx, `SELECT id, kind, branch, line, part, off, len FROM entries WHERE rid = ?`, k.rid).
				Scan(&k.id, &k.kind, &k.branch, &k.line, &k.part, &k.off, &k.len)
			err = c.checkStore(k.shard, err)
		}
		if err != nil {
			if ctx.Err() != nil {
				return Results{}, err
			}
			failed = errors.Join(failed, err)
			continue
		}
		hits = append(hits, k)
	}
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
	// Each snippet reads a line of a file, on one goroutine per core: one
	// per hit would hold a reading buffer per hit at once (megabytes
	// each), where a few reuse theirs.
	next := make(chan int)
	wg = sync.WaitGroup{}
	for range min(runtime.GOMAXPROCS(0), len(hits)) {
		wg.Go(func() {
			for i := range next {
				k := hits[i]
				res.Hits[i].Snippet, res.Hits[i].Marks = c.hitSnippet(files[k.gid], k, pq.terms)
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

// candidates returns the entries of shard that match the query, newest
// first, at most maxCandidates of them, and whether there are more.
func (c *Catalog) candidates(ctx context.Context, shard int, match string, lo, hi int64, files map[int64]*record) ([]candidate, bool, error) {
	st, err := c.store(shard)
	if err != nil {
		return nil, false, err
	}
	rows, err := st.r.QueryContext(ctx, `SELECT fts.rowid, e.fid, bm25(fts)
		FROM fts JOIN entries e ON e.rid = fts.rowid
		WHERE fts MATCH ? AND fts.rowid >= ? AND fts.rowid < ?
		ORDER BY fts.rowid DESC`, match, lo, hi)
	if err != nil {
		return nil, false, c.checkStore(shard, err)
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		k := candidate{shard: shard}
		var fid int64
		if err := rows.Scan(&k.rid, &fid, &k.score); err != nil {
			return nil, false, c.checkStore(shard, err)
		}
		k.gid = fid*shards + int64(shard)
		if files[k.gid] == nil {
			continue
		}
		if len(out) == maxCandidates {
			return out, true, nil
		}
		out = append(out, k)
	}
	return out, false, c.checkStore(shard, rows.Err())
}

// topK keeps the k best candidates seen: a search ranks thousands to show
// a few dozen.
type topK struct {
	k int
	h []candidate // a max-heap on worse: its root is the worst kept
	n int         // candidates seen, to prefer the newer among equals
}

func newTopK(k int) *topK { return &topK{k: k} }

// worse says whether a ranks below b: a higher BM25 score (they are
// negative, the best lowest), or an equal one seen later (older).
func worse(a, b candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.seq > b.seq
}

func (t *topK) add(c candidate) {
	c.seq = t.n
	t.n++
	if t.k <= 0 {
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, c)
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !worse(t.h[i], t.h[p]) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		return
	}
	if !worse(t.h[0], c) {
		return
	}
	t.h[0] = c
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(t.h) && worse(t.h[l], t.h[m]) {
			m = l
		}
		if r < len(t.h) && worse(t.h[r], t.h[m]) {
			m = r
		}
		if m == i {
			break
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// sorted returns the candidates kept, best first.
func (t *topK) sorted() []candidate {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b candidate) int {
		switch {
		case worse(b, a):
			return -1
		case worse(a, b):
			return 1
		}
		return 0
	})
	return out
}

// candidate is an entry that matches a query.
type candidate struct {
	seq int // the order found in: newest first
	// shard is the entry's shard, gid its file's fileRow.gid.
	shard        int
	gid          int64
	rid          int64
	id, kind     string
	branch, line int
	part         int
	off, len     int64
	score        float64
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
