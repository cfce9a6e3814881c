package catalog

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/redact"
)

// cacheBytes returns every byte of every file under dir, their names
// too, and the words of the full-text index of each database there (its
// pages keep words prefix-compressed, so a word need not show whole in
// the bytes).
func cacheBytes(t *testing.T, dir string) []byte {
	t.Helper()
	var all []byte
	var dbs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		all = append(all, p...)
		all = append(all, '\n')
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		all = append(all, b...)
		if strings.HasSuffix(p, ".db") {
			dbs = append(dbs, p)
		}
		return nil
	})
	must(t, err)
	for _, db := range dbs {
		all = append(all, ftsWords(t, db)...)
	}
	return all
}

// ftsWords lists the words of a database's full-text index, read from a
// copy of the database (with its log), so that the original is not
// touched.
func ftsWords(t *testing.T, db string) []byte {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "copy.db")
	for _, suffix := range []string{"", "-wal"} {
		if b, err := os.ReadFile(db + suffix); err == nil {
			must(t, os.WriteFile(cp+suffix, b, 0o600))
		}
	}
	conn, err := sql.Open("sqlite", "file:"+cp)
	must(t, err)
	defer conn.Close()
	_, err = conn.Exec(`CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, fts, 'row')`)
	must(t, err)
	rows, err := conn.Query(`SELECT term FROM temp.words`)
	must(t, err)
	defer rows.Close()
	var out []byte
	for rows.Next() {
		var term string
		must(t, rows.Scan(&term))
		out = append(append(out, term...), ' ')
	}
	must(t, rows.Err())
	return out
}

// TestPreparedCacheHoldsNothingUnmasked (issue 21, item 3): the cache of
// a catalog that masks its sessions (the server under --redact) holds
// nothing the masking hides, in any byte of its databases and their
// logs, nor in the words of its index: not the header line, not the
// paths (pi names a session's folder after its working directory), not
// the error of a file that cannot be read; and a value found to be
// secret only once its file grew is scrubbed from what the earlier
// reading stored, also from its sub-agent's transcript, which repeats
// it; and what a fork's coloured output splits, or writes in another
// case, is not stored either.
func TestPreparedCacheHoldsNothingUnmasked(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	word := func(n int) string {
		const letters = "abcdefghijklmnopqrstuvwxyz"
		b := make([]byte, n)
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		return string(b)
	}
	literal := "Acme" + word(8) // the user's own word: a customer's name
	value := "Zq" + word(10) + "7" + word(11) + "4X"
	gen := fakesecret.New(21)
	pat, npm := gen.Make("github-pat"), gen.Make("npm-token")

	src := t.TempDir()
	home := "/home/ada"
	cwd := home + "/work/" + literal
	dir := filepath.Join(src, "--home-ada-work-"+literal+"--")
	path := filepath.Join(dir, "2026-11-20T10-00-00-000Z_s1.jsonl")
	header := fmt.Sprintf(`{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T10:00:00Z","cwd":%q,"title":"%s deploy %s","parentSession":%q,"gitRemote":"https://%s.example/repo?token=%s"}`,
		cwd, literal, pat.Text, home+"/.pi/agent/sessions/--home-ada-work-"+literal+"--/orig.jsonl", literal, npm.Text)
	write(t, path, header+"\n"+
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-11-20T10:00:01Z","message":{"role":"user","content":"the code for `+literal+` is `+value+`, keep it"}}`+"\n")
	write(t, filepath.Join(dir, "broken.jsonl"), "not a session at all\n")
	// Its family (issue 33): a sub-agent's transcript that repeats the
	// value, which is secret only once the session grows, and a fork
	// whose coloured tool output splits a password and that writes the
	// user's other word in capitals.
	foreign := "Ørsted-" + word(6)
	coloured := "Cq" + word(9) + "5" + word(8)
	write(t, filepath.Join(strings.TrimSuffix(path, ".jsonl"), "W.jsonl"), `{"type":"session","version":3,"id":"w1","timestamp":"2026-11-20T10:00:00Z","cwd":"/w"}`+"\n"+
		`{"type":"message","id":"w1","parentId":null,"timestamp":"2026-11-20T10:00:01Z","message":{"role":"user","content":"agent saw `+value+`"}}`+"\n")
	write(t, filepath.Join(dir, "2026-11-21T10-00-00-000Z_fork.jsonl"), `{"type":"session","version":3,"id":"f1","timestamp":"2026-11-21T10:00:00Z","cwd":"/w","parentSession":`+fmt.Sprintf("%q", path)+`}`+"\n"+
		`{"type":"message","id":"f1","parentId":null,"timestamp":"2026-11-21T10:00:01Z","message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[{"type":"text","text":"DB_\u001b[01;31m\u001b[KPASSWORD\u001b[m\u001b[K=`+coloured+` for `+strings.ToUpper(foreign)+`"}]}}`+"\n")

	red, err := redact.New(redact.Options{Secrets: true, Literals: []string{literal, foreign}, Home: home, Users: []string{"ada"}})
	must(t, err)
	cache := t.TempDir()
	open := func() *Catalog {
		c, err := New(context.Background(), []string{src}, Options{CacheDir: cache,
			Mask: red})
		must(t, err)
		return c
	}
	c := open()
	if res := search(t, c, "code", 10); len(res.Hits) != 1 {
		t.Fatalf("the session is not searchable: %+v", res)
	}
	if r := search(t, c, "project:"+strings.ToLower(literal), 10); r.Total != 0 {
		t.Errorf("project:%s finds the session whose folder it masks", literal)
	}
	for _, i := range c.List() {
		if i.Err != nil && strings.Contains(i.Err.Error(), literal) {
			t.Errorf("the error of a file that cannot be read names the masked word: %v", i.Err)
		}
	}
	// Before the file grows the value is plain text, as on the page.
	if !bytes.Contains(cacheBytes(t, cache), []byte(strings.ToLower(value))) {
		t.Fatalf("the value is not in the cache before it is known to be secret: the test would prove nothing")
	}

	// The session goes on: the value turns out to be a password.
	appendLine(t, path, `{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-11-20T10:00:02Z","message":{"role":"user","content":"DB_PASSWORD=`+value+`"}}`)
	later := time.Now().Add(time.Second)
	must(t, os.Chtimes(path, later, later))
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		all := bytes.ToLower(cacheBytes(t, cache))
		for what, v := range map[string]string{"the literal": literal, "the value found later": value,
			"the home directory": home, "a token": pat.Values[0], "another token": npm.Values[0],
			"the other word": foreign, "the coloured password": coloured} {
			if bytes.Contains(all, []byte(strings.ToLower(v))) {
				t.Errorf("%s: the cache holds %s (%q)", when, what, v)
			}
		}
		for _, leak := range fakesecret.Leaks(all, nil) {
			t.Error(leak)
		}
	}
	check("while open")
	must(t, c.Close())
	check("after closing")
	// Read again from the cache alone, the catalog still works.
	c = open()
	defer c.Close()
	if res := search(t, c, "code", 10); len(res.Hits) != 1 || strings.Contains(res.Hits[0].Snippet, value) {
		t.Errorf("search over the cache read back: %+v", res.Hits)
	}
}

