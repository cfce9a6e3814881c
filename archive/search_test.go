package archive

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// find looks words up in an archive's search index as its page's script
// does, and returns the hits as "page#entry", in key order.
func find(t *testing.T, dir string, words ...string) []string {
	t.Helper()
	m, err := readManifest(dir)
	must(t, err)
	meta := readSearchMeta(dir, m)
	if meta == nil {
		t.Fatal("the archive has no search index")
	}
	var keys []uint64
	for i, w := range words {
		var got []uint64
		for _, g := range meta.Segments {
			shard, err := readShard(dir, g, shardOf(w, g.Shards))
			must(t, err)
			ks, err := decodeKeys(shard[w])
			must(t, err)
			for _, k := range ks {
				if s := meta.Sessions[k>>entryBits]; s != nil && s.Seg == g.ID {
					got = append(got, k)
				}
			}
		}
		slices.Sort(got)
		if i == 0 {
			keys = got
		} else {
			keys = slices.DeleteFunc(keys, func(k uint64) bool { return !slices.Contains(got, k) })
		}
	}
	var out []string
	for _, k := range keys {
		s := meta.Sessions[k>>entryBits]
		b, err := os.ReadFile(filepath.Join(dir, searchDir, docsDir, s.Doc))
		must(t, err)
		var name string
		var entries [][3]string
		must(t, jsArgs(b, "doc", &name, &entries))
		out = append(out, s.Page+"#"+entries[k&(1<<entryBits-1)][0])
	}
	return out
}

