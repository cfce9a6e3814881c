package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piexport/piexport/page"
)

// TestPassphraseABrowserCanType: a passphrase that would make a page no
// browser can open is refused with one sentence that says why, wherever
// it comes from: a carriage return ($(cat FILE) of a file with Windows
// line ends), another control character, bytes that are not UTF-8. A
// byte order mark before the file's first line is not part of the
// passphrase, nor is its line end; the passphrase is taken in NFC, as the
// page's script takes what is typed.
func TestPassphraseABrowserCanType(t *testing.T) {
	in := filepath.Join(t.TempDir(), "s.jsonl")
	b, err := os.ReadFile("../../testdata/corpus/pi-v3-earth0-tiny.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "page.html")
	passFile := filepath.Join(t.TempDir(), "pass")

	for _, tc := range []struct {
		name, env, file string
		want            string
	}{
		{name: "a carriage return at the end", env: "five words make a passphrase\r",
			want: "PIEXPORT_PASSWORD: the passphrase ends with a carriage return (U+000D), which a browser cannot type ($(cat FILE) leaves one"},
		{name: "a tab inside", env: "five words\tmake a passphrase", want: "PIEXPORT_PASSWORD: the passphrase holds a tab (U+0009), which a browser cannot type"},
		{name: "an escape first", env: "\x1b[31mfive words make a passphrase", want: "the passphrase begins with an escape (U+001B)"},
		{name: "not UTF-8", env: "five words make a pass\xffphrase", want: "PIEXPORT_PASSWORD: the passphrase is not UTF-8 text, which a browser cannot type"},
		{name: "not UTF-8 in the file", file: "five words make a pass\xffphrase\n", want: "the passphrase is not UTF-8 text, which a browser cannot type"},
		{name: "a control character in the file", file: "five words\x7fmake a passphrase\r\n", want: "the passphrase holds a control character (U+007F)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(passphraseEnv, tc.env)
			args := []string{"--encrypt", "-o", out, in}
			if tc.file != "" {
				if err := os.WriteFile(passFile, []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append([]string{"--password-file", passFile}, args...)
			}
			os.Remove(out)
			_, stderr, code := runCLI(t, args...)
			if code != 1 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("exit %d, %q; want 1 and one line saying %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a page was written")
			}
		})
	}

	for _, tc := range []struct {
		name, env, file, typed string
	}{
		{name: "a byte order mark", file: "\ufeffAmélie's five words, typed\r\n", typed: "Amélie's five words, typed"},
		{name: "composed or not", env: "Ame\u0301lie's five words, typed", typed: "Amélie's five words, typed"},
		{name: "composed or not, typed the other way", env: "Amélie's five words, typed", typed: "Ame\u0301lie's five words, typed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(passphraseEnv, tc.env)
			args := []string{"--encrypt", "-o", out, in}
			if tc.file != "" {
				if err := os.WriteFile(passFile, []byte(tc.file), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append([]string{"--password-file", passFile}, args...)
			}
			if _, stderr, code := runCLI(t, args...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			enc, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := page.DecryptPage(enc, tc.typed); err != nil {
				t.Errorf("%q does not open the page: %v", tc.typed, err)
			}
		})
	}
}
