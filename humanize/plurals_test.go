package humanize

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneWayToCount reads piexport's own Go code for messages that put a
// plural noun after a figure by hand ("%d sessions"), which read "1
// sessions" when the figure is one: every count goes through Count.
func TestOneWayToCount(t *testing.T) {
	// A figure and a noun, or a helper that makes a plural by adding
	// "s" to a noun it is given ("%d %ss").
	handMade := []*regexp.Regexp{regexp.MustCompile(`%d ([a-z]+s)\b`), regexp.MustCompile(`%d [a-z]+ ([a-z]+s)\b`),
		regexp.MustCompile(`%d (%s(?:s|ies))`)}
	// Units and words that are not a count's noun. bench, sessiongen and
	// gensession write no message to users; fastlex's errors are about
	// its own lexer rules, for developers.
	allowed := map[string]bool{"ms": true, "is": true, "was": true, "MB/s": true}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "bench" || d.Name() == "sessiongen" || d.Name() == "gensession" || d.Name() == "fastlex" || strings.HasPrefix(d.Name(), ".")) && path != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, re := range handMade {
				for _, m := range re.FindAllStringSubmatch(line, -1) {
					if !allowed[m[1]] {
						t.Errorf("%s:%d: %q counts by hand; use Count", path, i+1, m[0])
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
