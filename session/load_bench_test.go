package session

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	gojson "github.com/goccy/go-json"

	"github.com/piexport/piexport/internal/sessiongen"
)

// generated50MB is a generated session of about 50 MB, made once per run.
var generated50MB = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	err := sessiongen.Write(&buf, sessiongen.Options{Seed: 1, TargetBytes: 50 << 20, Branches: true, Images: true, Compactions: true, Labels: true})
	if err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// BenchmarkLoad reads a 50 MB session: the speed of `piexport` before any
// rendering.
func BenchmarkLoad(b *testing.B) {
	data := generated50MB()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), "gen.jsonl"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode compares JSON decoders on the same load; it is how the
// decoder in wire.go was chosen.
func BenchmarkDecode(b *testing.B) {
	decoders := []struct {
		name string
		fn   func([]byte, any) error
	}{
		{"encoding-json", json.Unmarshal},
		{"goccy-go-json", gojson.Unmarshal},
		{"go-json-experiment", func(data []byte, v any) error { return jsonv2.Unmarshal(data, v) }},
	}
	data := generated50MB()
	saved := unmarshal
	defer func() { unmarshal = saved }()
	for _, d := range decoders {
		b.Run(d.name, func(b *testing.B) {
			unmarshal = d.fn
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Read(bytes.NewReader(data), "gen.jsonl"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
