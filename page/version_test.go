package page

import (
	"testing"

	"github.com/piexport/piexport/internal/goldenversion"
)

// TestRendererVersion fails when the golden pages change and
// rendererVersion does not: pages kept in the cache are keyed on it
// (Version), so a build that writes different pages must not find the
// old ones. With -update it counts the version up and records the new
// digest itself.
func TestRendererVersion(t *testing.T) {
	goldenversion.Check(t, goldenversion.Spec{
		File: "version.go", Version: "rendererVersion", Digest: "rendererGoldens",
		Current: rendererVersion, Recorded: rendererGoldens,
		Goldens: []string{"../testdata/golden/page-*.html", "../testdata/golden/insights-*.svg"},
		Update:  *update,
	})
}
