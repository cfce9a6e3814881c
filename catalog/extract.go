package catalog

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// fileRow is what the catalog keeps of one file: how it looked when it was
// read, where reading stopped, and what it holds.
type fileRow struct {
	// FID is the file's id in its shard's database, Shard that shard (see
	// shardOf); gid joins them.
	FID   int64
	Shard int
	Path  string // the file's key: its real path (see Catalog.rowKey)
	Stamp stamp
	progress
	// Tail counts the entries read from an unfinished last line: a file
	// with any is read whole when it grows, since that line may change.
	Tail int
	// Header is the file's first line when that is its session header and
	// it is short; reading only what was appended needs it.
	Header        []byte
	SessionID     string
	Cwd           string
	ParentSession string
	// Name is the session's latest name, FirstTitle its first user message
	// on one line: the title is the one, else the other.
	Name       string
	FirstTitle string
	Summary    session.Summary
	Branches   int
	Warnings   int
	Err        string
}

// gid is the row's file id among all shards.
func (r *fileRow) gid() int64 { return r.FID*shards + int64(r.Shard) }

// entryRow is one entry of a file.
type entryRow struct {
	// Time is the entry's time in Unix milliseconds: its own, else that of
	// the entry before it, else the session's.
	Time       int64
	Line, Part int
	ID, Parent string
	// Branch numbers the branch the entry is on, from 1, in the order the
	// branches begin in the file: an entry continues its parent's branch
	// if it is the first of the parent's children in the file, and begins
	// a new one otherwise. Appending entries never renumbers old ones.
	Branch int
	// Kind is what entryText gives, "" for no text; Text is the words of
	// its text as the index takes them (see appendIndexText).
	Kind, Text string
	// Words counts the words of Text; TF is the tfBlob of those it holds
	// more than once (see termstats.go).
	Words int
	TF    []byte
	// Off and Len locate the entry's line in the file.
	Off, Len int64
}

// fileData is what reading a file gives the store to write.
type fileData struct {
	row     fileRow
	entries []entryRow
	usage   []usage.Record
	// terms counts, per word, the sampled entries that hold it (see
	// termstats.go).
	terms map[string]int32
	// appended: entries and usage add to what the store holds of the
	// file, and row replaces its row. Otherwise they replace everything.
	appended bool
	// fromSize and fromLines are where the appended read started; the
	// store must still be there for its rows to fit.
	fromSize  int64
	fromLines int
	// In a catalog that prepares sessions: finding is what was found in
	// the file, kept once its rows are stored; again says the file is as
	// it was stored, and was prepared anew because its family changed.
	finding session.Finding
	again   bool
}

