package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// sessionFile writes a v3 session whose entries are the given messages,
// one chain, a minute apart from start; a message "<id>^<parent>:<role>:
// text" names its parent explicitly, for branches.
func sessionFile(t *testing.T, path, cwd string, start time.Time, msgs ...string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"session","version":3,"id":"%s","timestamp":"%s","cwd":%q}`+"\n",
		filepath.Base(path), start.Format(time.RFC3339), cwd)
	prev := "null"
	for i, m := range msgs {
		id := fmt.Sprintf("e%d", i+1)
		parent := prev
		if head, rest, ok := strings.Cut(m, ":"); ok && strings.Contains(head, "^") {
			id, parent, _ = strings.Cut(head, "^")
			parent = `"` + parent + `"`
			m = rest
		}
		role, text, _ := strings.Cut(m, ":")
		ts := start.Add(time.Duration(i+1) * time.Minute).Format(time.RFC3339)
		switch role {
		case "user":
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":{"role":"user","content":%q}}`+"\n", id, parent, ts, text)
		case "assistant":
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":{"role":"assistant","content":[{"type":"text","text":%q}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.01}}}}`+"\n", id, parent, ts, text)
		case "tool":
			fmt.Fprintf(&b, `{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":%q}]}}`+"\n", id, parent, ts, text)
		}
		prev = `"` + id + `"`
	}
	write(t, path, b.String())
}

func TestSearchQueries(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local)
	sessionFile(t, filepath.Join(dir, "--a--", "old.jsonl"), "/home/dev/webapp", day,
		"user:Fix the Compaction bug in\nsession/load.go",
		"assistant:bash go test ./session passes now",
		"tool:"+strings.Repeat("noise ", 1000)+"the final verdict: flaky_test_77 failed")
	sessionFile(t, filepath.Join(dir, "--b--", "new.jsonl"), "/home/dev/docs site", day.AddDate(0, 1, 0),
		"user:Über straße: naïve café",
		"assistant:compacting the load of main.go",
		"e3^e1:user:a second branch about compaction")
	c, _ := newCatalogOf(t, dir)
	for _, tc := range []struct {
		q    string
		want []string // file/entry, in rank order where it is fixed
	}{
		{"compaction", []string{"new/e3", "old/e1"}},
		{"compact", nil}, // whole words
		{"compact*", []string{"new/e2", "new/e3", "old/e1"}},
		{"compaction bug", []string{"old/e1"}}, // all words
		{"bug compaction", []string{"old/e1"}},
		{"load.go", []string{"old/e1"}}, // punctuation: the words, adjacent
		{"main.go", []string{"new/e2"}},
		{`"bug in session"`, []string{"old/e1"}}, // a phrase across a line end
		{`"session bug"`, nil},
		// The commonest words are words too (issue 23.4): searched alone,
		// and kept in a phrase.
		{`"bug session"`, nil},
		{`"in bug"`, nil},
		{`"bug in"`, []string{"old/e1"}},
		{"the", []string{"old/e1", "old/e3", "new/e2"}},
		{"in", []string{"old/e1"}},
		{`"the load"`, []string{"new/e2"}},
		{`"load the"`, nil},
		{"the compaction", []string{"old/e1"}},
		{"th*", []string{"old/e1", "old/e3", "new/e2"}},
		{"fla*", []string{"old/e3"}},
		{"über", []string{"new/e1"}},
		{"UBER", []string{"new/e1"}}, // accents and case folded
		{"cafe", []string{"new/e1"}},
		{"./session", []string{"old/e1", "old/e2"}}, // a path's words
		{"flaky_test_77", []string{"old/e3"}},       // the end of a long tool output
		{"compaction -bug", []string{"new/e3"}},
		{"-compaction", nil},
		{"compaction project:webapp", []string{"old/e1"}},
		{`compaction project:"docs site"`, []string{"new/e3"}},
		{"compaction model:sonnet", []string{"new/e3", "old/e1"}},
		{"compaction model:gpt", nil},
		{"compaction after:2026-03-15", []string{"new/e3"}},
		{"compaction before:2026-03", []string{"old/e1"}},
		{"compaction before:2026-03-01", []string{"old/e1"}}, // the day itself is before its end
		{"", nil},
		{`""`, nil},
		{"...", nil},
	} {
		got := search(t, c, tc.q, 10)
		var ids []string
		for _, h := range got.Hits {
			i, _ := c.Info(h.Key)
			ids = append(ids, strings.TrimSuffix(filepath.Base(i.Path), ".jsonl")+"/"+h.EntryID)
		}
		slices.Sort(ids)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("Search(%q) = %q, want %q", tc.q, ids, want)
		}
		if got.Total != len(tc.want) {
			t.Errorf("Search(%q): total %d, want %d", tc.q, got.Total, len(tc.want))
		}
	}

	r := search(t, c, "compaction", 1)
	if r.Total != 2 || r.Sessions != 2 || len(r.Hits) != 1 || r.More {
		t.Errorf("limit 1: total %d sessions %d hits %d more %v, want 2 2 1 false", r.Total, r.Sessions, len(r.Hits), r.More)
	}
	r = search(t, c, "branch", 10)
	if len(r.Hits) != 1 || r.Hits[0].Branch != 2 || r.Hits[0].Branches != 2 || r.Hits[0].Role != "user" {
		t.Errorf("a hit on a second branch = %+v, want branch 2 of 2", r.Hits)
	}
}

