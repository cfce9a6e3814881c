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

// prerendered returns the page of s with every article rendered
// beforehand, so that writing it costs only the writing.
func prerendered(b *testing.B, s *session.Session) *Page {
	p, err := NewPage(s, Options{})
	if err != nil {
		b.Fatal(err)
	}
	views := make([]*entryView, len(p.v.Index.IDs))
	for _, bl := range p.blocks {
		for _, i := range bl.entries {
			views[i] = p.render(i)
		}
	}
	panels := p.panels()
	p.render = func(i int) *entryView { return views[i] }
	p.panels = func() []subAgentPanel { return panels }
	return p
}

// BenchmarkWrite writes a page whose every entry is rendered already:
// the cost of the layout, the index, the blocks and the packing.
func BenchmarkWrite(b *testing.B) {
	benchmarkWrite(b, func(w io.Writer, p *Page) error { return writePage(w, p) })
}

// benchmarkWrite times write on the prerendered page of a generated
// 5 MB session; MB/s counts the plain page's bytes.
func benchmarkWrite(b *testing.B, write func(io.Writer, *Page) error) {
	_, s := generated(5 << 20)
	p := prerendered(b, s)
	var size bytes.Buffer
	if err := writePage(&size, p); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size.Len()))
	for b.Loop() {
		if err := write(io.Discard, p); err != nil {
			b.Fatal(err)
		}
	}
}
