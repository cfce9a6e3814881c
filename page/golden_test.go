package page

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenPages compares whole pages of small sessions with
// testdata/golden (go test ./page -update rewrites them).
func TestGoldenPages(t *testing.T) {
	for _, tc := range []struct{ name, file, leaf string }{
		{"page-branches-labels.html", "pi-v3-sdk-branches-labels.jsonl", ""},
		{"page-branches-labels-first-branch.html", "pi-v3-sdk-branches-labels.jsonl", "6eea0e7d"},
		{"page-compaction-custom.html", "pi-v3-sdk-compaction-custom.jsonl", ""},
		{"page-v1-fixture.html", "pi-v1-pimono-migration-test-fixture.jsonl", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := exportPage(t, loadCorpus(t, tc.file), Options{Leaf: tc.leaf, Home: "/home/dev", Generator: "piexport test"})
			checkPageIDs(t, page)
			page = goldenForm(unpackPage(t, page))
			path := filepath.Join("../testdata/golden", tc.name)
			if *update {
				if err := os.WriteFile(path, page, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./page -update)", err)
			}
			if diff := cmp.Diff(string(want), string(page)); diff != "" {
				t.Errorf("page differs (-want +got):\n%s", diff)
			}
		})
	}
}

var (
	inlineAssetRE = regexp.MustCompile(`(?s)(<style>|<script>).*?(</style>|</script>)`)
	cspHashRE     = regexp.MustCompile(`sha256-[A-Za-z0-9+/=&#;]+`)
)

// goldenForm leaves the page's own CSS and script out of a golden page
// (they are files of their own, tested on their own) and with them their
// hashes in the CSP, so a golden shows what the session made.
func goldenForm(page []byte) []byte {
	page = inlineAssetRE.ReplaceAll(page, []byte("$1…$2"))
	return cspHashRE.ReplaceAll(page, []byte("sha256-…"))
}

// TestExportIsDeterministic exports a v1 file twice: ids derived from line
// numbers make the pages identical.
func TestExportIsDeterministic(t *testing.T) {
	a := exportPage(t, loadCorpus(t, "pi-v1-pimono-session-thinking.jsonl"), Options{})
	b := exportPage(t, loadCorpus(t, "pi-v1-pimono-session-thinking.jsonl"), Options{})
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same file differ")
	}
}
