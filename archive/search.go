package archive

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/session"
)

// An HTML archive carries a search index its index page queries from
// file://, with no server: fetch() of file:// URLs is refused by browsers,
// so the index is split into small scripts that the page's own script adds
// to the page one at a time, as a query needs them (its
// Content-Security-Policy allows exactly that with 'strict-dynamic': only
// scripts added by the page's hashed script run).
//
// The index is made of segments, as Lucene's is, so that a build that
// changes a few sessions writes their words and little else:
//
//   - search/meta-<gen>.js lists the sessions by slot: their pages,
//     titles, the file of each one's entries, and the segment that holds
//     its words; and the segments. A session keeps its slot from build to
//     build; a removed session's slot is free for the next new one.
//   - search/g<id>/t<k>.js is shard k of segment id's words: for each
//     word whose hash falls in it, the entries that hold it, as sorted
//     keys slot<<20|entry, delta-coded as varints in base64.
//   - search/d/<stem>-<hash>.js lists one session's entries with text:
//     id, role and its text, plain and cut short, in the numbering the
//     keys use.
//
// A build that reads sessions again writes their words as a new segment
// and points their slots at it: the keys of those slots in older segments
// are dead from then on, with nothing rewritten. Once there are more than
// maxSegments segments, or one is mostly dead, the smallest (and those)
// are merged into one, their live keys only. Every build writes a new
// meta-<gen>.js before the index page points at it, so a reader never
// sees a slot pointing into a segment that is not there yet.
//
// Words are the catalog's (catalog.Words: folded, every word), so the
// archive finds what the server finds; a phrase matches the entries that
// hold all its words.

// searchVersion names the format; another one is rebuilt from scratch.
const searchVersion = 3

const (
	searchDir = "search"
	docsDir   = "d"
	// nBuckets partitions the words while a build collects them, so that
	// only one part is ever held in memory.
	nBuckets = 64
	// shardTarget is about how large a shard is made: a query loads one per
	// word and segment.
	shardTarget = 96 << 10
	// previewLen bounds an entry's text in its doc file, in bytes: the
	// results show the words around a match found in it.
	previewLen = 360
	// entryBits is how many low bits of a key number the entry.
	entryBits = 20
	// maxSegments is how many segments an index keeps before merging.
	maxSegments = 8
)

// wordHash is FNV-1a of a word's bytes; the page's script computes the
// same to find a word's shard.
func wordHash(w string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(w))
	return h.Sum32()
}

// searchMeta is meta-<gen>.js's data.
type searchMeta struct {
	Version int `json:"v"`
	// Sessions are by slot: [page, title, project, start (Unix seconds),
	// doc file, segment, keys]; nil for a free slot.
	Sessions []*searchSession `json:"s"`
	// Segments are the segments the sessions' words are in.
	Segments []searchSegment `json:"g"`
}

// searchSegment is a segment of the index: its shards and how many keys
// and bytes it holds, live or not.
type searchSegment struct {
	ID     int   `json:"id"`
	Shards int   `json:"n"`
	Keys   int64 `json:"k"`
	Bytes  int64 `json:"b"`
}

type searchSession struct {
	Page, Title, Project string
	Start                int64
	Doc                  string
	// Seg is the segment that holds the session's words, Keys how many
	// keys it has there.
	Seg  int
	Keys int64
}

func (s searchSession) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.Page, s.Title, s.Project, s.Start, s.Doc, s.Seg, s.Keys})
}

func (s *searchSession) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil || len(a) != 7 {
		return errors.New("a search session is not a list of 7")
	}
	for i, p := range []any{&s.Page, &s.Title, &s.Project, &s.Start, &s.Doc, &s.Seg, &s.Keys} {
		if err := json.Unmarshal(a[i], p); err != nil {
			return err
		}
	}
	return nil
}

// segmentDir is the directory of segment id, relative to the archive.
func segmentDir(id int) string { return filepath.Join(searchDir, fmt.Sprintf("g%d", id)) }

// jsCall wraps data in the call the page's script defines: a script of
// data only. The JSON escapes <, > and &, and U+2028 and U+2029, so it is
// a JavaScript literal that cannot end its element.
func jsCall(fn string, args ...any) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("piexportSearch." + fn + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		j, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		b.Write(j)
	}
	b.WriteString(");\n")
	return b.Bytes(), nil
}

