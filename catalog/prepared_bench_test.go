package catalog

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/piexport/piexport/internal/sessiongen"
	"github.com/piexport/piexport/redact"
)

// BenchmarkPreparedCache measures what a masking catalog (--serve
// --redact, --usage --redact) costs: reading a generated history of 300
// sessions into an empty cache, and reading again the one session that
// grew (masking reads a grown file whole, and a redacting catalog scrubs
// what it replaces). It reports the cache's size per megabyte of
// sessions. Run it as
//
//	go test ./catalog -run XXX -bench PreparedCache -benchtime 3x -count 5
//
// ("plain" is the same without masking).
func BenchmarkPreparedCache(b *testing.B) {
	src := b.TempDir()
	paths, err := sessiongen.Sessions(src, 300, 11)
	if err != nil {
		b.Fatal(err)
	}
	var size int64
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		size += fi.Size()
	}
	red, err := redact.New(redact.Options{Secrets: true, Literals: []string{"acme"}, Home: "/home/dev", Users: []string{"dev"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, masked := range []bool{false, true} {
		opt := Options{}
		name := "plain"
		if masked {
			name = "masked"
			opt.Mask = red
		}
		b.Run(name+"/read", func(b *testing.B) {
			b.SetBytes(size)
			var cache string
			for b.Loop() {
				b.StopTimer()
				cache = b.TempDir()
				opt.CacheDir = cache
				b.StartTimer()
				c, err := New(context.Background(), []string{src}, opt)
				if err != nil {
					b.Fatal(err)
				}
				c.Close()
			}
			b.ReportMetric(float64(dirSize(b, cache))/float64(size), "cache-bytes/byte")
		})
		b.Run(name+"/grown", func(b *testing.B) {
			opt.CacheDir = b.TempDir()
			c, err := New(context.Background(), []string{src}, opt)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			grown := paths[len(paths)-1]
			for b.Loop() {
				f, err := os.OpenFile(grown, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					b.Fatal(err)
				}
				f.WriteString(`{"type":"custom","customType":"tick","data":{"n":1}}` + "\n")
				f.Close()
				if _, err := c.Refresh(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