// fromFull makes the rows of a file read whole. Working out what the
// index holds of each entry is a third of reading a file: it waits at
// gate, if set, before each entry, so that a file being read gives way to
// searches.
func fromFull(key string, st stamp, s *session.Session, t *tracker, gate *searchGate) *fileData {
	p := t.progress(nil)
	d := &fileData{row: fileRow{Path: key, Stamp: st, progress: p, Warnings: len(s.Warnings)}}
	r := &d.row
	if h := s.Header; h != nil {
		r.SessionID, r.Cwd = h.ID, h.Cwd
		r.ParentSession = h.ParentSession
		if r.ParentSession == "" {
			r.ParentSession = h.BranchedFrom
		}
		if h.Line == 1 && len(t.starts) > 1 && t.starts[1] <= int64(len(t.head)) {
			r.Header = slices.Clone(t.head[:t.starts[1]])
		}
	}
	r.Summary, r.Name, r.FirstTitle = summarize(s)

	branch := make(map[*session.Entry]int, len(s.Entries))
	first := make(map[*session.Entry]*session.Entry, len(s.Entries))
	for _, e := range s.Entries {
		if e.Parent != nil && first[e.Parent] == nil {
			first[e.Parent] = e
		}
	}
	// Branches are numbered in file order by where they begin; an entry
	// that continues one may come before its parent in an odd file, so
	// the number is found by walking up, never by recursion.
	n := 0
	for _, e := range s.Entries {
		if e.Parent == nil || first[e.Parent] != e {
			n++
			branch[e] = n
		}
	}
	var chain []*session.Entry
	for _, e := range s.Entries {
		for x := e; branch[x] == 0; x = x.Parent {
			chain = append(chain, x)
		}
		if len(chain) == 0 {
			continue
		}
		b := branch[chain[len(chain)-1].Parent]
		for _, x := range chain {
			branch[x] = b
		}
		chain = chain[:0]
	}
	r.Branches = n

	fallback := fileTime(s, st)
	var x indexer
	last := fallback
	for _, e := range s.Entries {
		if gate != nil {
			gate.wait(context.Background())
		}
		if e.Line > p.Lines {
			r.Tail++
		}
		er := entryRow{Line: e.Line, Part: e.Part, ID: e.ID, Branch: branch[e]}
		if e.Parent != nil {
			er.Parent = e.Parent.ID
		}
		if !e.Time.IsZero() {
			last = e.Time
		}
		er.Time = last.UnixMilli()
		x.entry(e, &er)
		er.Off, er.Len = t.lineSpan(e.Line, 0)
		d.entries = append(d.entries, er)
	}
	d.terms = x.terms
	d.usage = usage.Tally(s.Entries, fallback)
	return d
}

// indexer fills in what the index holds of entries, reusing its scratch
// space from one to the next.
type indexer struct {
	b     strings.Builder
	buf   []byte
	ends  []int32
	words wordCounter
	terms map[string]int32
}

// entry sets er's Kind, Text, Words and TF from e, and counts e's words
// in x.terms when e is sampled (see termstats.go).
func (x *indexer) entry(e *session.Entry, er *entryRow) {
	kind, text := entryText(e, &x.b)
	if kind == "" {
		return
	}
	er.Kind = kind
	if x.ends == nil {
		x.ends = make([]int32, 0, 256) // not nil: indexText fills it
	}
	x.buf, x.ends = indexText(x.buf[:0], x.ends[:0], text)
	if len(x.buf) == 0 {
		return
	}
	x.buf = slices.Grow(x.buf, 8) // entryStats reads 8 bytes past the end
	er.Text = string(x.buf)
	var terms map[string]int32
	if sampled(e.Line) {
		if x.terms == nil {
			x.terms = map[string]int32{}
		}
		terms = x.terms
	}
	er.Words, er.TF = x.words.entryStats(x.buf, x.ends, er.Text, terms)
}

// lineSpan returns where line n of the file starts and how long it is;
// base is the number of lines before the tracker started.
func (t *tracker) lineSpan(n, base int) (off, length int64) {
	i := n - base - 1
	if i < 0 || i >= len(t.starts) {
		return 0, 0
	}
	end := t.pos
	if i+1 < len(t.starts) {
		end = t.starts[i+1]
	}
	return t.starts[i], end - t.starts[i]
}

// oldEntry is what appending needs of an entry already in the store.
type oldEntry struct {
	branch   int
	hasChild bool
}

