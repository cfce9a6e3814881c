package page

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/session"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenPages compares whole pages of small sessions with
// testdata/golden (go test ./page -update rewrites them).
func TestGoldenPages(t *testing.T) {
	for _, tc := range []struct {
		name, file, leaf string
		subAgents        bool
	}{
		{"page-branches-labels.html", "pi-v3-sdk-branches-labels.jsonl", "", false},
		{"page-branches-labels-first-branch.html", "pi-v3-sdk-branches-labels.jsonl", "6eea0e7d", false},
		{"page-compaction-custom.html", "pi-v3-sdk-compaction-custom.jsonl", "", false},
		{"page-v1-fixture.html", "pi-v1-pimono-migration-test-fixture.jsonl", "", false},
		// pi 1.5: system prompt cards, a usage entry, context edits and
		// their badges, pi's totals and cost by model, redacted thinking,
		// nested calls, responseModel, a compaction's checkpoint.
		{"page-pi15-usage-contextedit.html", "pi15-sdk-usage-contextedit-main.jsonl", "", false},
		// Three roots, edits of edits, a deferred and an aborted answer.
		{"page-pi15-roots-edits.html", "pi15-sdk-roots-edits.jsonl", "", false},
		{"page-pi15-no-prompt.html", "pi15-sdk-no-prompt.jsonl", "", false},
		// omp 18: its own entries and a task call's sub-agents, carried.
		{"page-omp18-subagents.html", "omp18-task-subagents.jsonl", "", true},
		// pi 1.6: hyperlinks in tool output, reasoning a provider dropped,
		// calls stopped with Esc, an extension's state.
		{"page-pi16-links-diagnostics.html", "pi16-sdk-links-diagnostics.jsonl", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opt := Options{Leaf: tc.leaf, Home: "/home/dev", Generator: "piexport test"}
			if tc.subAgents {
				var warnings []session.Warning
				opt.SubAgents, warnings = session.LoadSubAgents(filepath.Join("../testdata/corpus", tc.file))
				if len(opt.SubAgents) == 0 || len(warnings) > 0 {
					t.Fatalf("sub-agents %v, warnings %v", opt.SubAgents, warnings)
				}
			}
			page := exportPage(t, loadCorpus(t, tc.file), opt)
			checkPageIDs(t, page)
			page = goldenForm(articlesPage(t, page))
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
