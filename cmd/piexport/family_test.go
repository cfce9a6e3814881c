package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
)

// A family of sessions that repeat each other's secrets: a session, the
// transcript of its sub-agent (omp's p/W.jsonl) and a fork of it. Each
// names one value as a secret, and the other two repeat it bare.
type family struct {
	sessions                string // the directory of sessions
	parent, agent, fork     string // their files
	password, token, deploy string // named secret in the parent, the sub-agent, the fork
}

// plantFamily writes the family under dir; the parent's first message is
// the issue's: export DB_PASSWORD=Zq8vP2mWx7LkR4tNb9.
func plantFamily(t *testing.T, dir string) family {
	t.Helper()
	f := family{sessions: filepath.Join(dir, "sessions"),
		password: "Zq8vP2mWx7LkR4tNb9", token: "Hk4Tq9Wz2Lm7Xc3Vb8Np", deploy: "Rm5Yp8Qs2Vt6Wn3Kd7Lc"}
	project := filepath.Join(f.sessions, "--work-shop--")
	f.parent = filepath.Join(project, "2026-11-20T10-00-00-000Z_p.jsonl")
	f.agent = filepath.Join(strings.TrimSuffix(f.parent, ".jsonl"), "W.jsonl")
	f.fork = filepath.Join(project, "2026-11-21T10-00-00-000Z_f.jsonl")
	head := func(id, parent string) string {
		from := ""
		if parent != "" {
			from = `,"parentSession":"` + parent + `"`
		}
		return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/work/shop"` + from + "}\n"
	}
	user := func(id, parent, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(f.parent, head("0195c0de-0000-7000-8000-0000000000a1", "")+
		user("u1", "", "export DB_PASSWORD="+f.password)+
		user("u2", "u1", "the worker's token "+f.token+" and the deploy secret "+f.deploy+" are set"))
	write(f.agent, head("0195c0de-0000-7000-8000-0000000000a2", f.parent)+
		user("w1", "", "logged in with "+f.password)+
		user("w2", "w1", "SERVICE_TOKEN="+f.token+" then "+f.deploy))
	write(f.fork, head("0195c0de-0000-7000-8000-0000000000a3", f.parent)+
		user("u1", "", "export DB_PASSWORD="+f.password)+
		user("f2", "u1", "DEPLOY_PASSWORD="+f.deploy+" with "+f.token))
	return f
}

// leaks names the values out holds, in any case.
func (f family) leaks(out []byte) []string {
	var found []string
	low := bytes.ToLower(out)
	for _, v := range []string{f.password, f.token, f.deploy} {
		if bytes.Contains(low, []byte(strings.ToLower(v))) {
			found = append(found, v)
		}
	}
	return found
}

