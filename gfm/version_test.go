package gfm

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

// TestVersion fails when the golden documents change and version does
// not: a Markdown archive is written again only when Version changes.
// With -update it counts the version up and records the new digest
// itself.
func TestVersion(t *testing.T) {
	got := goldenDigest(t)
	if got == versionGoldens {
		return
	}
	if !*update {
		t.Fatalf("the golden documents changed (digest %s, recorded %s for version %d): "+
			"count version up in gfm/version.go and record the new digest, or run go test ./gfm -update",
			got, versionGoldens, version)
	}
	src, err := os.ReadFile("version.go")
	if err != nil {
		t.Fatal(err)
	}
	next := regexp.MustCompile(`(?m)^const version = \d+$`).
		ReplaceAllString(string(src), "const version = "+strconv.Itoa(version+1))
	next = regexp.MustCompile(`(?m)^const versionGoldens = ".*"$`).
		ReplaceAllString(next, fmt.Sprintf("const versionGoldens = %q", got))
	if err := os.WriteFile("version.go", []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("version %d, golden digest %s: gfm/version.go rewritten", version+1, got)
}

// goldenDigest sums the golden documents and charts this package writes.
func goldenDigest(t *testing.T) string {
	t.Helper()
	var names []string
	for _, pat := range []string{"md-*.md"} {
		m, err := filepath.Glob(filepath.Join("../testdata/golden", pat))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatal("no golden documents in ../testdata/golden")
	}
	h := sha256.New()
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// Line ends as git may check them out.
		b = []byte(strings.ReplaceAll(string(b), "\r\n", "\n"))
		fmt.Fprintf(h, "%s %d\n", filepath.Base(name), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
