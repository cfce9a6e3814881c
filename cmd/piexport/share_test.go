package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/fakesecret"
	"github.com/piexport/piexport/page"
)

// fakeGHScript stands in for GitHub's gh: each call gets a directory
// under $FAKE_GH_DIR (call-0, call-1 ...) with its arguments, one a line,
// and a copy of every file named in them. "auth status" fails when
// $FAKE_GH_DIR/logged-out exists; "gist create" prints a gist's URL;
// "gist delete" answers 404 when $FAKE_GH_DIR/gone exists, and knows no
// --yes when $FAKE_GH_DIR/old does.
const fakeGHScript = `#!/bin/sh
n=0
while [ -e "$FAKE_GH_DIR/call-$n" ]; do n=$((n+1)); done
call="$FAKE_GH_DIR/call-$n"
mkdir -p "$call/files"
for a in "$@"; do
	printf '%s\n' "$a" >> "$call/args"
	if [ -f "$a" ]; then cp "$a" "$call/files/"; fi
done
case "$1 $2" in
"auth status")
	if [ -e "$FAKE_GH_DIR/logged-out" ]; then
		echo "You are not logged into any GitHub hosts. To log in, run: gh auth login" >&2
		exit 1
	fi
	echo "github.com: Logged in to github.com account tester" >&2
	exit 0;;
"gist create")
	echo "- Creating gist with 2 files" >&2
	echo "https://gist.github.com/tester/5ca1ab1e0000000000000000000000$n"
	exit 0;;
"gist delete")
	if [ -e "$FAKE_GH_DIR/old" ] && [ "$4" = "--yes" ]; then
		echo "unknown flag: --yes" >&2
		exit 1
	fi
	if [ -e "$FAKE_GH_DIR/gone" ]; then
		echo "unable to delete gist: HTTP 404: Not Found (https://api.github.com/gists/x)" >&2
		exit 1
	fi
	exit 0;;
esac
echo "unknown command: $*" >&2
exit 1
`

// fakeGH is the stand-in gh of a test, first on PATH, and the record of
// shares in a directory of the test's.
type fakeGH struct {
	t     *testing.T
	dir   string
	state string
}

func newFakeGH(t *testing.T) *fakeGH {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(fakeGHScript), 0o755); err != nil {
		t.Fatal(err)
	}
	g := &fakeGH{t: t, dir: t.TempDir(), state: t.TempDir()}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_GH_DIR", g.dir)
	t.Setenv("XDG_STATE_HOME", g.state)
	t.Setenv(passphraseEnv, "")
	return g
}

// ghCall is one call of the stand-in: its arguments and the files it was
// given, by name.
type ghCall struct {
	args  []string
	files map[string][]byte
}

func (g *fakeGH) calls() []ghCall {
	g.t.Helper()
	var out []ghCall
	for n := 0; ; n++ {
		dir := filepath.Join(g.dir, "call-"+strconv.Itoa(n))
		args, err := os.ReadFile(filepath.Join(dir, "args"))
		if os.IsNotExist(err) {
			if _, err := os.Stat(dir); err == nil {
				out = append(out, ghCall{files: map[string][]byte{}}) // no arguments
				continue
			}
			return out
		}
		if err != nil {
			g.t.Fatal(err)
		}
		c := ghCall{args: strings.Split(strings.TrimSuffix(string(args), "\n"), "\n"), files: map[string][]byte{}}
		entries, _ := os.ReadDir(filepath.Join(dir, "files"))
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, "files", e.Name()))
			if err != nil {
				g.t.Fatal(err)
			}
			c.files[e.Name()] = b
		}
		out = append(out, c)
	}
}

// commands lists the calls' first two arguments: "auth status", "gist
// create".
func commands(calls []ghCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, strings.Join(c.args[:min(2, len(c.args))], " "))
	}
	return out
}