// The search index follows the sessions from build to build: words of a
// changed session are found where they are now, those of an unchanged one
// are carried over, those of a removed one go; an index that cannot be
// read is made anew.
func TestSearchIndex(t *testing.T) {
	src := t.TempDir()
	out := t.TempDir()
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-sdk-compaction-custom.jsonl", "pi-v3-earth0-tiny.jsonl")
	build := func() {
		t.Helper()
		_, err := Build(context.Background(), out, files, Options{})
		must(t, err)
	}
	build()
	mux := []string{pageA + "#6eea0e7d"}
	if got := find(t, out, "registered", "mux"); !slices.Equal(got, mux) {
		t.Errorf("registered mux: %q, want %q", got, mux)
	}
	// Every word is indexed, the commonest too (issue 23.4).
	if got := find(t, out, "the", "default", "mux"); !slices.Equal(got, mux) {
		t.Errorf("the default mux: %q, want %q", got, mux)
	}

	// One session grows; another is removed.
	f, err := os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(`{"type":"message","id":"zz000001","parentId":null,"timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"a wombat appears"}}` + "\n")
	must(t, err)
	must(t, f.Close())
	must(t, os.Remove(files[2]))
	files = slices.Delete(files, 2, 3)
	build()
	if got := find(t, out, "wombat"); !slices.Equal(got, []string{pageB + "#zz000001"}) {
		t.Errorf("wombat: %q", got)
	}
	if got := find(t, out, "registered", "mux"); !slices.Equal(got, mux) {
		t.Errorf("after the change, registered mux: %q, want %q", got, mux)
	}
	if _, err := os.Stat(filepath.Join(out, metaName(1))); err == nil {
		t.Error("the last generation was not removed")
	}
	docs, _ := os.ReadDir(filepath.Join(out, searchDir, docsDir))
	if len(docs) != 2 {
		t.Errorf("%d doc files, want 2 (the removed session's went)", len(docs))
	}

	// Garbage in a shard: the next build reads every session's words.
	m, err := readManifest(out)
	must(t, err)
	meta := readSearchMeta(out, m)
	must(t, os.WriteFile(filepath.Join(out, segmentDir(meta.Segments[0].ID), "t0.js"), []byte("garbage"), 0o644))
	f, err = os.OpenFile(files[1], os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString(`{"type":"message","id":"zz000002","parentId":null,"timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"a numbat too"}}` + "\n")
	must(t, err)
	must(t, f.Close())
	build()
	if got := find(t, out, "registered", "mux"); !slices.Equal(got, mux) {
		t.Errorf("after a damaged shard, registered mux: %q, want %q", got, mux)
	}
	if got := find(t, out, "numbat"); !slices.Equal(got, []string{pageB + "#zz000002"}) {
		t.Errorf("numbat: %q", got)
	}
}

// Sub-agents are listed under their session and forks beside theirs, both
// linked both ways; a fork that appears later gets its parent's page made
// again with the link.
func TestRelatedPages(t *testing.T) {
	src := filepath.Join(t.TempDir(), "--proj--")
	out := t.TempDir()
	line := func(id, text string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", id, text)
	}
	header := func(id, parent string) string {
		return fmt.Sprintf(`{"type":"session","version":3,"id":%q,"timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w","parentSession":%q}`+"\n", id, parent)
	}
	write := func(p, s string) string {
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	main := write(filepath.Join(src, "main.jsonl"), header("m", "")+line("a", "the main session"))
	agent := write(filepath.Join(src, "main", "Lexer.jsonl"), header("l", "")+line("b", "a lexing task"))
	files := []string{main, agent}
	build := func() Result {
		t.Helper()
		res, err := Build(context.Background(), out, files, Options{})
		must(t, err)
		return res
	}
	build()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		must(t, err)
		return string(b)
	}
	index := read("index.html")
	if strings.Contains(index, `<td class="title"><a href="proj--Lexer.html">`) || !strings.Contains(index, `Sub-agents: <a href="proj--main--Lexer.html">Lexer</a>`) {
		t.Errorf("the index lists the sub-agent as a session, or not under its session")
	}
	if !strings.Contains(read("proj--main--Lexer.html"), `<dt>Sub-agent of</dt><dd><a href="proj--main.html">the main session</a>`) {
		t.Errorf("the sub-agent's page does not link its session:\n%s", grepDT(read("proj--main--Lexer.html")))
	}
	if got := find(t, out, "lexing"); !slices.Equal(got, []string{"proj--main--Lexer.html#b"}) {
		t.Errorf("a sub-agent's words: %q", got)
	}
	// The search heads a sub-agent's hits with its session's title, as
	// the server's does.
	m, err := readManifest(out)
	must(t, err)
	titles := map[string]string{}
	for _, s := range readSearchMeta(out, m).Sessions {
		if s != nil {
			titles[s.Page] = s.Title
		}
	}
	if want := map[string]string{"proj--main.html": "the main session", "proj--main--Lexer.html": "the main session › Lexer"}; !maps.Equal(titles, want) {
		t.Errorf("the search's titles are %q, want %q", titles, want)
	}

	fork := write(filepath.Join(src, "fork.jsonl"), header("f", main)+line("c", "a forked session"))
	files = append(files, fork)
	res := build()
	if !slices.Contains(res.Rendered, main) {
		t.Errorf("rendered %q: the parent of a new fork was not made again", res.Rendered)
	}
	if !strings.Contains(read("proj--main.html"), `<dt>Forks</dt><dd><a href="proj--fork.html">a forked session</a>`) ||
		!strings.Contains(read("proj--fork.html"), `<dt>Forked from</dt><dd><a href="proj--main.html">the main session</a>`) {
		t.Errorf("the fork and its parent do not link each other:\n%s\n%s", grepDT(read("proj--main.html")), grepDT(read("proj--fork.html")))
	}

	// The manifest, which goes with the archive, does not keep the path
	// a fork's header names (issue 21, item 4); the links hold all the
	// same when the parent changes and the fork does not, and when the
	// fork is touched but not changed.
	if m := read(ManifestName); strings.Contains(m, main) || strings.Contains(m, "parentSession") {
		t.Errorf("the manifest keeps the path of the session a fork came from")
	}
	write(main, header("m", "")+line("a", "the main session, longer"))
	later := time.Now().Add(time.Minute)
	must(t, os.Chtimes(fork, later, later))
	build()
	if !strings.Contains(read("proj--main.html"), `<dt>Forks</dt><dd><a href="proj--fork.html">a forked session</a>`) ||
		!strings.Contains(read("proj--fork.html"), `<dt>Forked from</dt><dd><a href="proj--main.html">`) {
		t.Errorf("the links are lost once the manifest is read back:\n%s\n%s", grepDT(read("proj--main.html")), grepDT(read("proj--fork.html")))
	}
}

func grepDT(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "<dt>") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// An archive run writes nothing outside its output directory: not beside
// the sessions, not in the home or the temporary directory (its search
// index is collected in a hidden directory of the archive).
func TestWritesOnlyOutput(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp)
	src := t.TempDir()
	files := sources(t, src, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-a.jsonl")
	before := snap(t, src)
	out := filepath.Join(t.TempDir(), "archive")
	_, err := Build(context.Background(), out, files, Options{})
	must(t, err)
	if c := changed(before, snap(t, src)); c != nil {
		t.Errorf("the sources' directory changed: %q", c)
	}
	for _, d := range []string{home, tmp} {
		if got := snap(t, d); len(got) != 0 {
			t.Errorf("the build wrote to %s: %v", d, got)
		}
	}
	for name := range snap(t, out) {
		if strings.HasPrefix(name, ".search-build-") {
			t.Errorf("%s left in the archive", name)
		}
	}
}

// An archive's Markdown index lists every sub-agent under its session, a
// sub-agent's own sub-agents too (a Markdown document links nowhere but
// through the index), each linked to its document.
func TestMarkdownIndexSubAgents(t *testing.T) {
	src := filepath.Join(t.TempDir(), "--proj--")
	out := t.TempDir()
	header := `{"type":"session","version":3,"id":"x","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}` + "\n"
	line := func(text string) string {
		return fmt.Sprintf(`{"type":"message","id":"a","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", text)
	}
	var files []string
	for name, text := range map[string]string{
		"main.jsonl": "the main session", "main/Lexer.jsonl": "lexing", "main/Parser.jsonl": "parsing",
		"main/Lexer/Tokens.jsonl": "tokens",
	} {
		p := filepath.Join(src, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(header+line(text)), 0o644))
		files = append(files, p)
	}
	slices.Sort(files)
	if _, err := Build(context.Background(), out, files, Options{Format: "md"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "index.md"))
	must(t, err)
	index := string(b)
	want := "| [the main session](proj--main.md) |"
	agents := "\n| ↳ Sub-agents: [Lexer](proj--main--Lexer.md), [Lexer/Tokens](proj--main--Lexer--Tokens.md), [Parser](proj--main--Parser.md) |  |  |  |  |\n"
	if !strings.Contains(index, want) || !strings.Contains(index, agents) || strings.Count(index, "\n| [") != 1 {
		t.Errorf("index.md does not list the sub-agents under their session:\n%s", index)
	}
}

// A build that changes one session writes its words as a new segment and
// leaves the others' alone; segments past maxSegments are merged, the
// smallest first, and a mostly dead one is rewritten (issue 25, item 5).
func TestSearchSegments(t *testing.T) {
	src := filepath.Join(t.TempDir(), "--w--")
	out := t.TempDir()
	line := func(i int, text string) string {
		return fmt.Sprintf(`{"type":"message","id":"m%04d","parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", i, text)
	}
	var files []string
	for i := range 12 {
		var b strings.Builder
		b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}` + "\n")
		for k := range 40 {
			b.WriteString(line(k, fmt.Sprintf("session%d talks of item%d and the common words", i, k)))
		}
		p := filepath.Join(src, fmt.Sprintf("s%02d.jsonl", i))
		must(t, os.MkdirAll(src, 0o755))
		must(t, os.WriteFile(p, []byte(b.String()), 0o644))
		files = append(files, p)
	}
	build := func() *searchMeta {
		t.Helper()
		_, err := Build(context.Background(), out, files, Options{})
		must(t, err)
		m, err := readManifest(out)
		must(t, err)
		meta := readSearchMeta(out, m)
		if meta == nil {
			t.Fatal("no search index")
		}
		return meta
	}
	first := build()
	if len(first.Segments) != 1 {
		t.Fatalf("a first build makes %d segments, want 1", len(first.Segments))
	}
	big := first.Segments[0]
	bigShard := filepath.Join(out, segmentDir(big.ID), "t0.js")
	before, err := os.Stat(bigShard)
	must(t, err)
	for round := 1; round <= 2*maxSegments; round++ {
		f, err := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteString(line(1000+round, fmt.Sprintf("a late word%d", round)))
		must(t, err)
		must(t, f.Close())
		meta := build()
		if len(meta.Segments) > maxSegments {
			t.Errorf("round %d: %d segments", round, len(meta.Segments))
		}
		if got := find(t, out, fmt.Sprintf("word%d", round)); len(got) != 1 {
			t.Errorf("round %d: the new word is found %d times", round, len(got))
		}
		if got := find(t, out, "session0", "item3"); len(got) != 1 {
			t.Errorf("round %d: the changed session's old words are found %d times", round, len(got))
		}
		if got := find(t, out, "session7", "item3"); len(got) != 1 {
			t.Errorf("round %d: an unchanged session's words are found %d times", round, len(got))
		}
		// The segment of the unchanged sessions is not written again:
		// one session in twelve is not most of it.
		if fi, err := os.Stat(bigShard); err != nil || !os.SameFile(fi, before) || !fi.ModTime().Equal(before.ModTime()) {
			t.Fatalf("round %d: the first segment was written again (%v)", round, err)
		}
	}
	// Most sessions change: the first segment is mostly dead, and goes.
	for i := range 8 {
		f, err := os.OpenFile(files[i], os.O_APPEND|os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteString(line(2000, "changed"))
		must(t, err)
		must(t, f.Close())
	}
	meta := build()
	for _, g := range meta.Segments {
		if g.ID == big.ID {
			t.Errorf("a segment with 4 of its 12 sessions live was kept: %+v", meta.Segments)
		}
	}
	if _, err := os.Stat(filepath.Join(out, segmentDir(big.ID))); err == nil {
		t.Error("the merged segment's directory is still there")
	}
	if got := find(t, out, "session11", "item3"); len(got) != 1 {
		t.Errorf("after the merge, an unchanged session's words are found %d times", len(got))
	}
	if got := find(t, out, "changed"); len(got) != 8 {
		t.Errorf("after the merge, the changed sessions' word is found %d times", len(got))
	}
}

// A segment that reads as sound (its shards of the sizes the meta file
// says) but holds garbage is found out when it is merged: the build then
// reads every session's words again into an index made anew, and makes
// again only the pages of the sessions that changed.
func TestSearchRebuiltWhenSegmentUnreadable(t *testing.T) {
	src := filepath.Join(t.TempDir(), "--w--")
	out := t.TempDir()
	line := func(id, text string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":null,"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":%q}}`+"\n", id, text)
	}
	var files []string
	for i := range 4 {
		p := filepath.Join(src, fmt.Sprintf("s%d.jsonl", i))
		must(t, os.MkdirAll(src, 0o755))
		must(t, os.WriteFile(p, []byte(`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}`+"\n"+
			line("a0000001", fmt.Sprintf("session%d speaks", i))), 0o644))
		files = append(files, p)
	}
	build := func() Result {
		t.Helper()
		res, err := Build(context.Background(), out, files, Options{})
		must(t, err)
		return res
	}
	build()
	m, err := readManifest(out)
	must(t, err)
	first := readSearchMeta(out, m)
	if first == nil || len(first.Segments) != 1 {
		t.Fatalf("a first build makes %+v, want one segment", first)
	}
	g := first.Segments[0]
	for k := range g.Shards {
		p := filepath.Join(out, segmentDir(g.ID), fmt.Sprintf("t%d.js", k))
		fi, err := os.Stat(p)
		must(t, err)
		must(t, os.WriteFile(p, []byte(strings.Repeat("x", int(fi.Size()))), 0o644))
	}
	// Three sessions of four change: the first segment is mostly dead,
	// and is merged.
	for i := range 3 {
		f, err := os.OpenFile(files[i], os.O_APPEND|os.O_WRONLY, 0)
		must(t, err)
		_, err = f.WriteString(line("a0000002", fmt.Sprintf("later%d", i)))
		must(t, err)
		must(t, f.Close())
	}
	res := build()
	if want := files[:3]; !slices.Equal(res.Rendered, want) || res.Unchanged != 1 {
		t.Errorf("rendered %q and %d unchanged, want %q and 1", res.Rendered, res.Unchanged, want)
	}
	m, err = readManifest(out)
	must(t, err)
	meta := readSearchMeta(out, m)
	if meta == nil || len(meta.Segments) != 1 {
		t.Fatalf("after a damaged segment, the index has %+v, want one segment", meta)
	}
	for i := range 4 {
		if got := find(t, out, fmt.Sprintf("session%d", i)); len(got) != 1 {
			t.Errorf("session%d is found %d times, want once", i, len(got))
		}
	}
	if got := find(t, out, "later1"); len(got) != 1 {
		t.Errorf("a changed session's new word is found %d times, want once", len(got))
	}
}
