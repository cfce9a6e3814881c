package teamcatalog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/internal/pgtest"
)

// writeSessions writes n planted sessions into dir, and returns their
// paths and every secret planted.
func writeSessions(t *testing.T, dir string, seed uint64, n int) ([]string, []fakesecret.Secret) {
	t.Helper()
	var paths []string
	var all []fakesecret.Secret
	for i := range n {
		raw, secrets := plantedSession(t, seed+uint64(i), fmt.Sprintf("s-%d-%d", seed, i), "Acmecorp")
		p := filepath.Join(dir, fmt.Sprintf("2026-03-01T10-00-0%dZ_s%d.jsonl", i, i))
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		paths, all = append(paths, p), append(all, secrets...)
	}
	return paths, all
}

// members makes the login roles alice and bob, members of the catalog.
func members(t *testing.T, c *pgtest.Cluster, db string) {
	t.Helper()
	c.Exec(t, db, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN; END IF;
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bob') THEN CREATE ROLE bob LOGIN; END IF;
	END $$`, "GRANT piexport_member TO alice", "GRANT piexport_member TO bob")
}

func push(t *testing.T, db *DB, files []string, opt PushOptions) PushStats {
	t.Helper()
	if opt.Redactor == nil {
		opt.Redactor = newRedactor(t, "Acmecorp")
	}
	opt.Warn = func(msg string) { t.Error(msg) }
	stats, err := db.Push(context.Background(), files, opt)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Failed > 0 {
		t.Fatalf("%d files failed", stats.Failed)
	}
	return stats
}

func count(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestRowLevelSecurity: bob reads the team's sessions and his own, never
// alice's private one, and can change none of hers; and the database,
// dumped whole, holds no planted secret.
func TestRowLevelSecurity(t *testing.T) {
	ctx := context.Background()
	c, name, _ := initialised(t)
	members(t, c, name)
	alice, bob := connect(t, c.URL("alice", name)), connect(t, c.URL("bob", name))

	aliceTeam, s1 := writeSessions(t, t.TempDir(), 10, 2)
	alicePrivate, s2 := writeSessions(t, t.TempDir(), 20, 1)
	bobs, s3 := writeSessions(t, t.TempDir(), 30, 1)
	push(t, alice, aliceTeam, PushOptions{Machine: "laptop"})
	push(t, alice, alicePrivate, PushOptions{Machine: "laptop", Visibility: "private"})
	push(t, bob, bobs, PushOptions{Machine: "desk"})

	if n := count(t, alice, `SELECT count(*) FROM piexport.sessions`); n != 4 {
		t.Errorf("alice reads %d sessions, want 4", n)
	}
	if n := count(t, bob, `SELECT count(*) FROM piexport.sessions`); n != 3 {
		t.Errorf("bob reads %d sessions, want 3", n)
	}
	for _, table := range []string{"sessions", "parts", "entries", "usage"} {
		if n := count(t, bob, `SELECT count(*) FROM piexport.`+table+` WHERE visibility = 'private'`); n != 0 {
			t.Errorf("bob reads %d private rows of %s", n, table)
		}
		if n := count(t, alice, `SELECT count(*) FROM piexport.`+table+` WHERE visibility = 'private'`); n == 0 {
			t.Errorf("alice reads no private row of %s", table)
		}
	}
	// Bob's writes to alice's rows change nothing, or fail.
	for _, q := range []string{
		`UPDATE piexport.sessions SET path = 'bob was here' WHERE owner = 'alice'`,
		`UPDATE piexport.entries SET text = 'bob was here' WHERE owner = 'alice'`,
		`DELETE FROM piexport.parts WHERE owner = 'alice'`,
		`DELETE FROM piexport.sessions WHERE owner = 'alice'`,
	} {
		tag, err := bob.pool.Exec(ctx, q)
		if err == nil && tag.RowsAffected() != 0 {
			t.Errorf("%s: %d rows changed", q, tag.RowsAffected())
		}
	}
	var sid int64
	if err := bob.pool.QueryRow(ctx, `SELECT sid FROM piexport.sessions WHERE owner = 'alice' LIMIT 1`).Scan(&sid); err != nil {
		t.Fatal(err)
	}
	for _, owner := range []string{"alice", "bob"} {
		_, err := bob.pool.Exec(ctx, `INSERT INTO piexport.parts (sid, owner, visibility, off, data) VALUES ($1, $2, 'team', 99999, 'x')`, sid, owner)
		if err == nil {
			t.Errorf("bob filed a part as %s under alice's session", owner)
		}
	}
	if n := count(t, alice, `SELECT count(*) FROM piexport.sessions WHERE path = 'bob was here'`); n != 0 {
		t.Error("bob changed alice's sessions")
	}

	dump := c.Dump(t, name)
	if leaks := fakesecret.Leaks(dump, append(append(s1, s2...), s3...)); len(leaks) > 0 {
		t.Errorf("the database holds %v", leaks)
	}
	for _, word := range []string{"Acmecorp", "acmecorp", "/home/ada"} {
		if bytes.Contains(dump, []byte(word)) {
			t.Errorf("the database holds %q", word)
		}
	}
	if !bytes.Contains(dump, []byte("[REDACTED:")) {
		t.Error("the dump holds no placeholder: the test would prove nothing")
	}
}

// TestPushAppends: a file that grew sends what was appended, and the
// text the database holds is the whole masked file.
func TestPushAppends(t *testing.T) {
	_, _, db := initialised(t)
	dir := t.TempDir()
	files, _ := writeSessions(t, dir, 40, 1)
	if st := push(t, db, files, PushOptions{Machine: "m"}); st.New != 1 || st.Sessions != 1 {
		t.Fatalf("first push: %+v", st)
	}
	if st := push(t, db, files, PushOptions{Machine: "m"}); st.Unchanged != 1 || st.Sessions != 0 {
		t.Fatalf("push of an unchanged file: %+v", st)
	}
	entries := count(t, db, `SELECT count(*) FROM piexport.entries`)
	line := `{"type":"message","id":"u9","parentId":"t1","timestamp":"2026-03-01T11:00:00Z","message":{"role":"user","content":"one more zebra question"}}` + "\n"
	f, err := os.OpenFile(files[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	st := push(t, db, files, PushOptions{Machine: "m"})
	if st.Appended != 1 || st.Bytes != int64(len(line)) {
		t.Fatalf("push of a grown file: %+v, want %d bytes appended", st, len(line))
	}
	if n := count(t, db, `SELECT count(*) FROM piexport.entries`); n != entries+1 {
		t.Errorf("%d entries, want %d", n, entries+1)
	}
	if n := count(t, db, `SELECT count(*) FROM piexport.entries WHERE words @@ 'zebra'::tsquery`); n != 1 {
		t.Errorf("the appended entry is found %d times", n)
	}
	checkTexts(t, db, files)
}

// checkTexts checks that the database holds each file's masked text, once.
func checkTexts(t *testing.T, db *DB, files []string) {
	t.Helper()
	red := newRedactor(t, "Acmecorp")
	if n := count(t, db, `SELECT count(*) FROM piexport.sessions`); n != len(files) {
		t.Errorf("%d sessions, want %d", n, len(files))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := loadRaw(t, raw)
		want := maskFile(red, raw, s, nil)
		var key string
		if err := db.pool.QueryRow(context.Background(), `SELECT key FROM piexport.sessions WHERE session_id = $1`, s.Header.ID).Scan(&key); err != nil {
			t.Fatalf("%s: %v", s.Header.ID, err)
		}
		got, err := db.Text(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the database holds\n%s\nwant\n%s", f, got, want)
		}
	}
	var dup int
	if err := db.pool.QueryRow(context.Background(), `SELECT count(*) FROM (SELECT sid, line, part FROM piexport.entries
		GROUP BY 1, 2, 3 HAVING count(*) > 1) d`).Scan(&dup); err != nil || dup != 0 {
		t.Errorf("%d entries twice (%v)", dup, err)
	}
}

// TestPushKilledMidway: a push stopped inside a session's transaction
// leaves that session as it was; the next push sends the rest, and
// nothing is there twice or missing.
func TestPushKilledMidway(t *testing.T) {
	_, _, db := initialised(t)
	files, _ := writeSessions(t, t.TempDir(), 50, 4)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	inTransaction = func(context.Context) {
		if n++; n == 3 {
			cancel()
		}
	}
	t.Cleanup(func() { inTransaction = nil })
	_, err := db.Push(ctx, files, PushOptions{Machine: "m", Redactor: newRedactor(t, "Acmecorp")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the push stopped with %v", err)
	}
	if got := count(t, db, `SELECT count(*) FROM piexport.sessions`); got != 2 {
		t.Fatalf("%d sessions after a push stopped in the third, want 2", got)
	}
	inTransaction = nil
	st := push(t, db, files, PushOptions{Machine: "m"})
	if st.New != 2 || st.Unchanged != 2 {
		t.Errorf("the second push: %+v", st)
	}
	checkTexts(t, db, files)
}

// TestMemberCannotForgeOwner: the owner column is the pushing role,
// whatever a member writes in it.
func TestMemberCannotForgeOwner(t *testing.T) {
	c, name, _ := initialised(t)
	members(t, c, name)
	bob := connect(t, c.URL("bob", name))
	_, err := bob.pool.Exec(context.Background(), `INSERT INTO piexport.sessions (key, owner, machine, session_id, source, source_size,
		source_mtime, path, cwd, parent_session, summary, size, hash, lines)
		VALUES ('k', 'alice', 'm', 's', 'src', 0, now(), '', '', '', '{}', 0, '', 0)`)
	if err == nil {
		t.Fatal("bob wrote a session as alice's")
	}
}
