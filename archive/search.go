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
// search/<gen>/meta.js lists the sessions: their pages, titles and the
// file of each one's entries. search/<gen>/t<k>.js is shard k of the
// words: for each word whose hash falls in it, the entries that hold it,
// as sorted keys session<<20|entry, delta-coded as varints in base64.
// search/d/<stem>-<hash>.js lists one session's entries with text: id,
// role and a preview, in the numbering the keys use. A build writes a new
// generation <gen> whole before the index page points at it, so a reader
// never sees one generation's shards with another's numbering.
//
// Words are the catalog's (catalog.Words: folded, stopwords left out), so
// the archive finds what the server finds; a phrase matches the entries
// that hold all its words. A build rewrites the shards from the previous
// ones and the sessions that changed, without reading the others again.

// searchVersion names the format; another one is rebuilt from scratch.
const searchVersion = 1

const (
	searchDir = "search"
	docsDir   = "d"
	// nBuckets partitions the words while a build collects them, so that
	// only one part is ever held in memory; shards come out of buckets
	// whole, their number being a multiple of it.
	nBuckets = 64
	// shardTarget is about how large a shard is made: a query loads one per
	// word.
	shardTarget = 96 << 10
	// previewLen bounds an entry's preview, in bytes.
	previewLen = 160
	// entryBits is how many low bits of a key number the entry.
	entryBits = 20
)

// wordHash is FNV-1a of a word's bytes; the page's script computes the
// same to find a word's shard.
func wordHash(w string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(w))
	return h.Sum32()
}

// searchMeta is meta.js's data.
type searchMeta struct {
	Version int `json:"v"`
	// Shards is how many t<k>.js files there are.
	Shards int `json:"n"`
	// Sessions are in key order: [page, title, project, start (Unix
	// seconds), doc file].
	Sessions []searchSession `json:"s"`
}

type searchSession struct {
	Page, Title, Project string
	Start                int64
	Doc                  string
}

func (s searchSession) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{s.Page, s.Title, s.Project, s.Start, s.Doc})
}

func (s *searchSession) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil || len(a) != 5 {
		return errors.New("a search session is not a list of 5")
	}
	for i, p := range []any{&s.Page, &s.Title, &s.Project, &s.Start, &s.Doc} {
		if err := json.Unmarshal(a[i], p); err != nil {
			return err
		}
	}
	return nil
}

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
	b := &searchBuild{dir: dir, tmp: tmp}
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
	entries [][3]string // id, role, preview
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

// addSession adds a session's words under number num.
func (b *searchBuild) addSession(num int, d *sessionDoc) error {
	b.mu.Lock()
	defer b.mu.Unlock()
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

// addOld carries the words of sessions that did not change over from the
// previous generation's shards: renum maps their old numbers to new ones;
// sessions not in it are left out.
func (b *searchBuild) addOld(genDir string, shards int, renum map[int]int) error {
	for k := range shards {
		data, err := fileguard.ReadInput(context.Background(), filepath.Join(genDir, fmt.Sprintf("t%d.js", k)))
		if err != nil {
			return err
		}
		var shard map[string]string
		var num int
		if err := jsArgs(data, "shard", &num, &shard); err != nil || num != k {
			return fmt.Errorf("search shard %d: %v", k, err)
		}
		b.mu.Lock()
		for w, enc := range shard {
			keys, err := decodeKeys(enc)
			if err != nil {
				b.mu.Unlock()
				return fmt.Errorf("search shard %d: %w", k, err)
			}
			kept := keys[:0]
			for _, key := range keys {
				if n, ok := renum[int(key>>entryBits)]; ok {
					kept = append(kept, uint64(n)<<entryBits|key&(1<<entryBits-1))
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

// finish writes the shards of generation dir genDir: as many as make them
// about shardTarget bytes, each bucket's in turn.
func (b *searchBuild) finish(genDir string) (shards int, err error) {
	defer b.abort()
	for i, w := range b.out {
		if err := w.Flush(); err != nil {
			return 0, err
		}
		if err := b.fs[i].Close(); err != nil {
			return 0, err
		}
		b.fs[i] = nil
	}
	if err := os.MkdirAll(genDir, 0o755); err != nil {
		return 0, err
	}
	// About two bytes a key once coded.
	per := max(1, int(b.n*2/shardTarget/nBuckets))
	shards = nBuckets * per
	for bucket := range nBuckets {
		data, err := os.ReadFile(filepath.Join(b.tmp, fmt.Sprint(bucket)))
		if err != nil {
			return 0, err
		}
		words, err := readBucket(data)
		if err != nil {
			return 0, err
		}
		out := make([]map[string]string, per)
		for i := range out {
			out[i] = map[string]string{}
		}
		for w, keys := range words {
			slices.Sort(keys)
			keys = slices.Compact(keys)
			// This bucket's shards are bucket, bucket+nBuckets,
			// bucket+2·nBuckets…: the word's is the i-th of them.
			out[shardOf(w, shards)/nBuckets][w] = encodeKeys(keys)
		}
		for i, m := range out {
			k := bucket + nBuckets*i
			script, err := jsCall("shard", k, m)
			if err != nil {
				return 0, err
			}
			if err := atomicfile.WriteFile(filepath.Join(genDir, fmt.Sprintf("t%d.js", k)), script); err != nil {
				return 0, err
			}
		}
	}
	return shards, nil
}

// shardOf is the shard of a word among n (a multiple of nBuckets): the
// bucket's shards are k, k+nBuckets, k+2·nBuckets…
func shardOf(w string, n int) int {
	h := wordHash(w)
	per := n / nBuckets
	return int(h%nBuckets) + nBuckets*(int(h/nBuckets)%per)
}

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
