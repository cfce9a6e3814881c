// Package goldenversion checks, in a renderer's tests, that its version
// counts up whenever its golden files change: what it renders is cached
// keyed on that version (page.Version, gfm.Version), so a build that
// renders otherwise must not find the old renderings.
package goldenversion

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Spec names a renderer's version and what it is checked against.
type Spec struct {
	// File is the Go file, in the package's directory, that holds the
	// two constants below.
	File string
	// Version and Digest are the names of the constants: the version, and
	// the digest of the golden files it was recorded with.
	Version, Digest string
	// Current and Recorded are their values.
	Current  int
	Recorded string
	// Goldens are glob patterns of the golden files, from the package's
	// directory.
	Goldens []string
	// Update (the tests' -update) counts the version up and records the
	// new digest in File instead of failing.
	Update bool
}

// Check fails when the golden files' digest is not the recorded one,
// or, with Update, rewrites File with the next version and the digest.
func Check(t *testing.T, s Spec) {
	t.Helper()
	got := Digest(t, s.Goldens...)
	if got == s.Recorded {
		return
	}
	if !s.Update {
		file := s.File
		if wd, err := os.Getwd(); err == nil {
			file = filepath.Join(filepath.Base(wd), s.File)
		}
		t.Fatalf("the golden files changed (digest %s, recorded %s for %s %d): "+
			"count %s up in %s and record the new digest, or run the package's tests with -update",
			got, s.Recorded, s.Version, s.Current, s.Version, file)
	}
	src, err := os.ReadFile(s.File)
	if err != nil {
		t.Fatal(err)
	}
	next := regexp.MustCompile(`(?m)^const `+s.Version+` = \d+$`).
		ReplaceAllString(string(src), "const "+s.Version+" = "+strconv.Itoa(s.Current+1))
	next = regexp.MustCompile(`(?m)^const `+s.Digest+` = ".*"$`).
		ReplaceAllString(next, fmt.Sprintf("const %s = %q", s.Digest, got))
	if err := os.WriteFile(s.File, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %d, golden digest %s: %s rewritten", s.Version, s.Current+1, got, s.File)
}

// Digest sums the files the patterns match: their names, lengths and
// contents, with line ends as git may check them out.
func Digest(t *testing.T, patterns ...string) string {
	t.Helper()
	var names []string
	for _, pat := range patterns {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatalf("no golden files match %s", strings.Join(patterns, " "))
	}
	h := sha256.New()
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), "\r\n", "\n"))
		fmt.Fprintf(h, "%s %d\n", filepath.Base(name), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