func newCatalogOf(t *testing.T, paths ...string) (*Catalog, []string) {
	t.Helper()
	return openCache(t, t.TempDir(), paths...)
}

func TestSearchSnippet(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("lorem ipsum ", 20) + "the Needle is\n\nhere " + strings.Repeat("dolor sit ", 40)
	sessionFile(t, filepath.Join(dir, "s.jsonl"), "/w", time.Now(), "user:"+long, "assistant:abab Ab xab café")
	c, _ := newCatalogOf(t, dir)
	r := search(t, c, "needle here", 10)
	if len(r.Hits) != 1 {
		t.Fatalf("hits = %d", len(r.Hits))
	}
	h := r.Hits[0]
	if !strings.HasPrefix(h.Snippet, "…") || !strings.HasSuffix(h.Snippet, "…") || strings.Contains(h.Snippet, "\n") {
		t.Errorf("snippet %q is not one line cut on both sides", h.Snippet)
	}
	if got := marked(h); !slices.Equal(got, []string{"Needle", "here"}) {
		t.Errorf("marked %q, want Needle, here", got)
	}
	if len(h.Snippet) > snippetLen+10 {
		t.Errorf("snippet is %d bytes", len(h.Snippet))
	}
	r = search(t, c, `"needle is here"`, 10)
	if len(r.Hits) != 1 || !slices.Equal(marked(r.Hits[0]), []string{"Needle is here"}) {
		t.Errorf("phrase across blank lines: %+v", r.Hits)
	}

	// Whole words are marked, and words that start with a prefix.
	for q, want := range map[string][]string{
		"ab":   {"Ab"},
		"ab*":  {"abab", "Ab"},
		"CAFE": {"café"},
	} {
		r := search(t, c, q, 10)
		if len(r.Hits) != 1 || !slices.Equal(marked(r.Hits[0]), want) {
			t.Errorf("Search(%q) marks %q, want %q", q, r.Hits, want)
		}
	}
}

func marked(h Hit) []string {
	var out []string
	for _, m := range h.Marks {
		out = append(out, h.Snippet[m[0]:m[1]])
	}
	return out
}

