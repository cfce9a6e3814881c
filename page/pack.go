package page

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Packing: the bodies of entries off the path in view.
//
// Those entries are hidden when the page opens, and without JavaScript
// they stay hidden, so their HTML need not be in the document flow. It is
// gzipped in chunks and written as base64 at the end of the page, in
// inert <script type="application/x-piexport-pack"> blocks. On a session
// with many branches that takes much of the page's bytes out of what the
// browser reads before it can show the leaf (18 of 62 MB on the generated
// 50 MB session), in two fifths of the room. page.js unpacks a chunk
// (DecompressionStream) the first time an entry in it is shown.
//
// An entry's body element names its chunk, and the byte offset and length
// of its HTML in the unpacked chunk: data-packed="CHUNK:OFFSET:LENGTH".

// packChunkBytes is the unpacked size at which a chunk is closed. Larger
// chunks compress better; smaller ones unpack sooner on a branch switch.
const packChunkBytes = 256 << 10

// packScriptType is the type of the inert blocks that hold the chunks.
const packScriptType = "application/x-piexport-pack"

// packChunk is one chunk as written: its index and its gzip data in
// base64, URL alphabet without padding, so that nothing in it needs
// escaping in HTML.
type packChunk struct {
	Index int
	Data  string
}

// packer collects bodies into chunks, in page order. Chunks are
// compressed in the background, on the cores the renderers leave free.
type packer struct {
	raw    bytes.Buffer
	chunks []*packChunk
	wg     sync.WaitGroup
}

// add takes body into the current chunk and returns the reference the
// page's body element carries.
func (p *packer) add(body string) string {
	ref := fmt.Sprintf("%d:%d:%d", len(p.chunks), p.raw.Len(), len(body))
	p.raw.WriteString(body)
	if p.raw.Len() >= packChunkBytes {
		p.flush()
	}
	return ref
}

// flush closes the current chunk, if it holds anything, and starts
// compressing it.
func (p *packer) flush() {
	if p.raw.Len() == 0 {
		return
	}
	c := &packChunk{Index: len(p.chunks)}
	p.chunks = append(p.chunks, c)
	// The chunk's bytes go to the compressor; the next chunk gets a
	// buffer of its own.
	raw := p.raw.Bytes()
	p.raw = bytes.Buffer{}
	p.raw.Grow(packChunkBytes + packChunkBytes/4)
	p.wg.Go(func() {
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
		c.Data = base64.RawURLEncoding.EncodeToString(z.Bytes())
	})
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

// done flushes the last chunk and waits until every chunk is compressed.
func (p *packer) done() {
	p.flush()
	p.wg.Wait()
}

// pack passes entries through in order, moving the bodies of those off
// the path into p, and then the sub-agent transcripts. The chunks are
// complete once the returned channel is closed. Closing stop ends it
// early.
func (p *packer) pack(in <-chan entryView, stop <-chan struct{}, panels []subAgentPanel) <-chan entryView {
	out := make(chan entryView)
	go func() {
		defer close(out)
		defer p.done()
		defer func() {
			for i := range panels {
				if panels[i].Body != "" {
					panels[i].Packed = p.add(string(panels[i].Body))
					panels[i].Body = ""
				}
			}
		}()
		for e := range in {
			if !e.OnPath && e.Body != "" {
				e.Packed = p.add(string(e.Body))
				e.Body = ""
			}
			select {
			case out <- e:
			case <-stop:
				return
			}
		}
	}()
	return out
}
