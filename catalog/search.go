package catalog

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// EntryText is the searchable text of one entry of a session.
type EntryText struct {
	// ID is the entry's id, the fragment that links to it in its page.
	ID string
	// Role says what the text is: "user", "assistant", "bash", "summary",
	// "name".
	Role string
	// Text is the entry's text on one line.
	Text string
}

// Hit is one entry that matches a query.
type Hit struct {
	// Key is the session's key in the index: the catalog's session id.
	Key     string
	EntryID string
	Role    string
	// Snippet is the part of the entry's text around the first match, with
	// "…" where it was cut.
	Snippet string
	// Marks are the byte ranges [start, end) of Snippet that match the
	// query, in order and not overlapping.
	Marks [][2]int
}

// Results are the answer to a query.
type Results struct {
	// Hits are the first matches: sessions newest first, and within a
	// session its entries in file order.
	Hits []Hit
	// Total counts every matching entry, Sessions the sessions they are in.
	Total, Sessions int
}

// Index is a full-text index over the entries of many sessions: user and
// assistant text, commands and paths. A query's words match the words of an
// entry that start with them, case folded ("compact" finds "Compaction");
// all the words must be in the entry. Text in double quotes, and a word
// with punctuation in it ("main.go"), must also appear as written.
//
// Each session is a document, replaced whole when its file changes. Entries
// get ordinal numbers in the order they are added; a term's postings are
// the ordinals of the entries that hold it, ascending. Replacing a session
// leaves its old ordinals dead in the postings, and the index is rebuilt
// from its own texts once the dead outnumber the living.
//
// An Index is safe for concurrent use.
type Index struct {
	mu    sync.RWMutex
	docs  map[string]*doc
	slots []slot
	terms map[string][]uint32
	dead  int
	// vocab (the sorted terms) and ranked (the live documents, newest
	// first) are rebuilt lazily, by the first query after a change.
	dirty  bool
	vocab  []string
	ranked []*doc
}

type doc struct {
	key      string
	first, n uint32
	time     time.Time
}

type slot struct {
	doc   *doc // nil once the document was replaced or removed
	entry EntryText
	// fold is entry.Text case folded, byte for byte the same length, so an
	// offset in one is an offset in the other.
	fold string
}

// maxTerm bounds the bytes of an indexed word; longer ones (base64, hashes)
// are indexed by their start, which is what a prefix query needs.
const maxTerm = 32

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{docs: map[string]*doc{}, terms: map[string][]uint32{}}
}

// Replace sets the entries of the session key, replacing any it had. t is
// the session's time; queries list newer sessions first.
func (x *Index) Replace(key string, t time.Time, entries []EntryText) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.remove(key)
	d := &doc{key: key, first: uint32(len(x.slots)), n: uint32(len(entries)), time: t}
	x.docs[key] = d
	seen := map[string]bool{}
	for _, e := range entries {
		e.Text = oneLineText(e.Text)
		s := slot{doc: d, entry: e, fold: fold(e.Text)}
		x.slots = append(x.slots, s)
		x.addTerms(uint32(len(x.slots)-1), s.fold, seen)
	}
	x.dirty = true
	x.maybeCompact()
}

// Remove drops the session key from the index.
func (x *Index) Remove(key string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.remove(key) {
		x.dirty = true
		x.maybeCompact()
	}
}

func (x *Index) remove(key string) bool {
	d := x.docs[key]
	if d == nil {
		return false
	}
	delete(x.docs, key)
	for i := d.first; i < d.first+d.n; i++ {
		x.slots[i] = slot{}
	}
	x.dead += int(d.n)
	return true
}

// addTerms adds ordinal i to the postings of each distinct word of text.
func (x *Index) addTerms(i uint32, text string, seen map[string]bool) {
	clear(seen)
	words(text, func(w string) {
		if seen[w] {
			return
		}
		seen[w] = true
		p, ok := x.terms[w]
		if !ok {
			// The key must not pin the whole text it was cut from.
			w = strings.Clone(w)
		}
		x.terms[w] = append(p, i)
	})
}

