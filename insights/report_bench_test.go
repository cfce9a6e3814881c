package insights

import (
	"fmt"
	"testing"
	"time"

	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// BenchmarkReport charts a heavy history's records: 1,000 sessions in 12
// projects, each working on 30 days with 3 models, 90,000 records, about
// what the catalog holds of the 5 GB history of bench/scale.
func BenchmarkReport(b *testing.B) {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var records []usage.Record
	for s := range 1000 {
		for d := range 30 {
			day := start.AddDate(0, 0, s/2+d).Format(time.DateOnly)
			for m := range 3 {
				records = append(records, usage.Record{Session: fmt.Sprint(s), Project: fmt.Sprintf("/home/dev/p%02d", s%12),
					Day: day, Model: fmt.Sprintf("provider/model-%d", (s+m)%7), Messages: 10,
					Usage: session.Usage{Input: 1000, Output: 500, CacheRead: 40000, CacheWrite: 2000, Cost: 0.05}})
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if r := NewReport(records, homeName); r == nil || len(r.Charts) != 6 {
			b.Fatal("no report")
		}
	}
}
