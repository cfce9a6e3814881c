package catalog

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// Ranking (rank.go) needs, for each entry a search finds, how often each
// of the query's words occurs in it and how many words it has; and, for
// each word, how many entries hold it. FTS5's bm25() works them out at
// search time: the first costs a look-up per entry, the last a walk
// through every entry that holds the word, which grows with the history
// (a third of a search's time on a 1.4 GB history). Here they are worked
// out once, while indexing, by the goroutines that read the files:
//
//   - an entry's length in words, and the frequency of each word it
//     holds more than once, as a list of (24-bit hash, count) pairs
//     (tfBlob), kept with the entry's row: a word found in the entry but
//     not in the list occurs once;
//   - how many entries hold each word, counted over a sample of one entry
//     in dfSample (so the counting costs an eighth) and kept per word in
//     the terms table, for words met in at least dfKeep sampled entries
//     of a batch: the common words, whose counts are the costly ones to
//     find at search time. A rarer word is counted at search time, which
//     its short list of entries makes cheap.

// dfSample is the share of entries whose words are counted for the terms
// table: one in dfSample.
const dfSample = 8

// dfKeep is how many sampled entries of a batch must hold a word for the
// batch to add it to the terms table.
const dfKeep = 2

// sampled says whether the entry on line is one whose words are counted.
func sampled(line int) bool {
	// A multiplicative hash, so that a session's rhythm of message kinds
	// does not line up with the sample.
	return uint32(line)*2654435761>>29 == 0
}

// termHash is the hash an entry's tfBlob keys its words by: 24 bits of
// a multiplicative hash of the word's bytes, eight at a time.
func termHash(w string) uint32 {
	b := make([]byte, len(w)+8)
	copy(b, w)
	return hashWord(b, 0, len(w))
}

// hashWord is termHash of b[start:end]; b must hold 8 bytes past end
// (their values do not matter).
func hashWord(b []byte, start, end int) uint32 {
	n := end - start
	h := uint64(n) * 0x9e3779b97f4a7c15
	for ; n >= 8; n -= 8 {
		h = mixWord(h, binary.LittleEndian.Uint64(b[start:]))
		start += 8
	}
	if n > 0 {
		h = mixWord(h, binary.LittleEndian.Uint64(b[start:])&(1<<(8*n)-1))
	}
	return uint32(h >> 40)
}

func mixWord(h, v uint64) uint64 {
	h = (h ^ v) * 0xbf58476d1ce4e5b9
	return h ^ h>>31
}

// wordCounter counts an entry's words by hash, in an open-addressing
// table reused from one entry to the next: sorting the words, or a Go map,
// cost several times as much over a history's hundred million words.
type wordCounter struct {
	keys   []uint32 // hash+1; 0 is an empty slot
	counts []int32
	starts []int32 // where each slot's word first occurs
	used   []int32 // the slots in use, to clear and to walk
}

// keptWords is the most words a wordCounter keeps a table for.
const keptWords = 32 << 10

// entryStats works out the figures ranking needs of an entry whose index
// text is buf (words one space apart, see indexText, which says where
// each ends; 8 bytes past its end readable): its number of words and the
// tfBlob of the words it holds more than once. When terms is not nil,
// each distinct word is counted in it once, keyed by a part of text, the
// same bytes as buf.
func (wc *wordCounter) entryStats(buf []byte, ends []int32, text string, terms map[string]int32) (words int, tf []byte) {
	// A table at least twice as large as the text can have words; one for
	// a text of more than keptWords words is not kept for the next.
	size := 64
	for size < len(buf) {
		size <<= 1
	}
	if len(wc.keys) < size {
		big := *wc
		big.keys, big.counts, big.starts = make([]uint32, size), make([]int32, size), make([]int32, size)
		if len(buf) > 2*keptWords {
			return big.entryStats(buf, ends, text, terms)
		}
		*wc = big
	}
	mask := uint32(len(wc.keys) - 1)
	p := buf[:len(buf)+8]
	start := 0
	for _, end := range ends {
		k := hashWord(p, start, int(end)) + 1
		slot := (k * 2654435761) & mask
		for wc.keys[slot] != 0 && wc.keys[slot] != k {
			slot = (slot + 1) & mask
		}
		if wc.keys[slot] == 0 {
			wc.keys[slot], wc.starts[slot] = k, int32(start)
			wc.used = append(wc.used, int32(slot))
		}
		wc.counts[slot]++
		start = int(end) + 1
	}
	for _, slot := range wc.used {
		if n := wc.counts[slot]; n > 1 {
			tf = appendTF(tf, wc.keys[slot]-1, int(n))
		}
		if terms != nil {
			s := int(wc.starts[slot])
			terms[text[s:s+bytes.IndexByte(buf[s:], ' ')]]++
		}
		wc.keys[slot], wc.counts[slot] = 0, 0
	}
	wc.used = wc.used[:0]
	return len(ends), tf
}

// appendTF adds a word's count to a tfBlob: three bytes of its hash, one
// of its count (at most 255: BM25 gains next to nothing past a few).
func appendTF(b []byte, h uint32, n int) []byte {
	return append(b, byte(h), byte(h>>8), byte(h>>16), byte(min(n, 255)))
}

// tfOf returns how often the word with hash h occurs in an entry whose
// tfBlob is b, given that it occurs: 1 when b does not list it.
func tfOf(b []byte, h uint32) int {
	for i := 0; i+4 <= len(b); i += 4 {
		if uint32(b[i])|uint32(b[i+1])<<8|uint32(b[i+2])<<16 == h {
			return int(b[i+3])
		}
	}
	return 1
}

// termCounts is what a batch adds to the terms table: sampled entries per
// word.
type termCounts map[string]int32

// add adds the counts of one file.
func (t termCounts) add(f map[string]int32) {
	for w, n := range f {
		t[w] += n
	}
}

// kept returns the words to store and their counts, in the order of the
// table's key (so the writes go through its pages once).
func (t termCounts) kept() []termCount {
	var out []termCount
	for w, n := range t {
		if n >= dfKeep {
			out = append(out, termCount{w, n})
		}
	}
	slices.SortFunc(out, func(a, b termCount) int { return cmp.Compare(a.word, b.word) })
	return out
}

type termCount struct {
	word string
	n    int32
}
