package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

func hitIDs(r Results) []string {
	var ids []string
	for _, h := range r.Hits {
		ids = append(ids, h.Key+"/"+h.EntryID)
	}
	return ids
}

func TestIndexQueries(t *testing.T) {
	x := NewIndex()
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	x.Replace("old", day, []EntryText{
		{ID: "o1", Role: "user", Text: "Fix the Compaction bug in\nsession/load.go"},
		{ID: "o2", Role: "assistant", Text: "bash go test ./session"},
	})
	x.Replace("new", day.Add(time.Hour), []EntryText{
		{ID: "n1", Role: "user", Text: "Über straße: naïve café"},
		{ID: "n2", Role: "assistant", Text: "compacting the load of main.go"},
	})
	for _, tc := range []struct {
		q    string
		want []string
	}{
		{"compact", []string{"new/n2", "old/o1"}}, // word prefixes, case folded, newest first
		{"compaction", []string{"old/o1"}},
		{"compact load", []string{"new/n2", "old/o1"}}, // all words, any order
		{"compact go", []string{"new/n2", "old/o1"}},
		{"load.go", []string{"old/o1"}}, // punctuation: also as written
		{"main.go", []string{"new/n2"}},
		{`"bug in session"`, []string{"old/o1"}}, // a phrase across a line end
		{`"in bug"`, nil},
		{"paction", nil}, // not the start of a word
		{"über", []string{"new/n1"}},
		{"STRASSE", nil},
		{"straße", []string{"new/n1"}},
		{"CAFÉ", []string{"new/n1"}},
		{"./session", []string{"old/o2"}},
		{"", nil},
		{`""`, nil},
	} {
		if got := hitIDs(x.Search(tc.q, 10)); !slices.Equal(got, tc.want) {
			t.Errorf("Search(%q) = %q, want %q", tc.q, got, tc.want)
		}
	}

	r := x.Search("compact", 1)
	if r.Total != 2 || r.Sessions != 2 || len(r.Hits) != 1 {
		t.Errorf("limit 1: total %d sessions %d hits %d, want 2 2 1", r.Total, r.Sessions, len(r.Hits))
	}

	// Replacing a session drops its old entries; removing it drops all.
	x.Replace("old", day, []EntryText{{ID: "o3", Text: "nothing to see"}})
	if got := hitIDs(x.Search("compact", 10)); !slices.Equal(got, []string{"new/n2"}) {
		t.Errorf("after Replace: %q", got)
	}
	x.Remove("new")
	if got := hitIDs(x.Search("compact", 10)); got != nil {
		t.Errorf("after Remove: %q", got)
	}
	if got := hitIDs(x.Search("nothing", 10)); !slices.Equal(got, []string{"old/o3"}) {
		t.Errorf("after Remove: %q", got)
	}
}

func TestIndexSnippet(t *testing.T) {
	x := NewIndex()
	long := strings.Repeat("lorem ipsum ", 20) + "the Needle is here " + strings.Repeat("dolor sit ", 40)
	x.Replace("k", time.Time{}, []EntryText{{ID: "e", Text: long}})
	r := x.Search("needle here", 10)
	if len(r.Hits) != 1 {
		t.Fatalf("hits = %d", len(r.Hits))
	}
	h := r.Hits[0]
	if !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") {
		t.Errorf("snippet %q is not cut on both sides", h.Snippet)
	}
	var marked []string
	for _, m := range h.Marks {
		marked = append(marked, h.Snippet[m[0]:m[1]])
	}
	if !slices.Equal(marked, []string{"Needle", "here"}) {
		t.Errorf("marked %q, want Needle, here", marked)
	}
	if len(h.Snippet) > snippetLen+10 {
		t.Errorf("snippet is %d bytes", len(h.Snippet))
	}

	// Only the starts of words are marked.
	x.Replace("k2", time.Time{}, []EntryText{{ID: "e", Text: "abab Ab xab"}})
	r = x.Search("ab", 10)
	if len(r.Hits) != 1 || !slices.Equal(r.Hits[0].Marks, [][2]int{{0, 2}, {5, 7}}) {
		t.Errorf("marks of ab in %+v, want [0 2] [5 7]", r.Hits)
	}
}

// Many replacements compact the index without losing or inventing hits.
func TestIndexCompaction(t *testing.T) {
	x := NewIndex()
	for round := range 30 {
		for k := range 20 {
			var es []EntryText
			for e := range 20 {
				es = append(es, EntryText{ID: fmt.Sprint(e), Text: fmt.Sprintf("round%d key%d entry%d common", round, k, e)})
			}
			x.Replace(fmt.Sprint("k", k), time.Time{}, es)
		}
	}
	if len(x.slots) > 2*400+4096 {
		t.Errorf("%d slots for 400 live entries: never compacted", len(x.slots))
	}
	if r := x.Search("common", 0); r.Total != 400 || r.Sessions != 20 {
		t.Errorf("common: total %d in %d sessions, want 400 in 20", r.Total, r.Sessions)
	}
	if r := x.Search("round29 key3 entry7", 10); len(r.Hits) != 1 {
		t.Errorf("latest round: %d hits, want 1", len(r.Hits))
	}
	if r := x.Search("round28", 10); r.Total != 0 {
		t.Errorf("a replaced round still matches %d entries", r.Total)
	}
}

// BenchmarkSearch runs queries over 1,000 generated sessions.
func BenchmarkSearch(b *testing.B) {
	dir := b.TempDir()
	if _, err := sessiongen.Sessions(dir, 1000, 7); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	c, err := New(context.Background(), []string{dir}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	build := time.Since(start)
	// Queries of every kind: a rare and a common word, a prefix, two
	// words, a phrase, a path.
	for _, q := range []string{"migration", "the", "hand", "test fail", `"go test"`, "src/", "handler error"} {
		b.Run(q, func(b *testing.B) {
			var r Results
			for b.Loop() {
				r = c.Search(q, 100)
			}
			b.ReportMetric(float64(r.Total), "hits")
			b.ReportMetric(float64(build.Milliseconds()), "build-ms")
		})
	}
}
