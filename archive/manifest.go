package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// manifestVersion is bumped when the manifest's meaning changes (4: each
// session's usage, for the index's report); a manifest of another version
// is ignored, and every page rendered again.
const manifestVersion = 4

// manifest is what a build leaves in the archive for the next one.
type manifest struct {
	Version int `json:"version"`
	// Fingerprint sums the options and the program the pages were made
	// with (see fingerprintOf).
	Fingerprint string `json:"fingerprint"`
	Format      string `json:"format"`
	// Index is the index's file name ("" before it was kept: "index" and
	// the format's extension).
	Index string `json:"index,omitempty"`
	// Sessions are keyed by sourceKey of the source's absolute path.
	Sessions map[string]*entry `json:"sessions"`
	// Search is the meta file of the search index's generation, relative
	// to the archive ("search/meta-3.js"); "" without one.
	Search string `json:"search,omitempty"`
}

// entry is one source of the archive.
type entry struct {
	// Path is the source as this build was given it; not kept.
	Path string `json:"-"`
	// Stem is the page's file name without its extension.
	Stem    string `json:"stem"`
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtime"` // Unix nanoseconds
	SHA256  string `json:"sha256,omitempty"`
	// Error is why the source could not be loaded; it then has no page.
	Error string `json:"error,omitempty"`
	// Warnings are what loading the source warned about, for the next
	// build to report without loading it again.
	Warnings []string `json:"warnings,omitempty"`
	// What the index shows, so that an unchanged source is not loaded
	// again just to list it.
	Cwd       string          `json:"cwd,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Summary   session.Summary `json:"summary"`
	// ParentSession is what the source's header says it was forked from:
	// a path, which tells where its author keeps sessions (and, masked
	// or not, holds what --redact hides), so it is read from the header
	// at every build and not kept.
	ParentSession string `json:"-"`
	// Related sums the page's links to other sessions (relatedKey): when
	// they change, the page is made again.
	Related string `json:"related,omitempty"`
	// Group sums the contents of the session's family, when the build
	// prepares sessions (familyDigest): when it changes, what the page
	// must mask may have, and the page is made again.
	Group string `json:"group,omitempty"`
	// Doc is the file of the session's entries in the search index.
	Doc string `json:"doc,omitempty"`
	// Usage is the session's model work per UTC day and model, for the
	// index's usage report.
	Usage []usage.Record `json:"usage,omitempty"`
	// Assets are the images of a Markdown page, files of assets/.
	Assets []string `json:"assets,omitempty"`
}

// readManifest reads dir's manifest. A missing one is an empty manifest;
// so is one this version cannot read, since the pages can be made again.
func readManifest(dir string) (*manifest, error) {
	m := &manifest{Sessions: map[string]*entry{}}
	// Read like a source: a named pipe in its place must not hang the
	// build.
	b, err := fileguard.ReadInput(context.Background(), filepath.Join(dir, ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	var read manifest
	if json.Unmarshal(b, &read) != nil || read.Version != manifestVersion {
		return m, nil
	}
	for k, e := range read.Sessions {
		// The manifest names the files a build removes: a name that is
		// not one this package makes would remove something else.
		if e == nil || e.Stem == "" || sanitize(e.Stem) != e.Stem || strings.EqualFold(e.Stem, "index") {
			continue
		}
		m.Sessions[k] = e
	}
	m.Fingerprint, m.Format, m.Index = read.Fingerprint, read.Format, read.Index
	// The search generation and the doc files name what a build removes
	// too: only names this package makes are kept (the first format's
	// "search/3" is not one: its index is made anew).
	if searchGen(read.Search) > 0 {
		m.Search = read.Search
	}
	for _, e := range m.Sessions {
		if e.Doc != "" && (sanitize(e.Doc) != e.Doc || !strings.HasSuffix(e.Doc, ".js")) {
			e.Doc = ""
		}
	}
	return m, nil
}

// indexName is the index's file name.
func (m *manifest) indexName() string {
	switch m.Index {
	case "index.html", "index.md", "_index.md": // what a build names it
		return m.Index
	}
	return "index" + formats[m.formatName()].ext
}

func (m *manifest) formatName() string {
	if _, ok := formats[m.Format]; ok {
		return m.Format
	}
	return "html"
}

// sortedEntries returns the entries in the order of their keys, so that
// what a build does never depends on map order.
func (m *manifest) sortedEntries() []*entry {
	keys := make([]string, 0, len(m.Sessions))
	for k := range m.Sessions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*entry, len(keys))
	for i, k := range keys {
		out[i] = m.Sessions[k]
	}
	return out
}

func (m *manifest) write(dir string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "\t")
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return writeIfChanged(filepath.Join(dir, ManifestName), buf.Bytes())
}