// fromAppended makes the rows of what was appended to a file: s holds the
// new entries (read by readAppended), old what the store holds of the
// file and its entries by id.
func fromAppended(old *fileRow, olds map[string]*oldEntry, st stamp, s *session.Session, t *tracker, head []byte) (*fileData, error) {
	p := t.progress(head)
	d := &fileData{appended: true, row: *old, fromSize: old.ReadSize, fromLines: old.Lines}
	r := &d.row
	r.Stamp, r.progress = st, p
	if s == nil {
		return d, nil // only part of a line was added
	}
	sum, name, firstTitle := summarize(s)
	if name != "" {
		r.Name = name
	}
	if r.FirstTitle == "" {
		r.FirstTitle = firstTitle
	}
	r.Summary = mergeSummary(old.Summary, sum)
	r.Summary.Title = title(r.Name, r.FirstTitle, r.SessionID)

	type newEntry struct{ branch, kids int }
	news := make(map[*session.Entry]*newEntry, len(s.Entries))
	resolved := 0
	continuing := 0
	fallback := time.UnixMilli(old.Summary.End.UnixMilli())
	if old.Summary.End.IsZero() {
		fallback = fileTime(s, st)
	}
	last := fallback
	var x indexer
	for _, e := range s.Entries {
		if e.FileID == "" || olds[e.FileID] != nil {
			// A v1 entry, whose id comes from its line, or an id used
			// before: numbering them needs the whole file.
			return nil, errNotAppended
		}
		if e.Line > p.Lines {
			r.Tail++
		}
		ne := &newEntry{}
		news[e] = ne
		er := entryRow{Line: e.Line, Part: e.Part, ID: e.ID}
		switch {
		case e.Parent != nil:
			pe := news[e.Parent]
			er.Parent = e.Parent.ID
			if pe != nil && pe.kids == 0 {
				ne.branch = pe.branch
				continuing++
			}
			if pe != nil {
				pe.kids++
			}
		case e.ParentID != "" && olds[e.ParentID] != nil:
			po := olds[e.ParentID]
			er.Parent = e.ParentID
			resolved++
			if !po.hasChild {
				ne.branch = po.branch
				continuing++
			}
			po.hasChild = true
		}
		if ne.branch == 0 {
			r.Branches++
			ne.branch = r.Branches
		}
		er.Branch = ne.branch
		if !e.Time.IsZero() {
			last = e.Time
		}
		er.Time = last.UnixMilli()
		x.entry(e, &er)
		er.Off, er.Len = t.lineSpan(e.Line, old.Lines)
		d.entries = append(d.entries, er)
	}
	d.terms = x.terms
	r.Summary.Leaves = old.Summary.Leaves + len(s.Entries) - continuing
	r.Warnings = old.Warnings + max(0, len(s.Warnings)-resolved)
	d.usage = usage.Tally(s.Entries, fallback)
	return d, nil
}

// summarize returns s's summary, its name and the title its first user
// message gives ("" without one).
func summarize(s *session.Session) (sum session.Summary, name, firstTitle string) {
	name = s.Name
	s.Name = ""
	sum = s.Summarize()
	s.Name = name
	firstTitle = sum.Title
	if s.Header != nil && s.Header.ID != "" && firstTitle == "Session "+s.Header.ID {
		firstTitle = "" // Summarize's stand-in for a session without one
	}
	if s.Header != nil {
		sum.Title = title(name, firstTitle, s.Header.ID)
	} else {
		sum.Title = title(name, firstTitle, "")
	}
	return sum, name, firstTitle
}

// title is a session's title as session.Summarize makes it: its name,
// else its first user message, else its id.
func title(name, firstTitle, id string) string {
	switch {
	case name != "":
		return name
	case firstTitle != "":
		return firstTitle
	case id != "":
		return "Session " + id
	}
	return ""
}

// mergeSummary adds the summary of appended entries to a file's.
func mergeSummary(a, b session.Summary) session.Summary {
	if a.Start.IsZero() || !b.Start.IsZero() && b.Start.Before(a.Start) {
		a.Start = b.Start
	}
	if b.End.After(a.End) {
		a.End = b.End
	}
	a.Entries += b.Entries
	a.Messages += b.Messages
	a.ToolCalls += b.ToolCalls
	for _, m := range b.Models {
		if !slices.Contains(a.Models, m) {
			a.Models = append(a.Models, m)
		}
	}
	a.Usage.Add(b.Usage)
	return a
}

// fileTime dates entries that have no time: the session's header time,
// else the file's modification time.
func fileTime(s *session.Session, st stamp) time.Time {
	if s.Header != nil && !s.Header.Time.IsZero() {
		return s.Header.Time
	}
	return time.Unix(0, st.MTime)
}