// Searches that match more entries than are ranked say so, and rank the
// newest.
func TestSearchMany(t *testing.T) {
	dir := t.TempDir()
	var msgs []string
	for i := range maxCandidates + 50 {
		msgs = append(msgs, fmt.Sprintf("user:common word number%d", i))
	}
	sessionFile(t, filepath.Join(dir, "s.jsonl"), "/w", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), msgs...)
	c, _ := newCatalogOf(t, dir)
	r := search(t, c, "common", 10)
	if !r.More || r.Total != maxCandidates || len(r.Hits) != 10 {
		t.Errorf("total %d more %v hits %d, want %d true 10", r.Total, r.More, len(r.Hits), maxCandidates)
	}
	for _, h := range r.Hits {
		var n int
		fmt.Sscanf(h.EntryID, "e%d", &n)
		if n <= 50 {
			t.Errorf("hit %s is among the oldest entries, not the newest ranked", h.EntryID)
		}
	}
}

// BenchmarkSearch runs queries over 1,000 generated sessions.
func BenchmarkSearch(b *testing.B) {
	dir := b.TempDir()
	if _, err := sessiongen.Sessions(dir, 1000, 7); err != nil {
		b.Fatal(err)
	}
	c, err := New(context.Background(), []string{dir}, Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	// Queries of every kind: a rare and a common word, a prefix, two
	// words, a phrase, a path.
	for _, q := range []string{"migration", "the", "hand*", "test fail", `"go test"`, "src/", "handler error"} {
		b.Run(q, func(b *testing.B) {
			var r Results
			for b.Loop() {
				r = search(b, c, q, 50)
			}
			b.ReportMetric(float64(r.Total), "hits")
		})
	}
}

// Tool output is indexed as the terminal showed it: an OSC 8 hyperlink's
// text is found, its target and the sequences around it are not.
func TestSearchTerminalOutput(t *testing.T) {
	dir := t.TempDir()
	out, err := json.Marshal("\x1b]0;windowtitle\x07\x1b[1m\x1b]8;;https://secretdocs.example/page\x1b\\visible_guide\x1b]8;;\x1b\\\x1b[0m\x1b]52;c;Y2xpcGJvYXJk\x07")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "--a--", "links.jsonl"), `{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:00:00Z","cwd":"/home/dev/docs"}
{"type":"message","id":"e1","parentId":null,"timestamp":"2026-03-01T09:01:00Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":`+string(out)+`}]}}
`)
	c, _ := newCatalogOf(t, dir)
	for q, want := range map[string]int{"visible_guide": 1, "secretdocs": 0, "windowtitle": 0, "Y2xpcGJvYXJk": 0, "1m": 0} {
		if got := search(t, c, q, 10).Total; got != want {
			t.Errorf("Search(%q): %d hits, want %d", q, got, want)
		}
	}
}

// A command's coloured output is found by its words, and its snippet is
// plain text (issue 23.3).
func TestSearchColouredOutput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "s.jsonl"), `{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T09:00:00Z","cwd":"/w"}
{"type":"message","id":"e1","parentId":null,"timestamp":"2026-03-01T09:01:00Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"\u001b[36mvite v5.4.2 \u001b[32mbuilding for production\u001b[0m"}]}}
`)
	c, _ := newCatalogOf(t, dir)
	r := search(t, c, "vite building", 10)
	if len(r.Hits) != 1 {
		t.Fatalf("hits = %d, want 1", len(r.Hits))
	}
	if h := r.Hits[0]; h.Snippet != "vite v5.4.2 building for production" || !slices.Equal(marked(h), []string{"vite", "building"}) {
		t.Errorf("snippet %q marks %q", h.Snippet, marked(h))
	}
}

