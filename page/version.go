package page

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sync"

	"github.com/piexport/piexport"
)

// rendererVersion counts the changes to the HTML this package (with
// render and insights) writes for the same session and options. It keys
// the pages kept in the cache (Version): a change that alters a page and
// leaves it the same number would serve stale pages to builds that share
// a cache. TestRendererVersion holds the golden pages' digest as of this
// version, and fails when they change without it; go test ./page -update
// rewrites both.
const rendererVersion = 10

// rendererGoldens is the digest of the golden pages (testdata/golden) at
// rendererVersion.
const rendererGoldens = "9ca2d11419f62c62"

// Version names the pages WriteHTML writes: rendererVersion and a digest
// of the templates and assets the pages are made from. Pages kept under
// one version are shown again by any build of the same one, and only by
// such a build.
func Version() string { return version() }

var version = sync.OnceValue(func() string {
	h := sha256.New()
	for _, fsys := range []fs.FS{piexport.Templates(), piexport.Assets()} {
		err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %d\n", name, len(b))
			h.Write(b)
			return nil
		})
		if err != nil {
			// The files are embedded: reading them cannot fail.
			panic(err)
		}
	}
	return fmt.Sprintf("%d-%s", rendererVersion, hex.EncodeToString(h.Sum(nil))[:16])
})
