package page

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/piexport/piexport/render"
)

// Packing: the articles of the entries off the path in view, and the
// sub-agents' transcripts.
//
// Those are hidden when the page opens, and without JavaScript they stay
// hidden, so their HTML need not be readable as it is. It is gzipped in
// chunks and written as base64 in inert <script
// type="application/x-piexport-pack"> blocks: on a session with many
// branches that takes much of the page's bytes out of what the browser
// reads, in a fifth of the room. The page's script unpacks a chunk
// (DecompressionStream) the first time one of its entries is needed.
//
// A chunk's data-map lists what it holds in order, each with the length
// of its HTML in bytes once unpacked: [[entry index, length], ...], or
// for a transcript [panel id, length].

// packChunkBytes is the unpacked size at which a chunk is closed. Larger
// chunks compress better; smaller ones unpack sooner on a branch switch.
const packChunkBytes = 256 << 10

// packScriptType is the type of the inert blocks that hold the chunks.
const packScriptType = "application/x-piexport-pack"

// chunkWriter collects articles into chunks and writes each one, packed,
// once it is full.
type chunkWriter struct {
	raw   render.Builder
	where [][2]any
	count int // chunks written
}

// took notes the article of an entry (key is its index) or a transcript
// (key is its panel's id), written into raw from start on, and writes the
// chunk if it is full.
func (c *chunkWriter) took(w *bufio.Writer, key any, start int) error {
	normalizeNewlines(&c.raw, start)
	c.where = append(c.where, [2]any{key, c.raw.Len() - start})
	if c.raw.Len() >= packChunkBytes {
		return c.flush(w)
	}
	return nil
}

// flush writes the chunk being filled, if it holds anything.
func (c *chunkWriter) flush(w *bufio.Writer) error {
	if c.raw.Len() == 0 {
		return nil
	}
	where, err := json.Marshal(c.where)
	if err != nil {
		return fmt.Errorf("render page: chunk map: %w", err)
	}
	w.WriteString(`<script type="` + packScriptType + `" id="pack-`)
	w.WriteString(strconv.Itoa(c.count))
	w.WriteString(`" data-map="`)
	// The map's keys are entry indexes and panel ids; a panel id comes
	// from file names, so the map is escaped as any attribute.
	w.WriteString(html.EscapeString(string(where)))
	w.WriteString(`">`)
	writePacked(w, c.raw.Bytes())
	w.WriteString(`</script>`)
	_, err = w.WriteString(arrivedTag)
	c.raw.Reset()
	c.where = c.where[:0]
	c.count++
	return err
}

// writePacked writes raw gzipped, in base64 with the URL alphabet and no
// padding, so that nothing in it needs escaping in HTML.
func writePacked(w *bufio.Writer, raw []byte) {
	z := gzipBuffers.Get().(*bytes.Buffer)
	defer gzipBuffers.Put(z)
	z.Reset()
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(z)
	zw.ModTime = noTime
	// Writes to a bytes.Buffer cannot fail.
	_, _ = zw.Write(raw)
	_ = zw.Close()
	enc := base64.NewEncoder(base64.RawURLEncoding, w)
	_, _ = enc.Write(z.Bytes())
	_ = enc.Close()
}

// A gzip writer holds a megabyte of tables: they are reused from chunk to
// chunk and page to page. klauspost/compress at its default level takes
// about the CPU time of the standard library's BestSpeed and makes the
// chunks a sixth smaller (the packs of the generated 50 MB code session:
// 5.9 MB at BestSpeed, 4.9 MB now, 0.22 against 0.25 s of CPU), so the
// page is smaller and waits no longer for its last chunk.
var (
	gzipWriters = sync.Pool{New: func() any {
		zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
		return zw
	}}
	gzipBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// noTime is a gzip header's "no time stamp" (RFC 1952): klauspost's
// writer puts ModTime in the header as it is, and time.Time's zero is not
// the Unix epoch.
var noTime = time.Unix(0, 0)