// A filter that keeps a few sessions of many searches their entries'
// key ranges (spans), and finds all of their matches and only those.
func TestSearchFewSessions(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local)
	for i := range 24 {
		var msgs []string
		for k := range 30 {
			msgs = append(msgs, fmt.Sprintf("user:common words of session %d, line %d", i, k))
		}
		// Sessions overlap in time two by two.
		sessionFile(t, filepath.Join(dir, fmt.Sprintf("--p%d--", i), "s.jsonl"), fmt.Sprintf("/w/proj%02d", i), day.Add(time.Duration(i/2)*time.Hour), msgs...)
	}
	c, _ := newCatalogOf(t, dir)
	for _, tc := range []struct {
		q     string
		total int
	}{
		{"common project:proj07", 30},
		{"common project:proj1", 10 * 30}, // proj10 to proj19
		{"common line project:proj03", 30},
		{"common project:proj03 after:2026-03-01", 30},
		{"common", 24 * 30},
	} {
		r := search(t, c, tc.q, 5)
		if r.Total != tc.total {
			t.Errorf("Search(%q): total %d, want %d", tc.q, r.Total, tc.total)
		}
	}
	// The spans of one file in its shard are its keys' range.
	pq := parseQuery("common project:proj07")
	files, _ := c.searchable(pq)
	for i := range shards {
		st, err := c.store(i)
		must(t, err)
		spans, err := c.spans(context.Background(), st, i, files, 0, 1<<63-1)
		must(t, err)
		if n := len(spans); n > 1 || n == 1 && spans[0] == [2]int64{0, 1<<63 - 1} {
			t.Errorf("shard %d: spans %v, want the one file's keys", i, spans)
		}
	}
}

// A search looks through windows of keys newest first, growing them, and
// finds every match however far apart; past its deadline it stops and
// says where (issue 25: a search never takes long, whatever its words).
func TestSearchWindows(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2025, 1, 1, 9, 0, 0, 0, time.Local)
	for i := range 40 {
		msg := "user:an ordinary day"
		if i%3 == 0 {
			msg = "user:a rare wombat day"
		}
		// Sessions 9 days apart: a year of them.
		sessionFile(t, filepath.Join(dir, fmt.Sprintf("--p%d--", i), "s.jsonl"), "/w", day.AddDate(0, 0, 9*i), msg, "assistant:fine")
	}
	c, _ := newCatalogOf(t, dir)
	r := search(t, c, "wombat", 100)
	if r.Total != 14 || r.More || len(r.Notes) != 0 {
		t.Errorf("wombat: total %d more %v notes %q, want 14 false none", r.Total, r.More, r.Notes)
	}
	// No time at all: the first window (here the newest two entries of a
	// shard) is all it looks through.
	c.walk = searchWalk{budget: 0, firstWindow: 2}
	r = search(t, c, "wombat", 100)
	if r.Total != 1 || !r.More || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "stopped") {
		t.Errorf("past the deadline: total %d more %v notes %q", r.Total, r.More, r.Notes)
	}
	if newest := day.AddDate(0, 0, 9*39); r.Oldest.After(newest.Add(time.Hour)) || r.Oldest.Before(newest.AddDate(0, 0, -27)) {
		t.Errorf("it says it stopped at %v, not about the newest session (%v)", r.Oldest, newest)
	}
}

// Reading waits while a search runs, so that the search has the machine.
func TestReadingYieldsToSearches(t *testing.T) {
	dir := t.TempDir()
	if _, err := sessiongen.Sessions(dir, 20, 9); err != nil {
		t.Fatal(err)
	}
	c, err := Open(context.Background(), []string{dir}, Options{CacheDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	c.searches.enter() // a search under way
	done := make(chan error, 1)
	go func() {
		_, err := c.Update(context.Background())
		done <- err
	}()
	// Reading starts, finds the search, and waits for it.
	for deadline := time.Now().Add(time.Minute); !c.Progress().Paused; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("reading never waited for the search")
		}
		select {
		case err := <-done:
			t.Fatalf("reading ended (%v) while a search ran", err)
		default:
		}
	}
	if p := c.Progress(); p.Done != 0 || p.Files != 20 {
		t.Errorf("while a search ran, %d of %d files were read, want 0 of 20", p.Done, p.Files)
	}
	c.searches.leave()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(time.Minute):
		t.Fatal("reading did not go on once the search was over")
	}
	if p := c.Progress(); p.Done != 20 || p.Paused {
		t.Errorf("%d of 20 files read, paused %v", p.Done, p.Paused)
	}
}
