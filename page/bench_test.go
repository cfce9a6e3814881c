package page

import (
	"bytes"
	"io"
	"testing"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// generated returns the generated session of about size bytes that
// tests and benchmarks share, read afresh.
func generated(size int64) ([]byte, *session.Session) {
	data := sessiongen.Sample(size)
	s, err := session.Read(bytes.NewReader(data), "gen.jsonl")
	if err != nil {
		panic(err)
	}
	return data, s
}

// BenchmarkExportLarge renders a generated 5 MB session to HTML: every
// stage but loading. MB/s counts the session's bytes.
func BenchmarkExportLarge(b *testing.B) {
	// Without render's code cache, every iteration measures highlighting.
	defer render.SetCodeCacheLimit(render.SetCodeCacheLimit(0))
	data, s := generated(5 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteHTML(io.Discard, s, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTemplate executes the page template alone, with every entry
// already rendered: the cost of the layout, the tree and the writing.
func BenchmarkTemplate(b *testing.B) {
	_, s := generated(5 << 20)
	v, err := buildPage(s, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var size bytes.Buffer
	if err := writePage(&size, v); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size.Len()))
	for b.Loop() {
		if err := writePage(io.Discard, v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPack packs the rendered bodies of a generated 5 MB session's
// entries, as a page does for those off the path: gzip and base64.
func BenchmarkPack(b *testing.B) {
	_, s := generated(5 << 20)
	v, err := buildPage(s, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, e := range v.Entries {
		size += int64(len(e.Body))
	}
	b.SetBytes(size)
	for b.Loop() {
		p := &packer{}
		for _, e := range v.Entries {
			p.add(string(e.Body))
		}
		p.done()
	}
}
