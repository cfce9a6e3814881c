package redact

import (
	"bytes"
	"sync"
	"testing"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/session"
)

// generated returns a generated session file of 50 MB, made once.
var generated = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	opt := sessiongen.Options{Seed: 1, TargetBytes: 50_000_000, Branches: true, Images: true, Compactions: true, Labels: true}
	if err := sessiongen.Write(&buf, opt); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// BenchmarkSession masks a generated 50 MB session; loading it is not
// timed. cmd/piexport's BenchmarkRedact compares it with a whole export.
func BenchmarkSession(b *testing.B) {
	data := generated()
	r, err := New(Options{Secrets: true, Home: "/home/dev", Users: []string{"dev"}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		b.StopTimer()
		s, err := session.Read(bytes.NewReader(data), "gen.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r.Session(s)
	}
}
