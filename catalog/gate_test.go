package catalog

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// Indexing a batch's texts waits while a search runs, between texts.
func TestCommitYieldsToSearches(t *testing.T) {
	c, err := Open(context.Background(), nil, Options{})
	must(t, err)
	defer c.Close()
	st, err := c.store(0)
	must(t, err)
	b, err := st.begin(context.Background())
	must(t, err)
	b.gate = &c.searches
	for i := range 3 {
		b.texts = append(b.texts, ftsText{int64(i + 1), "words to index"})
	}
	c.searches.enter()
	done := make(chan error, 1)
	go func() { done <- b.commit() }()
	for deadline := time.Now().Add(time.Minute); !c.Progress().Paused; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the commit never waited for the search")
		}
		select {
		case err := <-done:
			t.Fatalf("the commit ended (%v) while a search ran", err)
		default:
		}
	}
	c.searches.leave()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(time.Minute):
		t.Fatal("the commit did not go on once the search was over")
	}
	var n int
	must(t, st.r.QueryRow(`SELECT count(*) FROM fts WHERE fts MATCH 'index'`).Scan(&n))
	if n != 3 {
		t.Errorf("%d texts indexed, want 3", n)
	}
}

// Working out a file's rows waits while a search runs, between entries.
func TestRowsYieldToSearches(t *testing.T) {
	paths, err := sessiongen.Sessions(t.TempDir(), 1, 3)
	must(t, err)
	f, err := os.Open(paths[0])
	must(t, err)
	defer f.Close()
	fi, err := f.Stat()
	must(t, err)
	s, tr, err := readFull(f, paths[0])
	must(t, err)
	var gate searchGate
	gate.enter()
	done := make(chan *fileData, 1)
	go func() { done <- fromFull(paths[0], stampOf(fi), s, tr, &gate) }()
	for deadline := time.Now().Add(time.Minute); !gate.paused(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("working out the rows never waited for the search")
		}
		select {
		case <-done:
			t.Fatal("the rows were worked out while a search ran")
		default:
		}
	}
	gate.leave()
	select {
	case d := <-done:
		if len(d.entries) != len(s.Entries) {
			t.Errorf("%d rows of %d entries", len(d.entries), len(s.Entries))
		}
	case <-time.After(time.Minute):
		t.Fatal("working out the rows did not go on once the search was over")
	}
}
