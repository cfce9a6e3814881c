package render

import (
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/hostile"
)

// FuzzJSON: a value shown as JSON, however deep, makes HTML at most 64
// times its size plus a constant, and safe HTML.
func FuzzJSON(f *testing.F) {
	for _, n := range []int{1, 31, 32, 33, 100, 2000} {
		f.Add(hostile.DeepJSON(n))
	}
	f.Add(`{"a":"<script>alert(1)</script>","b":[[[[[["\"&'"]]]]]]}`)
	f.Add(strings.Repeat(`[`, 40) + strings.Repeat(`"<",`, 300) + `1` + strings.Repeat(`]`, 40))
	f.Fuzz(func(t *testing.T, raw string) {
		out := string(JSON([]byte(raw)))
		if len(out) > 64*len(raw)+128<<10 {
			t.Fatalf("%d bytes of JSON made %d bytes of HTML", len(raw), len(out))
		}
		for _, p := range contentSafetyProblems(out) {
			t.Errorf("%s: %q", p, out)
		}
	})
}
