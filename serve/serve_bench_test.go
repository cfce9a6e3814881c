package serve

import (
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// BenchmarkServe requests the index, a session page and a search of a
// server holding 1,000 generated sessions, from many goroutines at once
// over loopback, and reports requests per second and the 99th percentile
// of latency.
func BenchmarkServe(b *testing.B) {
	dir := b.TempDir()
	if _, err := sessiongen.Sessions(dir, 1000, 11); err != nil {
		b.Fatal(err)
	}
	srv := start(b, Options{Paths: []string{dir}})
	// The first session the index lists: the newest.
	m := sessionLink.FindStringSubmatch(mustGet(b, srv.url))
	if m == nil {
		b.Fatal("the index links no session")
	}
	page := srv.url + "s/" + m[1]
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
	for _, bc := range []struct{ name, url string }{
		{"index", srv.url},
		{"page", page},
		{"search", srv.url + "search?q=handler+error"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var mu sync.Mutex
			var all []time.Duration
			var size int64
			b.SetParallelism(8)
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					t0 := time.Now()
					res, err := client.Get(bc.url)
					if err != nil {
						b.Error(err)
						return
					}
					n, err := io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if err != nil || res.StatusCode != 200 {
						b.Errorf("%s: %v %v", bc.url, res.Status, err)
						return
					}
					mine = append(mine, time.Since(t0))
					size = n
				}
				mu.Lock()
				all = append(all, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start)
			if len(all) == 0 {
				return
			}
			slices.Sort(all)
			b.SetBytes(size)
			b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
			b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

func mustGet(b *testing.B, url string) string {
	b.Helper()
	_, body := get(b, url)
	return body
}
