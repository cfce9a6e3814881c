package archive

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/internal/imagefiles"
	"github.com/piexport/piexport/site"
)

// Once every source is read, a build writes the search index, then the
// index page, removes what is gone, and writes the manifest last: a
// build stopped in between leaves an old manifest whose sources a next
// build re-checks.

// tally records in the result what became of each source.
func (b *builder) tally() {
	res := &b.res
	for _, key := range b.order {
		e := b.next.Sessions[key]
		j := b.queued[key]
		switch {
		case e.Error != "":
			res.Failed = append(res.Failed, Failure{Path: e.Path, Err: errors.New(e.Error)})
		case j != nil && j.rendered:
			res.Rendered = append(res.Rendered, e.Path)
		default:
			res.Unchanged++
		}
	}
	slices.Sort(res.Rendered)
	slices.SortFunc(res.Failed, func(x, y Failure) int { return strings.Compare(x.Path, y.Path) })
	for _, key := range b.order {
		if e := b.next.Sessions[key]; e.Error == "" && len(e.Warnings) > 0 {
			res.Warned = append(res.Warned, Warned{Path: e.Path, Warnings: e.Warnings})
		}
	}
	slices.SortFunc(res.Warned, func(x, y Warned) int { return strings.Compare(x.Path, y.Path) })
}

// finishSearch writes the next generation of an HTML archive's search
// index (see writeSearch) and names it in the next manifest. When the
// last generation cannot be read after all, every session's words are
// read again, into an index made anew.
func (b *builder) finishSearch(ctx context.Context) error {
	if b.sb == nil {
		return nil
	}
	gen, err := b.writeSearch()
	if errors.Is(err, errOldSearch) {
		var sb *searchBuild
		if sb, err = newSearchBuild(b.dir); err != nil {
			return err
		}
		b.sb.abort()
		b.sb, b.prev = sb, nil
		var again []*job
		for _, key := range b.order {
			if e := b.next.Sessions[key]; e.Error == "" {
				j := b.jobFor(key)
				j.words = true
				again = append(again, j)
				b.queued[key] = j
			}
		}
		if b.opt.tracker != nil {
			b.opt.tracker.relinking = false // every file is read again
		}
		if err = b.run(ctx, again); err == nil {
			gen, err = b.writeSearch()
		}
	}
	if err != nil {
		return err
	}
	b.next.Search = gen
	return nil
}

// writeIndex writes the index page, unless it holds that already. It
// masks the sources' errors as the index shows them, for the manifest
// too.
func (b *builder) writeIndex() error {
	next, f, opt := b.next, b.f, b.opt
	iopt := site.IndexOptions{Title: opt.Title, Theme: opt.Theme, Home: opt.Home, Generator: opt.Generator, Notice: opt.Notice, StaticSearch: next.Search}
	var items []site.IndexItem
	for _, key := range b.order {
		e := next.Sessions[key]
		e.Error = opt.hide(e.Error) // it is in the index and the manifest
		_, agent := b.lk.parent[key]
		if e.Error == "" {
			for _, r := range e.Usage {
				r.Session, r.Project, r.SubAgent = key, e.Cwd, agent
				iopt.Usage = append(iopt.Usage, r)
			}
		}
		if agent && e.Error == "" {
			iopt.SubAgents++
			continue // listed under its session
		}
		it := site.IndexItem{Path: opt.hide(e.Path), Cwd: e.Cwd, SessionID: e.SessionID, Summary: e.Summary}
		if e.Error != "" {
			it.Err = errors.New(e.Error)
		} else {
			it.URL = f.indexURL(e.Stem)
			it.Related = b.lk.siteRelated(next, key, f.indexURL)
			if f.ext == ".md" {
				// The index lists sub-agents of sub-agents too.
				b.lk.allAgents(next, key, f.indexURL, it.Related)
			}
			it.Related = append(it.Related, toSiteRelated(opt.shared(nil, e.Path))...)
		}
		items = append(items, it)
	}
	b.res.SubAgents = iopt.SubAgents
	var index bytes.Buffer
	if err := f.indexW(&index, items, iopt, opt); err != nil {
		return err
	}
	return writeIfChanged(b.res.Index, index.Bytes())
}

// removeGone removes the pages of the last build that this one did not
// make (their sources are gone or no longer load), its index when the
// format changed, and in a Markdown archive the images no page links any
// more.
func (b *builder) removeGone() error {
	keep := map[string]bool{}
	for _, e := range b.next.Sessions {
		if e.Error == "" {
			keep[e.Stem+b.f.ext] = true
		}
	}
	oldExt := formats[b.old.formatName()].ext
	var stale []string
	for _, e := range b.old.sortedEntries() {
		stale = append(stale, e.Stem+oldExt)
	}
	if oldIndex := b.old.indexName(); b.old.Format != "" && oldIndex != b.f.index {
		stale = append(stale, oldIndex)
	}
	for _, name := range stale {
		if keep[name] {
			continue
		}
		err := os.Remove(filepath.Join(b.dir, name))
		switch {
		case err == nil:
			b.res.Removed = append(b.res.Removed, name)
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
	}
	if b.f.ext == ".md" || b.old.formatName() == "md" {
		var keep []string
		for _, e := range b.next.Sessions {
			keep = append(keep, e.Assets...)
		}
		if err := (&imagefiles.Dir{Path: filepath.Join(b.dir, assetsDir)}).Prune(keep); err != nil {
			return err
		}
	}
	return nil
}

// writeManifest writes the next manifest, and then, the new index
// pointing at the new search index, removes what is left of the old one.
func (b *builder) writeManifest() error {
	if err := b.next.write(b.dir); err != nil {
		return err
	}
	removeOldSearch(b.dir, b.old, b.next)
	return nil
}
