package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/internal/pgtest"
)

// fakeHome makes a home directory with n sessions where pi keeps them,
// each holding a planted secret and the word given, and makes it the
// home of the runs that follow.
func fakeHome(t *testing.T, word string, n int, seed uint64) []fakesecret.Secret {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PI_CODING_AGENT_DIR", "")
	t.Setenv("PI_CODING_AGENT_SESSION_DIR", "")
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--work-"+word+"--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var all []fakesecret.Secret
	gen := fakesecret.New(seed)
	for i := range n {
		text, secrets := gen.Fill(fmt.Sprintf(`{"type":"session","version":3,"id":"%s-%d","timestamp":"2026-03-0%dT10:00:00Z","cwd":"/work/%s"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-0%dT10:00:01Z","message":{"role":"user","content":"%s asks: is {{github-pat}} the token?"}}
`, word, i, i+1, word, i+1, word))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i)), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		all = append(all, secrets...)
	}
	return all
}

// teamDatabase is a new database with the shared catalog made by its
// owner, and the members alice and bob.
func teamDatabase(t *testing.T) (*pgtest.Cluster, string) {
	t.Helper()
	c := pgtest.Start(t)
	name := c.NewDatabase(t)
	out, errOut, code := runCLI(t, "--catalog", c.URL(pgtest.Superuser, name), "--init")
	if code != 0 || !strings.Contains(out, "made the shared catalog") {
		t.Fatalf("--init: exit %d\n%s%s", code, out, errOut)
	}
	c.Exec(t, name, `DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'alice') THEN CREATE ROLE alice LOGIN; END IF;
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bob') THEN CREATE ROLE bob LOGIN; END IF;
	END $$`, "GRANT piexport_member TO alice", "GRANT piexport_member TO bob")
	return c, name
}

func queryInt(t *testing.T, url, q string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestPushFromTwoHomes: alice and bob push the sessions of their homes;
// each push is summed up in a line, a second sends nothing, and the
// database holds all of them and none of the secrets.
func TestPushFromTwoHomes(t *testing.T) {
	c, name := teamDatabase(t)
	secrets := fakeHome(t, "apollo", 2, 1)
	_, errOut, code := runCLI(t, "--push", c.URL("alice", name))
	if code != 0 || !strings.Contains(errOut, "pushed 2 sessions") || !strings.Contains(errOut, "2 new") {
		t.Fatalf("alice's push: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "--push", c.URL("alice", name))
	if code != 0 || !strings.Contains(errOut, "pushed 0 sessions") || !strings.Contains(errOut, "2 unchanged") {
		t.Fatalf("alice's second push: exit %d, %q", code, errOut)
	}
	secrets = append(secrets, fakeHome(t, "hermes", 1, 2)...)
	_, errOut, code = runCLI(t, "-q", "--push", c.URL("bob", name), "--visibility", "private")
	if code != 0 || errOut != "" {
		t.Fatalf("bob's quiet push: exit %d, %q", code, errOut)
	}
	if n := queryInt(t, c.URL(pgtest.Superuser, name), `SELECT count(DISTINCT owner) * 10 + count(*) FROM piexport.sessions`); n != 23 {
		t.Errorf("owners*10 + sessions = %d, want 23", n)
	}
	if n := queryInt(t, c.URL("alice", name), `SELECT count(*) FROM piexport.sessions`); n != 2 {
		t.Errorf("alice reads %d sessions, bob's private one among them", n)
	}
	if leaks := fakesecret.Leaks(c.Dump(t, name), secrets); len(leaks) > 0 {
		t.Errorf("the database holds %v", leaks)
	}
}

// TestPushUnreachable: a database that cannot be reached is one sentence,
// exit 1, and the password is nowhere in it.
func TestPushUnreachable(t *testing.T) {
	fakeHome(t, "zeus", 1, 3)
	url := "postgres://alice:pw-9f8e7d6c@/team?host=" + t.TempDir()
	out, errOut, code := runCLI(t, "--push", url)
	if code != 1 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "cannot be reached") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if strings.Contains(out+errOut, "pw-9f8e7d6c") {
		t.Errorf("the password is shown: %q", errOut)
	}
}

func TestTeamFlagsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--visibility", "private", "x.jsonl"},
		{"--push", "postgres://x/y", "--visibility", "everyone"},
		{"--push", "/tmp/dir"},
		{"--init"},
		{"--catalog", "postgres://x/y"},
		{"--push", "postgres://x/y", "--serve"},
		{"--push", "postgres://x/y", "--no-images"},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, %q", args, code, errOut)
		}
	}
}

