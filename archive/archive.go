// Package archive writes a directory of session pages with an index: a
// browsable archive that needs no server and opens from the file system,
// and, for HTML, a search index its index page queries from there (see
// search.go).
//
// Builds are incremental and atomic. A manifest in the directory records,
// per source file, its size, modification time and content hash, and the
// page made from it; a later build renders only what changed and removes
// the pages of sources that are gone. Every file is written to a temporary
// name and renamed into place, pages first, then the index and the
// manifest, so an interrupted build leaves the previous archive readable.
package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
)

// Options say how an archive is built.
type Options struct {
	// Theme, Home and Generator are passed to every page (see
	// page.Options and gfm.Options) and to the index.
	Theme, Home, Generator string
	// Title heads the index; empty means "pi sessions".
	Title string
	// Format is "html" (the default): one page per session and index.html;
	// or "md": one Markdown file per session and index.md (_index.md for
	// Hugo), their images in assets/.
	Format string
	// MarkdownTarget is the engine a Markdown archive is for (gfm.Targets;
	// empty: GitHub); FrontMatter starts each file with front matter.
	MarkdownTarget string
	FrontMatter    bool
	// Progress, when set, is told how far the build is: before the
	// first session file is read, then after each. It is called from
	// one goroutine at a time.
	Progress func(Progress)
	// Workers bounds how many sessions render at once. Zero means one per
	// core.
	Workers int
	// Force renders every session, changed or not.
	Force bool
	// Mask, when set, masks the sessions of a family after they are read
	// and before anything is made from them (package redact's Redactor is
	// one). A family is a session, its sub-agents' transcripts, the
	// session it was forked from, its forks and theirs: the sessions the
	// archive links, which repeat each other. Each member is looked at in
	// an order that is the same at every build, and those whose pages or
	// words the build makes are masked with what every member holds, the
	// rest being read only for that. When one member of a family changes,
	// the whole family is made again. Mask's key is part of the options
	// pages are made with, so that pages made otherwise are made again;
	// Mask.Text rewrites the source paths the archive shows or names its
	// pages after: pi names session folders after the working directory,
	// which holds the user's name.
	Mask session.Masker
	// Masked, when set, is told each session Mask masked, once masked.
	Masked func(*session.Session)
	// Notice is a line the index shows above the list, e.g. that secrets
	// are masked.
	Notice string
	// Pages, when set, is the page cache the server uses too: a page made
	// before, for this state of its session and these options, is copied
	// from it instead of rendered, and pages rendered are kept in it.
	Pages *catalog.Pages

	// EmbedJSONL makes each page carry its session file, as it is, for
	// download. It does not go with Mask, which would be undone.
	EmbedJSONL bool

	// Shared, when set, returns the links about where the session file at
	// path was shared (piexport --share): its page's header and its row
	// in the index list them after its links to other sessions.
	Shared func(path string) []page.Related

	// fingerprint is fingerprintOf's, set by Build.
	fingerprint string
	// tracker keeps the build's Progress, set by Build.
	tracker *tracker
}

// Result says what a build did.
type Result struct {
	// Index is the path of the index file.
	Index string
	// Rendered lists the sources whose pages were written, Unchanged
	// counts the others that were kept as they were.
	Rendered  []string
	Unchanged int
	// Removed lists the page files removed: their sources are gone or no
	// longer load.
	Removed []string
	// Failed lists the sources that could not be loaded; the index lists
	// them with their errors. Rendered, Unchanged and Failed add up to the
	// sources given.
	Failed []Failure
	// Warned lists the sources that loaded with warnings (bad lines and
	// the like), with the warnings; unchanged sources' come from the
	// manifest.
	Warned []Warned
	// SubAgents counts the sources, rendered or unchanged, that are
	// sub-agents' transcripts: the index lists them under their
	// sessions and counts them apart.
	SubAgents int
}

// Warned is a source file that loaded with warnings.
type Warned struct {
	Path     string
	Warnings []string
}

// Failure is a source file that could not be loaded.
type Failure struct {
	Path string
	Err  error
}

// ManifestName is the manifest's file name in the archive directory.
const ManifestName = ".piexport-manifest.json"

