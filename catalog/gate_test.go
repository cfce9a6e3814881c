package catalog

import (
	"context"
	"testing"
	"time"
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
