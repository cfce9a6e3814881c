package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"io"
	"io/fs"
	neturl "net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/piexport/piexport/internal/fakesecret"
)

// The planted session: fake secrets of every kind in every kind of entry
// and field (see testdata/redact). Its working directory is under
// /home/ada; the tests run as ada, so the home directory and the user
// name are hidden too.
func plantedSession(t *testing.T, path string, seed uint64) []fakesecret.Secret {
	t.Helper()
	tmpl, err := os.ReadFile(filepath.Join(testdataRoot, "redact", "planted.jsonl.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	text, secrets := fakesecret.New(seed).Fill(string(tmpl))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o444); err != nil {
		t.Fatal(err)
	}
	return secrets
}

func asAda(t *testing.T) {
	t.Setenv("HOME", "/home/ada")
	t.Setenv("USER", "ada")
}

// packScript holds a page's packed chunk: gzip, base64 (URL alphabet).
var packScript = regexp.MustCompile(`<script type="application/x-piexport-pack"[^>]*>([A-Za-z0-9_-]*)</script>`)

// unpacked returns page followed by its packed chunks unzipped: what the
// page shows once every branch is opened.
func unpacked(t *testing.T, page []byte) []byte {
	t.Helper()
	out := bytes.Clone(page)
	for _, m := range packScript.FindAllSubmatch(page, -1) {
		z, err := base64.RawURLEncoding.DecodeString(string(m[1]))
		if err != nil {
			t.Fatalf("a packed chunk is not base64: %v", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		chunk, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, chunk...)
	}
	return out
}

// written returns every file under root, and their names, pages
// unpacked.
func written(t *testing.T, root string) []byte {
	t.Helper()
	var all []byte
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		all = append(all, path...)
		all = append(all, '\n')
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		all = append(all, unpacked(t, b)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// noLeaks fails if out holds a secret, the home directory or the user's
// name, or holds no placeholder.
func noLeaks(t *testing.T, what string, out []byte, secrets []fakesecret.Secret) {
	t.Helper()
	for _, leak := range fakesecret.Leaks(out, secrets) {
		t.Errorf("%s: survived: %s", what, leak)
	}
	if !bytes.Contains(out, []byte("[REDACTED:")) {
		t.Errorf("%s: no placeholder in the output", what)
	}
	if bytes.Contains(out, []byte("/home/ada")) || regexp.MustCompile(`(?i)\bada\b`).Match(out) {
		t.Errorf("%s: the home directory or the user name survived", what)
	}
}

// TestRedactEveryOutput writes the planted session in every form with
// --redact: no secret survives in any byte written.
func TestRedactEveryOutput(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	// pi's layout: the folder is named after the working directory.
	in := filepath.Join(dir, "sessions", "--home-ada-work-shop--", "2026-11-20T10-00-00-000Z_0195a3c2.jsonl")
	secrets := plantedSession(t, in, 1)
	other := filepath.Join(dir, "sessions", "--home-ada-work-api--", "2026-11-21T09-00-00-000Z_0195b000.jsonl")
	secrets = append(secrets, plantedSession(t, other, 2)...)
	// A sub-agent's transcript, kept beside its session as omp does: a
	// page that carries it must carry it masked.
	sub := filepath.Join(strings.TrimSuffix(in, ".jsonl"), "0-Explore.jsonl")
	secrets = append(secrets, plantedSession(t, sub, 3)...)
	before, _ := os.ReadFile(in)

	for _, tc := range []struct {
		name string
		args []string
		out  string // a file or directory written, "" for standard output
	}{
		{"html", []string{"-o", "p.html", in}, "p.html"},
		{"html to stdout", []string{"-o", "-", in}, ""},
		{"markdown", []string{"--format", "md", "-o", "p.md", in}, "p.md"},
		{"tree", []string{"--format", "tree", in}, ""},
		{"tree-json", []string{"--format", "tree-json", in}, ""},
		{"archive", []string{"-o", "site", filepath.Join(dir, "sessions")}, "site"},
		{"markdown archive", []string{"--format", "md", "-o", "docs", filepath.Join(dir, "sessions")}, "docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			t.Chdir(work)
			stdout, stderr, code := runCLI(t, append([]string{"--redact"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out := []byte(stdout)
			if tc.out != "" {
				out = append(out, written(t, filepath.Join(work, tc.out))...)
			}
			if strings.HasPrefix(stdout, "<!DOCTYPE") {
				out = unpacked(t, out)
			}
			noLeaks(t, tc.name, out, secrets)
			if tc.name == "archive" && !bytes.Contains(out, []byte("Secrets are masked")) {
				t.Errorf("the archive's index does not say it is redacted")
			}
			if !strings.Contains(stderr, "anthropic-api-key") && !strings.Contains(stderr, "values masked") {
				t.Errorf("no report on standard error: %q", stderr)
			}
		})
	}
	after, _ := os.ReadFile(in)
	if !bytes.Equal(before, after) {
		t.Errorf("the input was changed")
	}
}

// TestRedactPage checks what a redacted page shows: placeholders, the
// same one for the same value, and the look-alikes untouched.
func TestRedactPage(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "planted.jsonl")
	plantedSession(t, in, 1)
	page, _, code := runCLI(t, "--redact", "-o", "-", in)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	all := string(unpacked(t, []byte(page)))
	if n := strings.Count(all, "[REDACTED:anthropic-api-key#1]"); n < 2 {
		t.Errorf("the Anthropic key, twice in the session, shows as its placeholder %d times", n)
	}
	if strings.Contains(all, "anthropic-api-key#2") {
		t.Errorf("one key got two numbers")
	}
	for _, l := range []string{
		"3f9b2c7e-41d5-4a8e-9c2f-6b1d0e7a8f35", "9fceb02d0ae598e95dc970b74767f19372d61af8",
		"h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=", "#1f6feb",
		"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
		"a password must have 12 characters",
	} {
		if !strings.Contains(all, l) {
			t.Errorf("look-alike %q is not on the page", l)
		}
	}
	// The header says what was masked.
	head := regexp.MustCompile(`<dt>Redacted</dt><dd>(\d+) values masked: [^<]*2 aws-access-token[^<]*; the home directory shown as ~, the user name as user</dd>`)
	if !head.MatchString(all) {
		t.Errorf("the page's header does not say what was masked")
	}
	md, _, _ := runCLI(t, "--redact", "--format", "md", "-o", "-", in)
	if !regexp.MustCompile(`(?m)^- \*\*Redacted:\*\* \d+ values masked: `).MatchString(md) {
		t.Errorf("the Markdown does not say what was masked")
	}
	plain, _, _ := runCLI(t, "-o", "-", in)
	if strings.Contains(plain, "<dt>Redacted</dt>") {
		t.Errorf("a page not redacted says it was")
	}
	// The thinking signature is an opaque blob the page never shows.
	if strings.Contains(all, "EqQBCkgIARABGAIiQJ8b2Kq") {
		t.Errorf("the page shows a thinking signature")
	}
}

// TestRedactReport: --redact-report prints the report and writes nothing.
func TestRedactReport(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "planted.jsonl")
	secrets := plantedSession(t, in, 1)
	work := t.TempDir()
	t.Chdir(work)
	stdout, stderr, code := runCLI(t, "--redact-report", in)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if entries, _ := os.ReadDir(work); len(entries) != 0 {
		t.Errorf("--redact-report wrote %d files", len(entries))
	}
	line := regexp.MustCompile(`(?m)^.*planted\.jsonl:(\d+)\tentry (\S+)\t\[REDACTED:anthropic-api-key#1\]\tsk-ant-…\S{4}$`)
	if !line.MatchString(stdout) {
		t.Errorf("no line for the Anthropic key with its place and preview:\n%s", stdout)
	}
	if !strings.Contains(stdout, "anthropic-api-key") || !regexp.MustCompile(`(?m)^  aws-access-token +2 values in 3 places$`).MatchString(stdout) {
		t.Errorf("no counts per rule:\n%s", stdout)
	}
	noLeaksInReport := fakesecret.Leaks([]byte(stdout), secrets)
	if len(noLeaksInReport) > 0 {
		t.Errorf("the report shows secrets: %v", noLeaksInReport)
	}

	// With -q, --redact prints the counts only.
	_, stderr, code = runCLI(t, "-q", "--redact", "-o", filepath.Join(work, "p.html"), in)
	if code != 0 || strings.Contains(stderr, "\tentry ") || !strings.Contains(stderr, "values masked") {
		t.Errorf("-q --redact: exit %d, stderr %q", code, stderr)
	}
	if _, _, code := runCLI(t, "--redact-report", "-o", "x.html", in); code != 2 {
		t.Errorf("--redact-report -o: exit %d, want 2", code)
	}
}

// TestRedactLiteralsAndImages: --redact-literal, --redact-file and
// --no-images.
func TestRedactLiteralsAndImages(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "planted.jsonl")
	plantedSession(t, in, 1)
	words := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(words, []byte("acme.io\n\n  docs/secrets.md  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	page, stderr, code := runCLI(t, "--redact-literal", "Screenshot", "--redact-file", words, "--no-images", "-o", "-", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all := unpacked(t, []byte(page))
	for _, w := range []string{"Screenshot", "screenshot", "acme.io", "docs/secrets.md", "iVBORw0KGgo"} {
		if bytes.Contains(all, []byte(w)) {
			t.Errorf("%q survived", w)
		}
	}
	if !bytes.Contains(all, []byte("[REDACTED:literal#")) || !bytes.Contains(all, []byte("[image removed]")) {
		t.Errorf("no literal placeholder or no [image removed] on the page")
	}
}

// syncBuffer is a buffer that a server goroutine writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRedactServer: with --redact the server's index, pages and search
// show no secret, and the index says the server redacts.
func TestRedactServer(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	secrets := plantedSession(t, filepath.Join(dir, "--home-ada-work-shop--", "a.jsonl"), 1)
	srv := startServer(t, []string{"--serve", "--redact", "--addr", "127.0.0.1:0", dir}, "")
	get := srv.get
	index := get("")
	if !bytes.Contains(index, []byte("Secrets are masked")) {
		t.Errorf("the index does not say the server redacts")
	}
	all := append(bytes.Clone(index), srv.sessionPages(index)...)
	// Search for words next to secrets: the snippets hold placeholders.
	for _, q := range []string{"Stripe", "key", "token", "password", "deploy"} {
		all = append(all, get("search?q="+q)...)
	}
	noLeaks(t, "server", all, secrets)
	// Search for the secrets themselves: the index does not hold them.
	// (The page shows the query, so it is not scanned for leaks.)
	for _, s := range secrets {
		v := s.Values[0]
		q := v[len(v)-min(len(v), 12):]
		if page := get("search?q=" + neturl.QueryEscape(q)); bytes.Contains(page, []byte(`class="hit-list"`)) {
			t.Errorf("searching %q (%s) finds something", q, s.Kind)
		}
	}
}

// TestRedactSubAgents: the transcripts of a session's sub-agents, which
// the page carries, are masked as the session is.
func TestRedactSubAgents(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	main := filepath.Join(dir, "main.jsonl")
	src, err := os.ReadFile(filepath.Join(testdataRoot, "corpus", "omp18-task-subagents.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(main, src, 0o444); err != nil {
		t.Fatal(err)
	}
	// The planted session stands as the sub-agent the task call started.
	secrets := plantedSession(t, filepath.Join(dir, "main", "Lexer.jsonl"), 7)
	out := filepath.Join(dir, "page.html")
	if _, errOut, code := runCLI(t, "--redact", "-q", "-o", out, main); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	all := unpacked(t, page)
	if !bytes.Contains(all, []byte(`class="subagent-body"`)) {
		t.Fatal("the page carries no sub-agent transcript")
	}
	noLeaks(t, "page with a sub-agent", all, secrets)

	// The Markdown carries the transcripts too, masked.
	md := filepath.Join(dir, "page.md")
	if _, errOut, code := runCLI(t, "--redact", "-q", "--format", "md", "-o", md, main); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, []byte("### Sub-agent `Lexer`")) {
		t.Fatalf("the Markdown carries no sub-agent transcript:\n%s", doc)
	}
	noLeaks(t, "Markdown with a sub-agent", doc, secrets)
}

// TestRedactNeverCarriesTheFile: the session file a page can carry for
// download is the file as it is, secrets and all, so --embed-jsonl is
// refused with every flag that masks or leaves out, for a page and for
// an archive; without them the page carries the file byte for byte.
func TestRedactNeverCarriesTheFile(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "sessions", "--home-ada-work-shop--", "planted.jsonl")
	plantedSession(t, in, 1)
	for _, masking := range [][]string{
		{"--redact"}, {"--redact-report"}, {"--no-images"}, {"--redact-literal", "hunter2"},
	} {
		for _, target := range [][]string{{"-o", "p.html", in}, {"-o", "site", filepath.Join(dir, "sessions")}} {
			args := append(append([]string{"--embed-jsonl"}, masking...), target...)
			t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
				t.Chdir(t.TempDir())
				stdout, stderr, code := runCLI(t, args...)
				if code != 2 || !strings.Contains(stderr, "--embed-jsonl") {
					t.Errorf("exit %d, stderr %q; want exit 2 naming --embed-jsonl", code, stderr)
				}
				if _, err := os.Stat(target[1]); err == nil || stdout != "" {
					t.Errorf("something was written: %q", stdout)
				}
			})
		}
	}

	// The file is only carried when asked for, and then byte for byte.
	raw, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	for _, tc := range []struct {
		args  []string
		carry bool
	}{
		{[]string{"-o", "-", in}, false},
		{[]string{"--embed-jsonl", "-o", "-", in}, true},
	} {
		page, stderr, code := runCLI(t, tc.args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.args, code, stderr)
		}
		m := jsonlScript.FindStringSubmatch(page)
		if got := m != nil && strings.Contains(page, `id="download-jsonl"`); got != tc.carry {
			t.Errorf("%q: the page carries and offers the session file: %v, want %v", tc.args, got, tc.carry)
		}
		if m == nil {
			continue
		}
		z, err := base64.RawURLEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatalf("the session file is not base64: %v", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, raw) {
			t.Errorf("the page carries %d bytes, not the session file's %d", len(got), len(raw))
		}
	}
}

// jsonlScript holds the session file a page carries: gzip, base64.
var jsonlScript = regexp.MustCompile(`<script type="application/x-piexport-jsonl"[^>]*>([A-Za-z0-9_-]*)</script>`)