// TestServeSharedCatalog: bob's server lists and searches alice's team
// sessions with his own, not her private one, renders a session from its
// masked text, and answers 503 once the database is gone.
func TestServeSharedCatalog(t *testing.T) {
	c, name := teamDatabase(t)
	secrets := fakeHome(t, "apollo", 1, 11)
	if _, errOut, code := runCLI(t, "--push", c.URL("alice", name)); code != 0 {
		t.Fatalf("alice's push: %s", errOut)
	}
	secrets = append(secrets, fakeHome(t, "secretproject", 1, 12)...)
	if _, errOut, code := runCLI(t, "--push", c.URL("alice", name), "--visibility", "private"); code != 0 {
		t.Fatalf("alice's private push: %s", errOut)
	}
	secrets = append(secrets, fakeHome(t, "hermes", 1, 13)...)
	if _, errOut, code := runCLI(t, "--push", c.URL("bob", name)); code != 0 {
		t.Fatalf("bob's push: %s", errOut)
	}
	srv := startServer(t, []string{"--serve", "--addr", "127.0.0.1:0", "--catalog", c.URL("bob", name)}, "")
	index := srv.get("")
	for _, want := range []string{"alice@", "bob@"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("the index does not say %q pushed a session", want)
		}
	}
	found := string(srv.get("search?q=asks"))
	if !strings.Contains(found, "apollo") || !strings.Contains(found, "hermes") || strings.Contains(found, "secretproject") {
		t.Errorf("the search finds neither both team sessions or finds the private one:\n%s", found)
	}
	pages := srv.sessionPages(index)
	if leaks := fakesecret.Leaks(append(index, pages...), secrets); len(leaks) > 0 || !strings.Contains(string(pages), "REDACTED") {
		t.Errorf("the pages show %v, or nothing masked", leaks)
	}
	if strings.Contains(string(index)+string(pages), "secretproject") {
		t.Error("bob's server shows alice's private session")
	}
	// The database goes away: a page to make is 503.
	// (Made again only after the search: the server would make its schema
	// in an empty database and answer.)
	c.Exec(t, "postgres", "DROP DATABASE "+name+" WITH (FORCE)")
	resp, err := http.Get(srv.url + "search?q=asks")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a search with the database gone: %s", resp.Status)
	}
	c.Exec(t, "postgres", "CREATE DATABASE "+name) // for the test's cleanup to drop
}

// TestUsageSharedCatalog: --usage --catalog sums the work of the sessions
// a member may read, by person among other groupings: bob sees alice's
// team session and his own private one, alice only hers.
func TestUsageSharedCatalog(t *testing.T) {
	c, name := teamDatabase(t)
	for _, p := range []struct {
		role, word, visibility string
		output                 int
	}{{"alice", "athena", "team", 1000}, {"bob", "hermes", "private", 3000}} {
		fakeHome(t, p.word, 1, 4)
		file := filepath.Join(os.Getenv("HOME"), ".pi", "agent", "sessions", "--work-"+p.word+"--", "s0.jsonl")
		f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, `{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-01T10:00:05Z","message":{"role":"assistant","content":[{"type":"text","text":"no"}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":%d,"cacheRead":0,"cacheWrite":0,"totalTokens":%d,"cost":{"input":0,"output":0.5,"cacheRead":0,"cacheWrite":0,"total":0.5}},"stopReason":"stop"}}`+"\n", p.output, p.output+10)
		f.Close()
		if _, errOut, code := runCLI(t, "-q", "--push", c.URL(p.role, name), "--visibility", p.visibility); code != 0 {
			t.Fatalf("%s's push: exit %d, %q", p.role, code, errOut)
		}
	}
	byPerson := func(role string) map[string]int64 {
		t.Helper()
		out, errOut, code := runCLI(t, "--usage", "--catalog", c.URL(role, name), "--by", "person", "--json")
		if code != 0 {
			t.Fatalf("%s's --usage: exit %d, %q", role, code, errOut)
		}
		var rep struct {
			By     string `json:"by"`
			Groups []struct {
				Key    string `json:"key"`
				Output int64  `json:"output"`
			} `json:"groups"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.By != "person" {
			t.Fatalf("%s's --usage: %v, by %q\n%s", role, err, rep.By, out)
		}
		got := map[string]int64{}
		for _, g := range rep.Groups {
			got[g.Key] = g.Output
		}
		return got
	}
	if got, want := byPerson("bob"), map[string]int64{"alice": 1000, "bob": 3000}; !maps.Equal(got, want) {
		t.Errorf("bob's usage by person: %v, want %v", got, want)
	}
	if got, want := byPerson("alice"), map[string]int64{"alice": 1000}; !maps.Equal(got, want) {
		t.Errorf("alice's usage by person: %v, want %v (bob's session is private)", got, want)
	}
	out, errOut, code := runCLI(t, "--usage", "--catalog", c.URL("bob", name), "--by", "model")
	if code != 0 || !strings.Contains(out, "of 2 sessions") || !strings.Contains(out, "claude-sonnet-4-5") {
		t.Errorf("bob's usage by model: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "--usage", "--by", "person"); code != 2 || !strings.Contains(errOut, "goes with --catalog") {
		t.Errorf("--by person without --catalog: exit %d, %q", code, errOut)
	}
}
