package gfm

import (
	"testing"

	"github.com/piexport/piexport/internal/goldenversion"
)

// TestVersion fails when the golden documents change and version does
// not: a Markdown archive is written again only when Version changes.
// With -update it counts the version up and records the new digest
// itself.
func TestVersion(t *testing.T) {
	goldenversion.Check(t, goldenversion.Spec{
		File: "version.go", Version: "version", Digest: "versionGoldens",
		Current: version, Recorded: versionGoldens,
		Goldens: []string{"../testdata/golden/md-*.md"},
		Update:  *update,
	})
}