// maybeCompact renumbers the live entries once most ordinals are dead, so
// that memory stays proportional to what is indexed.
func (x *Index) maybeCompact() {
	live := len(x.slots) - x.dead
	if x.dead < 4096 || x.dead < live {
		return
	}
	old := x.slots
	x.slots = make([]slot, 0, live)
	x.terms = make(map[string][]uint32, len(x.terms))
	x.dead = 0
	seen := map[string]bool{}
	for i := 0; i < len(old); {
		d := old[i].doc
		if d == nil {
			i++
			continue
		}
		first := uint32(len(x.slots))
		for _, s := range old[d.first : d.first+d.n] {
			x.slots = append(x.slots, s)
			x.addTerms(uint32(len(x.slots)-1), s.fold, seen)
		}
		i = int(d.first + d.n)
		d.first = first
	}
	x.dirty = true
}

// Len returns the number of sessions indexed.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.docs)
}

// prepare rebuilds the sorted vocabulary and the ranking; the caller holds
// the write lock.
func (x *Index) prepare() {
	x.vocab = x.vocab[:0]
	for t := range x.terms {
		x.vocab = append(x.vocab, t)
	}
	sort.Strings(x.vocab)
	x.ranked = x.ranked[:0]
	for _, d := range x.docs {
		x.ranked = append(x.ranked, d)
	}
	slices.SortFunc(x.ranked, func(a, b *doc) int {
		if c := b.time.Compare(a.time); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	x.dirty = false
}

// Search returns the entries that match q, the first limit of them in
// full. An empty query matches nothing.
func (x *Index) Search(q string, limit int) Results {
	pq := parseQuery(q)
	if len(pq.terms) == 0 && len(pq.phrases) == 0 {
		return Results{}
	}
	x.mu.RLock()
	for x.dirty {
		x.mu.RUnlock()
		x.mu.Lock()
		if x.dirty {
			x.prepare()
		}
		x.mu.Unlock()
		x.mu.RLock()
	}
	defer x.mu.RUnlock()

	var cand bitset // nil: every entry is a candidate
	for _, t := range pq.terms {
		b := x.postings(t)
		if cand == nil {
			cand = b
		} else {
			cand.and(b)
		}
	}
	var res Results
	for _, d := range x.ranked {
		found := false
		for i := d.first; i < d.first+d.n; i++ {
			if cand != nil && !cand.has(i) {
				continue
			}
			s := &x.slots[i]
			if !pq.matches(s.fold) {
				continue
			}
			res.Total++
			found = true
			if len(res.Hits) < limit {
				res.Hits = append(res.Hits, pq.hit(d.key, s))
			}
		}
		if found {
			res.Sessions++
		}
	}
	return res
}

// postings returns the entries holding a word that starts with prefix.
func (x *Index) postings(prefix string) bitset {
	b := newBitset(len(x.slots))
	if len(prefix) > maxTerm {
		prefix = truncTerm(prefix)
	}
	i := sort.SearchStrings(x.vocab, prefix)
	for ; i < len(x.vocab) && strings.HasPrefix(x.vocab[i], prefix); i++ {
		for _, o := range x.terms[x.vocab[i]] {
			b.set(o)
		}
	}
	return b
}

// bitset is a set of entry ordinals.
type bitset []uint64

func newBitset(n int) bitset       { return make(bitset, (n+63)/64) }
func (b bitset) set(i uint32)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i uint32) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

// query is a parsed search: words every match must hold (as word
// prefixes), and phrases every match must contain.
type query struct {
	terms   []string
	phrases []string
}

func parseQuery(q string) query {
	var pq query
	add := func(s string, phrase bool) {
		f := fold(oneLineText(s))
		if f == "" {
			return
		}
		n := 0
		words(f, func(w string) {
			n++
			if !slices.Contains(pq.terms, w) {
				pq.terms = append(pq.terms, w)
			}
		})
		// A word with punctuation in it, like main.go, is several indexed
		// words; it must also appear as written.
		if phrase || n != 1 || !isWord(f) || len(f) > maxTerm {
			pq.phrases = append(pq.phrases, f)
		}
	}
	for {
		before, rest, ok := strings.Cut(q, `"`)
		for _, w := range strings.Fields(before) {
			add(w, false)
		}
		if !ok {
			break
		}
		phrase, after, _ := strings.Cut(rest, `"`)
		add(phrase, true)
		q = after
	}
	return pq
}

func (pq *query) matches(text string) bool {
	for _, p := range pq.phrases {
		if !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

// Snippet lengths, in bytes: context before the first match, and the
// whole snippet.
const (
	snippetBefore = 60
	snippetLen    = 220
)

// hit makes the result for one matching entry: a snippet around the
// first match, with every match in it marked. Only the snippet is searched
// for marks: entries can be long, and a page shows hundreds of hits.
func (pq *query) hit(key string, s *slot) Hit {
	text, folded := s.entry.Text, s.fold
	first := len(text)
	for _, p := range pq.phrases {
		if j := strings.Index(folded, p); j >= 0 && j < first {
			first = j
		}
	}
	for _, t := range pq.terms {
		if j := wordIndex(folded[:min(len(folded), first+len(t))], 0, t); j >= 0 && j < first {
			first = j
		}
	}
	if first == len(text) {
		first = 0
	}
	start := max(0, first-snippetBefore)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	// Start at a word when there is one close by.
	if start > 0 {
		if k := strings.IndexByte(text[start:first], ' '); k >= 0 {
			start += k + 1
		}
	}
	end := min(len(text), start+snippetLen)
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end--
	}

	window := folded[start:end]
	var marks [][2]int
	for _, p := range pq.phrases {
		for i := 0; ; {
			j := strings.Index(window[i:], p)
			if j < 0 {
				break
			}
			marks = append(marks, [2]int{i + j, i + j + len(p)})
			i += j + len(p)
		}
	}
	for _, t := range pq.terms {
		for i := 0; ; {
			at := wordIndex(window, i, t)
			if at < 0 {
				break
			}
			// A word cut by the snippet's start is not a match.
			if at > 0 || start == 0 || !wordRuneBefore(folded, start) {
				marks = append(marks, [2]int{at, at + len(t)})
			}
			i = at + len(t)
		}
	}
	slices.SortFunc(marks, func(a, b [2]int) int { return a[0] - b[0] })

	var b strings.Builder
	shift := 0
	if start > 0 {
		b.WriteString("…")
		shift = len("…")
	}
	b.WriteString(text[start:end])
	if end < len(text) {
		b.WriteString("…")
	}
	h := Hit{Key: key, EntryID: s.entry.ID, Role: s.entry.Role, Snippet: b.String()}
	for _, m := range marks {
		m = [2]int{m[0] + shift, m[1] + shift}
		if n := len(h.Marks); n > 0 && m[0] <= h.Marks[n-1][1] {
			h.Marks[n-1][1] = max(h.Marks[n-1][1], m[1])
			continue
		}
		h.Marks = append(h.Marks, m)
	}
	return h
}

// wordIndex returns the first index from on of t in s where a word
// starts, or -1.
func wordIndex(s string, from int, t string) int {
	for i := from; ; {
		j := strings.Index(s[i:], t)
		if j < 0 {
			return -1
		}
		if at := i + j; at == 0 || !wordRuneBefore(s, at) {
			return at
		}
		i += j + 1
	}
}

// words calls f with each word of a folded text: a run of letters and
// digits, cut to maxTerm bytes.
func words(text string, f func(string)) {
	start := -1
	for i := 0; i < len(text); {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(truncTerm(text[start:i]))
			start = -1
		}
		i += n
	}
	if start >= 0 {
		f(truncTerm(text[start:]))
	}
}

func truncTerm(w string) string {
	if len(w) <= maxTerm {
		return w
	}
	n := maxTerm
	for n > 0 && !utf8.RuneStart(w[n]) {
		n--
	}
	return w[:n]
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWord(s string) bool {
	for _, r := range s {
		if !isWordRune(r) {
			return false
		}
	}
	return s != ""
}

func wordRuneBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return isWordRune(r)
}

// fold lower-cases s rune by rune where that keeps the rune's length in
// bytes, so offsets into the result are offsets into s.
func fold(s string) string {
	ascii := true
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if ascii && !upper {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if l := unicode.ToLower(r); l != r && utf8.RuneLen(l) == n {
			b = utf8.AppendRune(b, l)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// oneLineText folds runs of white space into one space.
func oneLineText(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		space := c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
		if space && (c != ' ' || prevSpace) {
			clean = false
			break
		}
		prevSpace = space
	}
	if clean && !prevSpace {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