// TestShare shares the planted session, lists the share and deletes it.
func TestShare(t *testing.T) {
	asAda(t)
	gh := newFakeGH(t)
	in := filepath.Join(t.TempDir(), "sessions", "--home-ada-work-shop--", "2026-11-20T10-00-00-000Z_0195a3c2.jsonl")
	secrets := plantedSession(t, in, 1)
	// An AWS key id with its secret in prose, the secret unnamed.
	g := fakesecret.New(5)
	pair := fakesecret.Secret{Kind: "aws key pair", Values: []string{g.Make("aws-access-key-id").Values[0], g.Make("aws-secret-access-key").Values[0]}}
	appendLine(t, in, `{"type":"message","id":"u0000009","parentId":"a0000005","timestamp":"2026-11-20T10:01:00.000Z","message":{"role":"user","content":"My AWS key is `+pair.Values[0]+` and secret `+pair.Values[1]+`"}}`)
	secrets = append(secrets, pair)
	t.Chdir(t.TempDir())

	stdout, stderr, code := runCLI(t, "--share", in)
	if code != 0 {
		t.Fatalf("--share: exit %d: %s", code, stderr)
	}
	calls := gh.calls()
	if diff := slices.Compare(commands(calls), []string{"auth status", "gist create"}); diff != 0 {
		t.Fatalf("gh was called for %q", commands(calls))
	}
	create := calls[1]
	for _, a := range create.args {
		if a == "--public" || a == "-p" || strings.HasPrefix(a, "--public=") {
			t.Errorf("the gist was made public: %q", create.args)
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range create.files {
			if !yield(n) {
				return
			}
		}
	})
	if want := []string{"pi-session-0195a3c2.md", "pi-session-0195a3c2.page.html"}; !slices.Equal(names, want) {
		t.Fatalf("uploaded %q, want %q", names, want)
	}
	// Every byte uploaded, the packed branches of the page and the
	// gist's description included, is masked.
	var all []byte
	for _, name := range names {
		all = append(all, unpacked(t, create.files[name])...)
	}
	all = append(all, strings.Join(create.args, "\n")...)
	noLeaks(t, "the upload", all, secrets)
	if !bytes.Contains(create.files["pi-session-0195a3c2.page.html"], []byte("<dt>Redacted</dt>")) {
		t.Errorf("the page's header does not say what was masked")
	}
	desc := create.args[slices.Index(create.args, "--desc")+1]
	if !strings.HasPrefix(desc, "pi session: ") || !strings.Contains(desc, "(0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012)") {
		t.Errorf("the description %q does not name the session", desc)
	}
	url := "https://gist.github.com/tester/5ca1ab1e00000000000000000000001"
	if stdout != url+"\n" {
		t.Errorf("stdout = %q, want the gist's URL", stdout)
	}
	if !strings.Contains(stderr, "values masked") || !strings.Contains(stderr, "anthropic-api-key") {
		t.Errorf("no redaction report on standard error:\n%s", stderr)
	}

	// The record: one private file, with what was shared.
	recPath := filepath.Join(gh.state, "piexport", "shares", "5ca1ab1e00000000000000000000001.json")
	info, err := os.Stat(recPath)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("the record's mode is %v, want 0600", info.Mode().Perm())
	}
	var rec shareRecord
	b, _ := os.ReadFile(recPath)
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Session != in || rec.SessionID != "0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012" || rec.URL != url || rec.Masked["anthropic-api-key"] != 1 || rec.Shared.IsZero() || !rec.Deleted.IsZero() || len(rec.Files) != 2 {
		t.Errorf("the record: %+v", rec)
	}
	if leaks := fakesecret.Leaks(b, secrets); len(leaks) > 0 {
		t.Errorf("the record holds secrets: %v", leaks)
	}

	// A second share, then the list, newest first.
	if _, stderr, code := runCLI(t, "-q", "--share", "--leaf", "a0000001", in); code != 0 {
		t.Fatalf("second --share: exit %d: %s", code, stderr)
	}
	list, _, code := runCLI(t, "--shares")
	if code != 0 {
		t.Fatalf("--shares: exit %d", code)
	}
	first, second := strings.Index(list, "5ca1ab1e00000000000000000000003"), strings.Index(list, "5ca1ab1e00000000000000000000001")
	if first < 0 || second < 0 || first > second {
		t.Errorf("--shares does not list both shares, newest first:\n%s", list)
	}
	for _, want := range []string{url, "0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012", "values masked", "pi-session-0195a3c2.md"} {
		if !strings.Contains(list, want) {
			t.Errorf("--shares does not say %q:\n%s", want, list)
		}
	}
	js, _, code := runCLI(t, "--shares", "--json")
	var recs []shareRecord
	if err := json.Unmarshal([]byte(js), &recs); code != 0 || err != nil || len(recs) != 2 {
		t.Errorf("--shares --json: exit %d, %v, %d records", code, err, len(recs))
	}

	// An archive of the session's directory links the shares, in its
	// index and on the session's page.
	sessions := filepath.Dir(filepath.Dir(in))
	site := filepath.Join(t.TempDir(), "site")
	if _, stderr, code := runCLI(t, "-q", "-o", site, sessions); code != 0 {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	if !regexp.MustCompile(`Shared: <a href="[^"]*">secret gist 5ca1ab1e \(\d{4}-\d\d-\d\d\)</a>, <a href="` + url + `">`).Match(index) {
		t.Errorf("the archive's index does not link the shares, newest first:\n%s", index)
	}
	if n := sharedPages(t, site); n != 1 {
		t.Errorf("%d pages of the archive link a share, want 1", n)
	}

	// Delete by URL: gh gist delete gets the id; the record keeps the
	// share, marked deleted.
	stdout, stderr, code = runCLI(t, "--unshare", url)
	if code != 0 {
		t.Fatalf("--unshare: exit %d: %s", code, stderr)
	}
	calls = gh.calls()
	del := calls[len(calls)-1]
	if !slices.Equal(del.args, []string{"gist", "delete", "5ca1ab1e00000000000000000000001", "--yes"}) {
		t.Errorf("gh was called with %q", del.args)
	}
	if !strings.Contains(stdout, "deleted "+url) {
		t.Errorf("stdout = %q", stdout)
	}
	b, _ = os.ReadFile(recPath)
	rec = shareRecord{}
	if err := json.Unmarshal(b, &rec); err != nil || rec.Deleted.IsZero() {
		t.Errorf("the record does not say the gist was deleted: %s", b)
	}
	if _, stderr, code := runCLI(t, "-q", "-o", site, sessions); code != 0 {
		t.Fatalf("archive: exit %d: %s", code, stderr)
	}
	index, _ = os.ReadFile(filepath.Join(site, "index.html"))
	if strings.Contains(string(index), url) || !strings.Contains(string(index), "5ca1ab1e00000000000000000000003") {
		t.Errorf("the archive's index does not list the shares still up, and only those")
	}
	list, _, _ = runCLI(t, "--shares")
	if !regexp.MustCompile(`5ca1ab1e00000000000000000000001  shared [^\n]*, deleted `).MatchString(list) {
		t.Errorf("--shares does not say the gist was deleted:\n%s", list)
	}
	// Deleting it again does nothing; a gist gone from GitHub is marked
	// deleted all the same; an id not in the record is refused.
	n := len(gh.calls())
	if stdout, _, code := runCLI(t, "--unshare", "5ca1ab1e00000000000000000000001"); code != 0 || !strings.Contains(stdout, "nothing to do") || len(gh.calls()) != n {
		t.Errorf("a second --unshare: exit %d, %q, gh called %d times", code, stdout, len(gh.calls())-n)
	}
	if err := os.WriteFile(filepath.Join(gh.dir, "gone"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCLI(t, "--unshare", "5ca1ab1e00000000000000000000003"); code != 0 || !strings.Contains(stdout, "already gone") {
		t.Errorf("--unshare of a gist gone from GitHub: exit %d, %q %q", code, stdout, stderr)
	}
	if _, stderr, code := runCLI(t, "--unshare", "0123456789abcdef"); code != 1 || !strings.Contains(stderr, "piexport --shares lists them") {
		t.Errorf("--unshare of an unknown id: exit %d, %q", code, stderr)
	}
}

// appendLine adds a line to the read-only session file at path.
func appendLine(t *testing.T, path, line string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, line+"\n"...), 0o444); err != nil {
		t.Fatal(err)
	}
}