// TestRedactFamilyOneMask (issue 33, item 1): a value one session of a
// family names as a secret is masked wherever the others repeat it, and
// under one placeholder: in a page (its packed sub-agent transcript too),
// the Markdown and the trees of each, the archives, a share's gist files,
// and the server's pages and search previews.
func TestRedactFamilyOneMask(t *testing.T) {
	dir := t.TempDir()
	f := plantFamily(t, dir)
	t.Setenv("PIEXPORT_CACHE_DIR", t.TempDir())
	for _, tc := range []struct {
		name string
		args []string
		out  string
	}{
		{"page", []string{"-o", "p.html", f.parent}, "p.html"},
		{"markdown", []string{"--format", "md", "-o", "p.md", f.parent}, "p.md"},
		{"tree", []string{"--format", "tree", "-o", "t.txt", f.parent}, "t.txt"},
		{"sub-agent's page", []string{"-o", "w.html", f.agent}, "w.html"},
		{"fork's Markdown", []string{"--format", "md", "-o", "f.md", f.fork}, "f.md"},
		{"fork's tree", []string{"--format", "tree-json", "-o", "f.json", f.fork}, "f.json"},
		{"archive", []string{"-o", "site", f.sessions}, "site"},
		{"markdown archive", []string{"--format", "md", "-o", "docs", f.sessions}, "docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			t.Chdir(work)
			stdout, stderr, code := runCLI(t, append([]string{"--redact"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := append([]byte(stdout), written(t, filepath.Join(work, tc.out))...)
			for _, v := range f.leaks(out) {
				t.Errorf("the output holds %s", v)
			}
			if !bytes.Contains(out, []byte("[REDACTED:secret-assignment#")) && tc.name != "fork's tree" {
				t.Errorf("no placeholder in the output")
			}
			// One numbering for the family in every output: in its
			// files' order, the parent's value first, the fork's last.
			if bytes.Contains(out, []byte("the deploy secret")) && !bytes.Contains(out, []byte("the worker's token [REDACTED:secret-assignment#2] and the deploy secret [REDACTED:secret-assignment#3]")) {
				t.Errorf("the family's values are numbered otherwise")
			}
		})
	}

	t.Run("report", func(t *testing.T) {
		stdout, stderr, code := runCLI(t, "--redact-report", f.sessions)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		for _, want := range []string{"_p.jsonl:2\tentry u1\t[REDACTED:secret-assignment#1]", "W.jsonl:3\tentry w2\t[REDACTED:secret-assignment#2]",
			"_f.jsonl:3\tentry f2\t[REDACTED:secret-assignment#3]"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the report does not say %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("one placeholder", func(t *testing.T) {
		page, _, _ := runCLI(t, "--redact", "-o", "-", f.parent)
		all := string(unpacked(t, []byte(page)))
		for _, want := range []string{"export DB_PASSWORD=[REDACTED:secret-assignment#1]", "logged in with [REDACTED:secret-assignment#1]"} {
			if !strings.Contains(all, want) {
				t.Errorf("the page does not say %q", want)
			}
		}
	})

	t.Run("share", func(t *testing.T) {
		gh := newFakeGH(t)
		t.Chdir(t.TempDir())
		if _, stderr, code := runCLI(t, "--share", f.parent); code != 0 {
			t.Fatalf("--share: exit %d: %s", code, stderr)
		}
		var uploaded []byte
		for _, c := range gh.calls() {
			uploaded = append(uploaded, strings.Join(c.args, "\n")...)
			for _, b := range c.files {
				uploaded = append(uploaded, unpacked(t, b)...)
			}
		}
		if !bytes.Contains(uploaded, []byte(`id="sub-W"`)) {
			t.Errorf("the page carries no sub-agent transcript")
		}
		for _, v := range f.leaks(uploaded) {
			t.Errorf("the gist holds %s", v)
		}
	})

	t.Run("server", func(t *testing.T) {
		srv := startServer(t, []string{"--serve", "--redact", "--addr", "127.0.0.1:0", "--cache-dir", t.TempDir(), f.sessions}, "catalogued")
		index := srv.get("")
		all := append(bytes.Clone(index), srv.sessionPages(index)...)
		for _, q := range []string{"logged", "export", "token", "deploy", "service"} {
			page := srv.get("search?q=" + q)
			if q == "logged" && !bytes.Contains(page, []byte(`class="hit-list"`)) {
				t.Errorf("the search finds nothing for %q", q)
			}
			all = append(all, page...)
		}
		for _, v := range f.leaks(all) {
			t.Errorf("the server shows %s", v)
		}
		if !bytes.Contains(all, []byte("the worker's token [REDACTED:secret-assignment#2] and the deploy secret [REDACTED:secret-assignment#3]")) {
			t.Errorf("the server numbers the family's values otherwise")
		}
		srv.stop()
	})
}

// TestShareSecretShapedIDs (issue 33, item 4): a session whose header id
// is a GitHub token and one of whose entries has a Stripe key for its id
// is shared with both masked everywhere they appear: the gist's
// description and file names, the page (its tree, links and packed
// branches) and the Markdown, each id the same way wherever it is, so
// that the page still links the entry; and the report counts what it
// masked, where it masked it.
func TestShareSecretShapedIDs(t *testing.T) {
	g := fakesecret.New(44)
	headerID := g.Make("github-pat").Values[0]
	entryID := g.Make("stripe-secret-key").Values[0]
	in := filepath.Join(t.TempDir(), "s.jsonl")
	text := `{"type":"session","version":3,"id":"` + headerID + `","timestamp":"2026-11-20T10:00:00.000Z","cwd":"/w"}` + "\n" +
		`{"type":"message","id":"` + entryID + `","parentId":null,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"start"}}` + "\n" +
		`{"type":"message","id":"a1","parentId":"` + entryID + `","timestamp":"2026-11-20T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}` + "\n" +
		`{"type":"message","id":"a2","parentId":"` + entryID + `","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"another branch"}]}}` + "\n" +
		`{"type":"label","id":"l1","parentId":"a2","targetId":"` + entryID + `","label":"the start","timestamp":"2026-11-20T10:00:04.000Z"}` + "\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	gh := newFakeGH(t)
	t.Chdir(t.TempDir())
	_, stderr, code := runCLI(t, "--share", in)
	if code != 0 {
		t.Fatalf("--share: exit %d: %s", code, stderr)
	}
	calls := gh.calls()
	create := calls[len(calls)-1]
	var all []byte
	var names []string
	for name, b := range create.files {
		names = append(names, name)
		all = append(all, unpacked(t, b)...)
	}
	all = append(all, strings.Join(create.args, "\n")...)
	ids := []fakesecret.Secret{{Kind: "header id", Values: []string{headerID}}, {Kind: "entry id", Values: []string{entryID}}}
	for _, l := range fakesecret.Leaks(all, ids) {
		t.Errorf("the gist holds %s", l)
	}
	for _, l := range fakesecret.Leaks([]byte(stderr), ids) {
		t.Errorf("the report holds %s", l)
	}
	slices.Sort(names)
	if want := []string{"pi-session.md", "pi-session.page.html"}; !slices.Equal(names, want) {
		t.Errorf("the gist's files are %q, want %q", names, want)
	}
	desc := create.args[slices.Index(create.args, "--desc")+1]
	if !strings.Contains(desc, "([REDACTED:github-pat#1])") {
		t.Errorf("the description %q does not name the session by its masked id", desc)
	}
	// The entry's id, masked, is its element's and its links', and the
	// label still marks it.
	masked := "[REDACTED:stripe-access-token#1]"
	page := string(create.files["pi-session.page.html"])
	for _, want := range []string{`id="e:` + masked + `"`, `"` + masked + `"`, "the start"} {
		if !strings.Contains(string(unpacked(t, []byte(page))), want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !strings.Contains(stderr, "stripe-access-token") || !strings.Contains(stderr, "github-pat") {
		t.Errorf("the report does not count the ids it masked:\n%s", stderr)
	}
}

// TestRedactAgentIDs (issue 33, item 4): an omp sub-agent whose id holds
// a secret is masked in the task call that names it and in its
// transcript's file name alike, so that the page and the server still
// open its transcript from the call, and show the id nowhere.
func TestRedactAgentIDs(t *testing.T) {
	id := fakesecret.New(45).Make("github-pat").Values[0]
	src := filepath.Join(testdataRoot, "corpus")
	sessions := filepath.Join(t.TempDir(), "sessions")
	parent := filepath.Join(sessions, "--work--", "omp18-task-subagents.jsonl")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() || !strings.HasPrefix(rel, "omp18-task-subagents") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(filepath.Dir(parent), strings.ReplaceAll(rel, "Lexer", id))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, bytes.ReplaceAll(b, []byte("Lexer"), []byte(id)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	masked := "sub-[REDACTED:github-pat#1]"
	check := func(what string, page []byte) {
		t.Helper()
		all := unpacked(t, page)
		for _, l := range fakesecret.Leaks(all, []fakesecret.Secret{{Kind: "agent id", Values: []string{id}}}) {
			t.Errorf("%s holds %s", what, l)
		}
		for _, want := range []string{`data-subagent="` + masked + `"`, `id="` + masked + `"`, `data-subagent="` + masked + `/Tokens"`} {
			if !bytes.Contains(all, []byte(want)) {
				t.Errorf("%s lacks %s", what, want)
			}
		}
	}
	page, stderr, code := runCLI(t, "--redact", "-o", "-", parent)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	check("the page", []byte(page))

	srv := startServer(t, []string{"--serve", "--redact", "--addr", "127.0.0.1:0", "--cache-dir", t.TempDir(), sessions}, "catalogued")
	check("the served page", srv.sessionPages(srv.get("")))
}