// Build writes the archive of files into dir, creating dir if needed: one
// page per session, named after its source, and an index. Files are session
// files (see catalog.Find to list a directory's). A file that fails to load
// does not stop the build: it is listed in the index with its error and in
// Result.Failed. An error writing the archive does stop it, as does ctx;
// the previous index and manifest are then left as they were. One build
// at a time writes dir: another waits a few seconds for the lock, then
// fails with ErrBusy.
func Build(ctx context.Context, dir string, files []string, opt Options) (Result, error) {
	f, err := formatOf(opt.Format, opt.MarkdownTarget)
	if err != nil {
		return Result{}, err
	}
	if opt.EmbedJSONL && opt.Mask != nil {
		// The file as it is would carry what Mask masks.
		return Result{}, errors.New("the pages cannot carry their session files as they are and prepared sessions both")
	}
	b := &builder{dir: dir, opt: opt, f: f, res: Result{Index: filepath.Join(dir, f.index)}}
	unlock, err := b.lock(ctx, files)
	if err != nil {
		return b.res, err
	}
	defer unlock()
	defer b.abortSearch()
	// The phases (see build.go): planning changes nothing the archive
	// shows; then the pages are written, the index and the manifest
	// last, so that a build stopped anywhere leaves the last archive
	// readable.
	if err := b.start(); err != nil {
		return b.res, err
	}
	if err := b.findSources(files); err != nil {
		return b.res, err
	}
	b.planFamilies()
	b.planLinks()
	if err := b.planSearch(); err != nil {
		return b.res, err
	}
	if err := b.run(ctx, b.jobs); err != nil {
		return b.res, err
	}
	if err := b.relink(ctx); err != nil {
		return b.res, err
	}
	b.tally()
	if err := b.finishSearch(ctx); err != nil {
		return b.res, err
	}
	if err := b.writeIndex(); err != nil {
		return b.res, err
	}
	if err := b.removeGone(); err != nil {
		return b.res, err
	}
	if err := b.writeManifest(); err != nil {
		return b.res, err
	}
	return b.res, nil
}

// shared adds to rel the links of Shared about the session at path.
func (opt Options) shared(rel []page.Related, path string) []page.Related {
	if opt.Shared == nil {
		return rel
	}
	return append(rel, opt.Shared(path)...)
}

// maskKey is Mask's key, "" without one.
func (opt Options) maskKey() string {
	if opt.Mask == nil {
		return ""
	}
	return opt.Mask.Key()
}

// hide masks a path with Mask, if set.
func (opt Options) hide(path string) string {
	if opt.Mask == nil {
		return path
	}
	return opt.Mask.Text(path)
}

// sourceKey identifies a source in the manifest by its absolute path,
// hashed: an archive is made to be shared, and the paths of its sources
// would tell where its author keeps them.
func sourceKey(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:16])
}

func pageExists(dir string, e *entry, f format) bool {
	if e.Error != "" {
		return true // a failed source has no page to lose
	}
	_, err := os.Stat(filepath.Join(dir, e.Stem+f.ext))
	return err == nil
}

// fingerprintOf sums what every page depends on besides its source: the
// options and the version of the renderer of the format (page.Version,
// gfm.Version), which covers the embedded templates and assets. When it
// changes, every page is rendered again; a build of piexport that renders
// as the last one did keeps the pages.
func fingerprintOf(opt Options, format string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "format=%s\ntheme=%s\nhome=%s\ngenerator=%s\nprepare=%s\nembed-jsonl=%v\n", format, opt.Theme, opt.Home, opt.Generator, opt.maskKey(), opt.EmbedJSONL)
	switch format {
	case "md":
		fmt.Fprintf(h, "renderer=gfm %s\ntarget=%s\nfront-matter=%v\n", gfm.Version(), opt.MarkdownTarget, opt.FrontMatter)
	default:
		fmt.Fprintf(h, "renderer=page %s\n", page.Version())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeIfChanged writes data to path atomically unless the file already
// holds exactly data, so an unchanged archive keeps its files' times.
// What is at path is read only if it is a regular file: a named pipe put
// there would hang the read (atomicfile then refuses to replace it).
func writeIfChanged(path string, data []byte) error {
	if old, err := fileguard.ReadInput(context.Background(), path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return atomicfile.WriteFile(path, data)
}

// isTemp reports whether name is one atomicfile gives its temporary files.
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, atomicfile.TempSuffix)
}

// removeStaleTemps removes what builds that were killed before they could
// clean up left behind: the search index's bucket directories (the
// caller holds the lock, so no other build is using one) and temporary
// files (an hour-old one is no live build's: a writer that does not take
// the lock could have made it).
func removeStaleTemps(dir string) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range list {
		switch {
		case d.IsDir() && strings.HasPrefix(d.Name(), searchBuildPrefix):
			// A directory, not a link to one: RemoveAll does not follow
			// links, and only what a build made here is removed.
			os.RemoveAll(filepath.Join(dir, d.Name()))
		case d.Type().IsRegular() && isTemp(d.Name()):
			if fi, err := d.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				os.Remove(filepath.Join(dir, d.Name()))
			}
		}
	}
}