// TestCacheIsPrivate (issue 21, item 9): the cache directory is made for
// the user alone, and every file in it, the databases' logs and the
// pages included, is the user's alone, also where a database was made
// readable by others before.
func TestCacheIsPrivate(t *testing.T) {
	src := t.TempDir()
	sessionFile(t, filepath.Join(src, "--p--", "a.jsonl"), "/w", time.Now(), "user:hello there", "assistant:hi")
	cache := filepath.Join(t.TempDir(), "new", "cache")
	c, _ := openCache(t, cache, src)
	pages, err := OpenPages(cache, PagesBytes)
	must(t, err)
	pw, err := pages.Create(PageKey("x"))
	must(t, err)
	pw.Write([]byte("<p>page</p>"))
	must(t, pw.Commit())
	check := func() {
		t.Helper()
		n := 0
		err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
			must(t, err)
			fi, err := d.Info()
			must(t, err)
			want := fs.FileMode(0o600)
			if d.IsDir() {
				want = 0o700
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s is %v, want %v", p, fi.Mode().Perm(), want)
			}
			n++
			return nil
		})
		must(t, err)
		if n < 6 { // the directory, two databases with their logs, the pages
			t.Errorf("only %d files and directories in the cache", n)
		}
	}
	check()
	must(t, c.Close())
	// A database left readable by others is made private when opened.
	for _, p := range []string{filepath.Join(cache, dbName("", 0)), filepath.Join(cache, dbName("", 0)+"-wal")} {
		if _, err := os.Stat(p); err == nil {
			must(t, os.Chmod(p, 0o644))
		}
	}
	c, _ = openCache(t, cache, src)
	defer c.Close()
	check()
}