// sharedPages counts the pages of an archive whose header links a share.
func sharedPages(t *testing.T, site string) int {
	t.Helper()
	pages, _ := filepath.Glob(filepath.Join(site, "*.html"))
	n := 0
	for _, p := range pages {
		b, _ := os.ReadFile(p)
		if filepath.Base(p) != "index.html" && bytes.Contains(b, []byte("<dt>Shared</dt>")) {
			n++
		}
	}
	return n
}

// TestUnshareOlderGH: a gh that knows no --yes deletes without it.
func TestUnshareOlderGH(t *testing.T) {
	gh := newFakeGH(t)
	in := filepath.Join(t.TempDir(), "planted.jsonl")
	plantedSession(t, in, 1)
	if _, stderr, code := runCLI(t, "-q", "--share", in); code != 0 {
		t.Fatalf("--share: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(gh.dir, "old"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if stdout, stderr, code := runCLI(t, "--unshare", "5ca1ab1e00000000000000000000001"); code != 0 || !strings.HasPrefix(stdout, "deleted ") {
		t.Fatalf("--unshare: exit %d: %q %q", code, stdout, stderr)
	}
	calls := gh.calls()
	last := calls[len(calls)-1].args
	if !slices.Equal(last, []string{"gist", "delete", "5ca1ab1e00000000000000000000001"}) {
		t.Errorf("the last call was %q", last)
	}
}

// --unshare takes the start of a share's id, as --leaf takes an
// entry's: one that names one share deletes it, one that several share
// is a usage error that lists them.
func TestUnsharePrefix(t *testing.T) {
	gh := newFakeGH(t)
	for _, id := range []string{"0a1b2c3d4e", "0a1b9f8e7d", "fedcba9876"} {
		r := &shareRecord{GistID: id, URL: "https://gist.github.com/tester/" + id, Title: "t", Shared: time.Now().UTC()}
		if err := writeShare(r); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, code := runCLI(t, "--unshare", "0a1b")
	if code != 2 || !strings.Contains(stderr, `2 shares' ids start with "0a1b": 0a1b2c3d4e, 0a1b9f8e7d; give more of the id`) {
		t.Errorf("--unshare of a start two ids share: exit %d, %q", code, stderr)
	}
	if len(gh.calls()) != 0 {
		t.Errorf("gh was called for an id that names no one share")
	}
	for start, id := range map[string]string{"0a1b2": "0a1b2c3d4e", "f": "fedcba9876"} {
		stdout, stderr, code := runCLI(t, "--unshare", start)
		if code != 0 || stdout != "deleted https://gist.github.com/tester/"+id+"\n" {
			t.Fatalf("--unshare %s: exit %d: %q %q", start, code, stdout, stderr)
		}
		calls := gh.calls()
		if last := calls[len(calls)-1].args; !slices.Equal(last, []string{"gist", "delete", id, "--yes"}) {
			t.Errorf("--unshare %s called gh with %q", start, last)
		}
	}
	if _, stderr, code := runCLI(t, "--unshare", "0a1c"); code != 1 || !strings.Contains(stderr, "piexport --shares lists them") {
		t.Errorf("--unshare of a start no id has: exit %d, %q", code, stderr)
	}
}

// TestShareEncrypted: --share --encrypt uploads the encrypted page only;
// it holds nothing readable, and what it holds is masked.
func TestShareEncrypted(t *testing.T) {
	asAda(t)
	gh := newFakeGH(t)
	in := filepath.Join(t.TempDir(), "planted.jsonl")
	secrets := plantedSession(t, in, 1)
	pass := filepath.Join(t.TempDir(), "pass")
	if err := os.WriteFile(pass, []byte("correct horse battery staple\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "--share", "--encrypt", "--password-file", pass, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	calls := gh.calls()
	create := calls[len(calls)-1]
	if len(create.files) != 1 || create.files["pi-session-0195a3c2.encrypted.html"] == nil {
		t.Fatalf("uploaded %d files: %v", len(create.files), create.args)
	}
	enc := create.files["pi-session-0195a3c2.encrypted.html"]
	desc := create.args[slices.Index(create.args, "--desc")+1]
	if desc != "pi session: encrypted (0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012)" {
		t.Errorf("the description of an encrypted share is %q: the title is for the passphrase's holders", desc)
	}
	for _, leak := range fakesecret.Leaks(enc, secrets) {
		t.Errorf("the encrypted page: %s", leak)
	}
	plain, err := page.DecryptPage(enc, "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	noLeaks(t, "the encrypted page, decrypted", unpacked(t, plain), secrets)
	if !strings.Contains(stderr, "send the passphrase another way") || !strings.HasPrefix(stdout, "https://gist.github.com/") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	list, _, _ := runCLI(t, "--shares")
	if !strings.Contains(list, "(encrypted)") || !strings.Contains(list, "title    Rotate [REDACTED:github-oauth#1]") {
		t.Errorf("--shares does not say the share is encrypted:\n%s", list)
	}
}

// TestShareRefused: without gh, logged out, or with a page too large for
// a gist, nothing is uploaded and nothing recorded, and piexport says
// why.
func TestShareRefused(t *testing.T) {
	in := filepath.Join(t.TempDir(), "planted.jsonl")
	plantedSession(t, in, 1)

	t.Run("no gh", func(t *testing.T) {
		gh := newFakeGH(t)
		t.Setenv("PATH", t.TempDir())
		_, stderr, code := runCLI(t, "--share", in)
		if code != 1 || !strings.Contains(stderr, "gh auth login") || !strings.Contains(stderr, "not installed") {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("more than one sentence: %q", stderr)
		}
		gh.nothingShared()
	})
	t.Run("logged out", func(t *testing.T) {
		gh := newFakeGH(t)
		if err := os.WriteFile(filepath.Join(gh.dir, "logged-out"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCLI(t, "--share", in)
		if code != 1 || !strings.Contains(stderr, "run gh auth login") {
			t.Errorf("exit %d: %s", code, stderr)
		}
		gh.nothingShared()
	})
	t.Run("too large", func(t *testing.T) {
		page := filepath.Join(t.TempDir(), "pi-session.page.html")
		if _, stderr, code := runCLI(t, "-q", "-o", page, in); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		err := fitGist([]string{page}, 10<<10, in)
		if err == nil || !strings.Contains(err.Error(), "pi-session.page.html would be") ||
			!strings.Contains(err.Error(), "over the 10 KB a gist file can hold, so nothing was uploaded") {
			t.Errorf("a page over the limit: %v", err)
		}
		if err := fitGist([]string{page}, gistFileLimit, in); err != nil {
			t.Errorf("a page under the limit: %v", err)
		}
	})
}

// nothingShared fails the test if a gist was made or a share recorded.
func (g *fakeGH) nothingShared() {
	g.t.Helper()
	if cmds := commands(g.calls()); slices.Contains(cmds, "gist create") {
		g.t.Errorf("gh was called for %q", cmds)
	}
	if entries, _ := os.ReadDir(filepath.Join(g.state, "piexport", "shares")); len(entries) > 0 {
		g.t.Errorf("%d shares recorded", len(entries))
	}
}

// TestSharingUsage: flags that do not go together are usage errors.
func TestSharingUsage(t *testing.T) {
	newFakeGH(t)
	in := filepath.Join(t.TempDir(), "planted.jsonl")
	plantedSession(t, in, 1)
	dir := filepath.Dir(in)
	for _, args := range [][]string{
		{"--share"},
		{"--share", in, in},
		{"--share", "-o", "x.html", in},
		{"--share", "--format", "md", in},
		{"--share", "--embed-jsonl", in},
		{"--share", "--serve"},
		{"--shares", in},
		{"--shares", "--redact"},
		{"--unshare", "abc", "--shares"},
		{"--password-file", "p", in},
		{"--encrypt", "--format", "md", in},
		{"--encrypt", "--serve"},
		{"--encrypt", "-o", t.TempDir(), dir},
		{"--encrypt", "-o", filepath.Join(t.TempDir(), "p.html"), in}, // no passphrase anywhere
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2: %s", args, code, stderr)
		}
	}
}

// TestEncryptPage: --encrypt writes a page that holds nothing readable of
// the session: no text, title, path or secret; the passphrase opens it.
func TestEncryptPage(t *testing.T) {
	asAda(t)
	t.Setenv(passphraseEnv, "a passphrase of five words")
	in := filepath.Join(t.TempDir(), "planted.jsonl")
	secrets := plantedSession(t, in, 1)
	out := filepath.Join(t.TempDir(), "page.html")
	if _, stderr, code := runCLI(t, "--encrypt", "-o", out, in); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	enc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := page.DecryptPage(enc, "a passphrase of five words")
	if err != nil {
		t.Fatal(err)
	}
	// What the page shows, unmasked: its title, path, text and secrets.
	planted := []string{"/home/ada/work/shop", "0195a3c2-7d1e-7f00-9a4b-5c6d7e8f9012", "claude-sonnet-4-5", "session-index"}
	for _, s := range planted {
		if !bytes.Contains(plain, []byte(s)) {
			t.Errorf("the page itself lacks %q: the check proves nothing", s)
		}
		if bytes.Contains(enc, []byte(s)) {
			t.Errorf("the encrypted page holds %q", s)
		}
	}
	if len(fakesecret.Leaks(unpacked(t, plain), secrets)) == 0 {
		t.Errorf("the page itself holds no secret: the check proves nothing")
	}
	for _, leak := range fakesecret.Leaks(enc, secrets) {
		t.Errorf("the encrypted page: %s", leak)
	}
	if _, err := page.DecryptPage(enc, "a passphrase of five word"); err == nil {
		t.Errorf("a wrong passphrase opens the page")
	}
	// A short passphrase is taken, with a warning.
	t.Setenv(passphraseEnv, "")
	pass := filepath.Join(t.TempDir(), "pass")
	os.WriteFile(pass, []byte("hunter2\r\nsecond line\n"), 0o600)
	_, stderr, code := runCLI(t, "--encrypt", "--password-file", pass, "-o", out, in)
	if code != 0 || !strings.Contains(stderr, "the passphrase has 7 characters") {
		t.Errorf("a short passphrase: exit %d, %q", code, stderr)
	}
	enc, _ = os.ReadFile(out)
	if _, err := page.DecryptPage(enc, "hunter2"); err != nil {
		t.Errorf("the first line of the file is not the passphrase: %v", err)
	}
}
