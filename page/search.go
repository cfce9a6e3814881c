package page

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"

	"github.com/piexport/piexport/session"
)

// The search index: the tree's search box looks through the full text of
// every entry (session.WriteSearchText: messages, thinking, tool
// arguments and outputs), not just what the rows show.
//
// The page carries it at its very end, after the packed bodies, so the
// browser reads it only after it has drawn the end of the path: one line
// per entry in tree order, holding each word of the entry's text once,
// in the order they first come, lowercased, terminal escapes left out; a
// word is what lies between white space, punctuation and all. A search
// matches the entries whose line holds each of its words somewhere, so
// it finds what it would in the whole text, and the repeats left out make
// the index a third smaller (on the generated 50 MB session, 6.8 against
// 10 MB gzipped). It is gzipped and written as base64 (URL alphabet, no
// padding, so nothing in it needs escaping) in an inert <script
// type="application/x-piexport-search">. fulltext.js unpacks it the first
// time the search box is used, and searches it a slice at a time.

// searchScriptType is the type of the inert block that holds the index.
const searchScriptType = "application/x-piexport-search"

// searchIndex is the index of one page, built in the background while
// the page's entries are rendered.
type searchIndex = background

// background is a value a page carries at its end, made on another core
// while the page's entries are rendered.
type background struct {
	done chan struct{}
	data string
}

// buildSearchIndex starts building the index of nodes' entries.
func buildSearchIndex(s *session.Session, nodes []session.Node) *searchIndex {
	return newSearchIndex(len(nodes), func(i int, w *strings.Builder) { s.WriteSearchText(w, nodes[i].Entry) })
}

// newSearchIndex starts building the index of n entries, whose text
// write writes.
func newSearchIndex(n int, write func(i int, w *strings.Builder)) *searchIndex {
	ix := &background{done: make(chan struct{})}
	go func() {
		defer close(ix.done)
		var z bytes.Buffer
		// The text of code and logs compresses to about a fifth at the
		// default level; a faster level makes the page a third larger.
		// klauspost/compress gets there with a third of the standard
		// library's CPU time (the index of the generated 50 MB code
		// session: 0.3 against 0.85 s, 8.0 against 7.8 MB), and this
		// runs beside the rendering, on the same cores.
		zw := gzip.NewWriter(&z)
		zw.ModTime = noTime
		bw := bufio.NewWriterSize(zw, 64<<10)
		var text strings.Builder
		var line []byte
		seen := map[string]struct{}{}
		for i := range n {
			text.Reset()
			write(i, &text)
			line = appendSearchText(line[:0], text.String())
			writeWordsOnce(bw, line, seen)
			bw.WriteByte('\n')
		}
		// Writes to a bytes.Buffer cannot fail.
		_ = bw.Flush()
		_ = zw.Close()
		ix.data = base64.RawURLEncoding.EncodeToString(z.Bytes())
	}()
	return ix
}

// wait returns the value once it is made.
func (b *background) wait() string {
	<-b.done
	return b.data
}

// writeWordsOnce writes the words of line (separated by single spaces)
// that seen does not hold yet, adding them; seen is cleared first.
func writeWordsOnce(w *bufio.Writer, line []byte, seen map[string]struct{}) {
	clear(seen)
	first := true
	for len(line) > 0 {
		word := line
		if k := bytes.IndexByte(line, ' '); k >= 0 {
			word, line = line[:k], line[k+1:]
		} else {
			line = nil
		}
		if _, ok := seen[string(word)]; ok {
			continue
		}
		seen[string(word)] = struct{}{}
		if !first {
			w.WriteByte(' ')
		}
		first = false
		w.Write(word)
	}
}

// appendSearchText appends text to b as the index has it: lowercased (as
// JavaScript's toLowerCase does, for all but a few letters), white space
// and control characters folded into single spaces, terminal escape
// sequences left out.
func appendSearchText(b []byte, text string) []byte {
	space := false
	started := false
	for i := 0; i < len(text); {
		c := text[i]
		if c == 0x1b { // ESC: a terminal escape sequence
			i = skipEscape(text, i)
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		if r <= ' ' || unicode.IsSpace(r) || unicode.IsControl(r) {
			space = started
			continue
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		started = true
		switch {
		case r >= 'A' && r <= 'Z':
			b = append(b, byte(r)+'a'-'A')
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		default:
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
	}
	return b
}

// skipEscape returns the index after the escape sequence that starts at
// text[i]: CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), or ESC
// and one more character.
func skipEscape(text string, i int) int {
	i++
	if i >= len(text) {
		return i
	}
	switch text[i] {
	case '[':
		for i++; i < len(text); i++ {
			if c := text[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			}
		}
		return i
	case ']':
		for i++; i < len(text); i++ {
			if text[i] == 0x07 {
				return i + 1
			}
			if text[i] == 0x1b && i+1 < len(text) && text[i+1] == '\\' {
				return i + 2
			}
		}
		return i
	}
	return i + 1
}