// jsArgs reads back what jsCall wrote.
func jsArgs(b []byte, fn string, args ...any) error {
	b, ok := bytes.CutPrefix(b, []byte("piexportSearch."+fn+"("))
	if ok {
		b, ok = bytes.CutSuffix(b, []byte(");\n"))
	}
	if !ok {
		return fmt.Errorf("not a %s script", fn)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(append(append([]byte("["), b...), ']'), &raw); err != nil {
		return err
	}
	if len(raw) != len(args) {
		return fmt.Errorf("%s has %s, want %d", fn, humanize.Count(len(raw), "argument", "arguments"), len(args))
	}
	for i, a := range args {
		if err := json.Unmarshal(raw[i], a); err != nil {
			return err
		}
	}
	return nil
}

// searchBuild collects the words of an archive's sessions into buckets on
// disk, then writes them as shards.
type searchBuild struct {
	dir string // the archive
	tmp string // the buckets, in a hidden directory of the archive
	mu  sync.Mutex
	out [nBuckets]*bufio.Writer
	fs  [nBuckets]*os.File
	n   int64 // keys written
	// keys counts the keys of each slot added.
	keys map[int]int64
}

// searchBuildPrefix begins the names of the hidden directories a build
// keeps its buckets in (searchBuild.tmp). One left by a killed build is
// removed by the next (see removeStaleTemps).
const searchBuildPrefix = ".search-build-"

func newSearchBuild(dir string) (*searchBuild, error) {
	tmp, err := os.MkdirTemp(dir, searchBuildPrefix)
	if err != nil {
		return nil, err
	}
	b := &searchBuild{dir: dir, tmp: tmp, keys: map[int]int64{}}
	for i := range b.fs {
		f, err := os.Create(filepath.Join(tmp, fmt.Sprint(i)))
		if err != nil {
			b.abort()
			return nil, err
		}
		b.fs[i] = f
		b.out[i] = bufio.NewWriterSize(f, 32<<10)
	}
	return b, nil
}

// abort removes the buckets.
func (b *searchBuild) abort() {
	for _, f := range b.fs {
		if f != nil {
			f.Close()
		}
	}
	os.RemoveAll(b.tmp)
}

// add appends the keys of word: records are the word, its length first,
// then the number of keys and the keys, all as varints.
func (b *searchBuild) addLocked(word string, keys []uint64) error {
	w := b.out[wordHash(word)%nBuckets]
	var v [binary.MaxVarintLen64]byte
	w.Write(v[:binary.PutUvarint(v[:], uint64(len(word)))])
	w.WriteString(word)
	w.Write(v[:binary.PutUvarint(v[:], uint64(len(keys)))])
	for _, k := range keys {
		w.Write(v[:binary.PutUvarint(v[:], k)])
	}
	b.n += int64(len(keys))
	return nil
}

// sessionDoc is what a session adds to the index: its entries' display
// data, and per word the entries that hold it.
type sessionDoc struct {
	entries [][3]string // id, role, text
	words   map[string][]int
}

// docOf collects the searchable entries of s, as the catalog indexes them.
func docOf(s *session.Session) *sessionDoc {
	d := &sessionDoc{words: map[string][]int{}}
	for _, e := range s.Entries {
		kind, text := catalog.EntryText(e)
		if kind == "" {
			continue
		}
		words := catalog.Words(text)
		if len(words) == 0 {
			continue
		}
		n := len(d.entries)
		if n >= 1<<entryBits {
			break // a million entries with text: the rest are not indexed
		}
		d.entries = append(d.entries, [3]string{e.ID, kind, session.Shorten(oneLine(text), previewLen)})
		for _, w := range words {
			if l := d.words[w]; len(l) == 0 || l[len(l)-1] != n {
				d.words[w] = append(l, n)
			}
		}
	}
	return d
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// addSession adds a session's words under slot num.
func (b *searchBuild) addSession(num int, d *sessionDoc) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.n
	defer func() { b.keys[num] += b.n - n }()
	base := uint64(num) << entryBits
	keys := make([]uint64, 0, 16)
	for w, entries := range d.words {
		keys = keys[:0]
		for _, e := range entries {
			keys = append(keys, base|uint64(e))
		}
		if err := b.addLocked(w, keys); err != nil {
			return err
		}
	}
	return nil
}

// addLive adds the live keys of segment seg, whose shards are in
// dir/segmentDir(seg.ID): those of the slots whose words are still there.
func (b *searchBuild) addLive(dir string, seg searchSegment, meta *searchMeta) error {
	for k := range seg.Shards {
		shard, err := readShard(dir, seg, k)
		if err != nil {
			return err
		}
		b.mu.Lock()
		for w, enc := range shard {
			keys, err := decodeKeys(enc)
			if err != nil {
				b.mu.Unlock()
				return fmt.Errorf("segment %d, shard %d: %w", seg.ID, k, err)
			}
			kept := keys[:0]
			for _, key := range keys {
				if slot := int(key >> entryBits); slot < len(meta.Sessions) && meta.Sessions[slot] != nil && meta.Sessions[slot].Seg == seg.ID {
					kept = append(kept, key)
				}
			}
			if len(kept) > 0 {
				b.addLocked(w, kept)
			}
		}
		b.mu.Unlock()
	}
	return nil
}

// readShard reads shard k of a segment.
func readShard(dir string, seg searchSegment, k int) (map[string]string, error) {
	data, err := fileguard.ReadInput(context.Background(), filepath.Join(dir, segmentDir(seg.ID), fmt.Sprintf("t%d.js", k)))
	if err != nil {
		return nil, err
	}
	var shard map[string]string
	var id, num int
	if err := jsArgs(data, "shard", &id, &num, &shard); err != nil || id != seg.ID || num != k {
		return nil, fmt.Errorf("segment %d, shard %d: %v", seg.ID, k, err)
	}
	return shard, nil
}

// finish writes what was added as segment id, with as many shards as make
// them about shardTarget bytes (a power of two: a word's shard is its
// hash modulo their number, which the page's script computes too), and
// returns it; a segment of no keys is not written.
func (b *searchBuild) finish(id int) (searchSegment, error) {
	defer b.abort()
	seg := searchSegment{ID: id, Keys: b.n}
	for i, w := range b.out {
		if err := w.Flush(); err != nil {
			return seg, err
		}
		if err := b.fs[i].Close(); err != nil {
			return seg, err
		}
		b.fs[i] = nil
	}
	if b.n == 0 {
		return seg, nil
	}
	segDir := filepath.Join(b.dir, segmentDir(id))
	os.RemoveAll(segDir) // left by an interrupted build
	if err := os.MkdirAll(segDir, 0o755); err != nil {
		return seg, err
	}
	// About two bytes a key once coded.
	seg.Shards = 1
	for int64(seg.Shards)*shardTarget < b.n*2 {
		seg.Shards *= 2
	}
	write := func(k int, m map[string]string) error {
		script, err := jsCall("shard", id, k, m)
		if err != nil {
			return err
		}
		seg.Bytes += int64(len(script))
		return atomicfile.WriteFile(filepath.Join(segDir, fmt.Sprintf("t%d.js", k)), script)
	}
	// A bucket's words are those whose hash is bucket modulo nBuckets:
	// with fewer shards than buckets, a shard takes several buckets
	// whole; with more, a bucket makes several shards.
	per := max(1, seg.Shards/nBuckets)
	groups := min(seg.Shards, nBuckets)
	for g := range groups {
		out := make([]map[string]string, per)
		for i := range out {
			out[i] = map[string]string{}
		}
		for bucket := g; bucket < nBuckets; bucket += groups {
			data, err := os.ReadFile(filepath.Join(b.tmp, fmt.Sprint(bucket)))
			if err != nil {
				return seg, err
			}
			words, err := readBucket(data)
			if err != nil {
				return seg, err
			}
			for w, keys := range words {
				slices.Sort(keys)
				keys = slices.Compact(keys)
				out[shardOf(w, seg.Shards)/groups][w] = encodeKeys(keys)
			}
		}
		for i, m := range out {
			if err := write(g+groups*i, m); err != nil {
				return seg, err
			}
		}
	}
	return seg, nil
}

// shardOf is the shard of a word among n (a power of two).
func shardOf(w string, n int) int { return int(wordHash(w) % uint32(n)) }

func readBucket(data []byte) (map[string][]uint64, error) {
	words := map[string][]uint64{}
	for len(data) > 0 {
		l, n := binary.Uvarint(data)
		if n <= 0 || uint64(len(data)-n) < l {
			return nil, errors.New("a search bucket is damaged")
		}
		w := string(data[n : n+int(l)])
		data = data[n+int(l):]
		c, n := binary.Uvarint(data)
		if n <= 0 {
			return nil, errors.New("a search bucket is damaged")
		}
		data = data[n:]
		keys := words[w]
		for range c {
			k, n := binary.Uvarint(data)
			if n <= 0 {
				return nil, errors.New("a search bucket is damaged")
			}
			keys = append(keys, k)
			data = data[n:]
		}
		words[w] = keys
	}
	return words, nil
}
