package page

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

// TestRendererVersion fails when the golden pages change and
// rendererVersion does not: pages kept in the cache are keyed on it
// (Version), so a build that writes different pages must not find the
// old ones. With -update it counts the version up and records the new
// digest itself.
func TestRendererVersion(t *testing.T) {
	got := goldenDigest(t)
	if got == rendererGoldens {
		return
	}
	if !*update {
		t.Fatalf("the golden pages changed (digest %s, recorded %s for renderer version %d): "+
			"count rendererVersion up in page/version.go and record the new digest, or run go test ./page -update",
			got, rendererGoldens, rendererVersion)
	}
	src, err := os.ReadFile("version.go")
	if err != nil {
		t.Fatal(err)
	}
	next := regexp.MustCompile(`(?m)^const rendererVersion = \d+$`).
		ReplaceAllString(string(src), "const rendererVersion = "+strconv.Itoa(rendererVersion+1))
	next = regexp.MustCompile(`(?m)^const rendererGoldens = ".*"$`).
		ReplaceAllString(next, fmt.Sprintf("const rendererGoldens = %q", got))
	if err := os.WriteFile("version.go", []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("renderer version %d, golden digest %s: page/version.go rewritten", rendererVersion+1, got)
}

// goldenDigest sums the golden pages and charts this package writes.
func goldenDigest(t *testing.T) string {
	t.Helper()
	var names []string
	for _, pat := range []string{"page-*.html", "insights-*.svg"} {
		m, err := filepath.Glob(filepath.Join("../testdata/golden", pat))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		t.Fatal("no golden pages in ../testdata/golden")
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
