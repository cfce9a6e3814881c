package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlainWords checks that failures are said in the user's terms: the
// file they named and what is wrong with it, in one sentence, with no
// system call, temporary file name or wrong plural in it.
func TestPlainWords(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	tiny, err := filepath.Abs(filepath.Join(testdataDir(t), "corpus", "pi-v3-earth0-tiny.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("adir", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("one.jsonl", []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, port, _ := net.SplitHostPort(busy.Addr().String())

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing input", []string{"nosuch.jsonl"}, "piexport: nosuch.jsonl: no such file or directory\n"},
		{"missing input, tree", []string{"--format", "tree", "nosuch.jsonl"}, "piexport: nosuch.jsonl: no such file or directory\n"},

		{"output's directory is missing", []string{"-o", "/nonexistent/dir/x.html", tiny},
			"piexport: cannot write /nonexistent/dir/x.html: the directory /nonexistent/dir does not exist\n"},
		{"port taken", []string{"--serve", "--addr", "127.0.0.1:" + port, tiny},
			"piexport: port " + port + " on 127.0.0.1 is taken by another program; stop it, choose another port with --addr, or use --addr 127.0.0.1:0 for a free one\n"},
		{"one line", []string{"one.jsonl"}, "piexport: one.jsonl: not a pi session file: its one line is not a JSON object\n"},
		{"missing password file", []string{"--encrypt", "--password-file", "nosuch.txt", "-o", "p.html", tiny},
			"piexport: --password-file nosuch.txt: no such file or directory\n"},
		{"password file is a directory", []string{"--encrypt", "--password-file", "adir", "-o", "p.html", tiny},
			"piexport: --password-file adir: is a directory\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tc.args...)
			if code != 1 || errOut != tc.want {
				t.Errorf("exit %d, stderr\n%q\nwant exit 1 and\n%q", code, errOut, tc.want)
			}
			for _, bad := range []string{"piexport-tmp", "stat ", "open ", "read ", "rename ", "bind:", "listen tcp"} {
				if strings.Contains(errOut, bad) {
					t.Errorf("the message holds %q: %q", bad, errOut)
				}
			}
		})
	}
}

// TestArchiveSummary checks that the archive's summary adds up on a first
// and a second build, and that warnings about the sessions are counted
// per session, and listed with -v.
func TestArchiveSummary(t *testing.T) {
	src := t.TempDir()
	for _, name := range []string{"pi-v3-earth0-tiny.jsonl", "gjc-v3-pinion04-badline.jsonl"} {
		b, err := os.ReadFile(filepath.Join(testdataDir(t), "corpus", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "empty.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "site")
	badline := filepath.Join(src, "gjc-v3-pinion04-badline.jsonl")

	_, errOut, code := runCLI(t, "-o", out, src)
	if code != 1 {
		t.Errorf("exit %d, want 1 (a session failed)", code)
	}
	for _, want := range []string{
		"2 sessions: 2 written, 0 unchanged\n",
		"warning: " + badline + ": 2 warnings (-v lists them)\n",
		"piexport: 1 of 3 session files could not be read; the index lists them\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("first build: stderr lacks %q:\n%s", want, errOut)
		}
	}

	_, errOut, _ = runCLI(t, "-v", "-o", out, src)
	for _, want := range []string{
		"2 sessions: 0 written, 2 unchanged\n",
		"warning: " + badline + ":44: the line is not valid JSON",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("second build with -v: stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "-v lists them") {
		t.Errorf("-v counts the warnings instead of listing them:\n%s", errOut)
	}
}

// TestOneSession: the messages about one session say "1 session", not
// "1 sessions": how many were read, and in how many masking was done.
func TestOneSession(t *testing.T) {
	_, errOut, code := runCLI(t, "--usage", "--no-cache", corpus+"pi-v3-earth0-tiny.jsonl")
	if code != 0 || !strings.Contains(errOut, "read 1 session file (") {
		t.Errorf("--usage: exit %d, stderr %q", code, errOut)
	}
	src := t.TempDir()
	b, err := os.ReadFile(corpus + "pi-v3-earth0-tiny.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "a.jsonl"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runCLI(t, "--redact", "--no-cache", "-o", filepath.Join(t.TempDir(), "site"), src)
	if code != 0 || !strings.Contains(errOut, ", in 1 session written\n") || !strings.Contains(errOut, "1 session: 1 written") {
		t.Errorf("archive: exit %d, stderr %q", code, errOut)
	}
}