// TestCacheNotDamagedKept (issue 21, item 10): a database that cannot be
// opened for a reason other than damage is not taken for damaged: it is
// kept as it is, and the error says why and names it.
func TestCacheNotDamagedKept(t *testing.T) {
	src := t.TempDir()
	sessionFile(t, filepath.Join(src, "--p--", "a.jsonl"), "/w", time.Now(), "user:hello there")
	cache := t.TempDir()
	c, _ := openCache(t, cache, src)
	must(t, c.Close())
	db := filepath.Join(cache, dbName("", 0))

	// A symbolic link that leads back to itself.
	loop := t.TempDir()
	must(t, os.Symlink(dbName("", 0), filepath.Join(loop, dbName("", 0))))
	_, err := Open(context.Background(), []string{src}, Options{CacheDir: loop})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(loop, dbName("", 0))) || !strings.Contains(err.Error(), "symbolic links") ||
		!strings.Contains(err.Error(), "not damaged") {
		t.Errorf("a link loop: %v", err)
	}
	if fi, err := os.Lstat(filepath.Join(loop, dbName("", 0))); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was removed")
	}

	// No permission to read it: as another user when this one is root.
	before, err := os.ReadFile(db)
	must(t, err)
	msg := openAsOther(t, cache)
	if !strings.Contains(msg, db) || !strings.Contains(msg, "permission denied") || !strings.Contains(msg, "not damaged") {
		t.Errorf("no permission: %q", msg)
	}
	if after, err := os.ReadFile(db); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the database was removed or changed: %v", err)
	}
}

// TestSearchSaysWhenUnread (issue 21, item 11): a search while sessions
// are not read yet (at a first start, or while a damaged cache is
// rebuilt) says how many, so that its results are known to be
// incomplete.
func TestSearchSaysWhenUnread(t *testing.T) {
	src := t.TempDir()
	for i := range 6 {
		sessionFile(t, filepath.Join(src, "--p--", fmt.Sprintf("s%d.jsonl", i)), "/w", time.Now(), "user:the lighthouse keeper")
	}
	c, err := Open(context.Background(), []string{src}, Options{})
	must(t, err)
	defer c.Close()
	if r := search(t, c, "lighthouse", 10); r.Unread != 6 || r.Total != 0 {
		t.Errorf("before reading: %d unread, %d hits; want 6 and 0", r.Unread, r.Total)
	}
	_, err = c.Update(context.Background())
	must(t, err)
	if r := search(t, c, "lighthouse", 10); r.Unread != 0 || r.Total != 6 {
		t.Errorf("after reading: %d unread, %d hits; want 0 and 6", r.Unread, r.Total)
	}
	// What a damaged shard does: its files are forgotten until read
	// again.
	c.forgetRows(0)
	r := search(t, c, "lighthouse", 10)
	if r.Unread == 0 || r.Unread+r.Total != 6 {
		t.Errorf("a shard rebuilt: %d unread, %d hits; want them to add up to 6", r.Unread, r.Total)
	}
}

// TestSearchKeepsHitsOfAShardThatWorks: a shard whose database fails a
// search leaves the other's hits, which come back with the error.
func TestSearchKeepsHitsOfAShardThatWorks(t *testing.T) {
	src := t.TempDir()
	for i := range 8 {
		sessionFile(t, filepath.Join(src, "--p--", fmt.Sprintf("s%d.jsonl", i)), "/w", time.Now(), "user:the lighthouse keeper")
	}
	c, err := Open(context.Background(), []string{src}, Options{})
	must(t, err)
	defer c.Close()
	_, err = c.Update(context.Background())
	must(t, err)
	inShard := [shards]int{}
	c.mu.RLock()
	for _, r := range c.records {
		inShard[r.row.Shard]++
	}
	c.mu.RUnlock()
	if inShard[0] == 0 || inShard[1] == 0 {
		t.Fatalf("the files went to one shard only (%v): the test needs both", inShard)
	}
	// The second shard's readers fail from now on.
	st, err := c.store(1)
	must(t, err)
	must(t, st.r.Close())
	// One word, and several (which weigh their words by every shard's
	// figures).
	for _, q := range []string{"lighthouse", "lighthouse keeper"} {
		r, err := c.Search(context.Background(), q, 10)
		if err == nil {
			t.Errorf("%q, a failing shard: no error", q)
		}
		if r.Total != inShard[0] || len(r.Hits) != inShard[0] {
			t.Errorf("%q, a failing shard: %d hits (%d shown); want the other shard's %d", q, r.Total, len(r.Hits), inShard[0])
		}
	}
}
