package archive

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
)

// A build goes in phases, each a method of builder, in the order Build
// calls them: it finds the sources and what they are to each other, plans
// what to read (what changed, the families prepared together, the pages
// whose links changed, the words the search index lacks), reads the
// sources and writes their pages (render.go), makes again the pages that
// link new titles, then writes the search index, the index page, removes
// what is gone and writes the manifest (finish.go).

// builder is one build of an archive: what its phases share, so that each
// phase, and the reading of each source, is handed only what varies.
type builder struct {
	dir string
	opt Options
	f   format
	// old is the last build's manifest; next the one this build writes,
	// filled in as the build learns of its sources.
	old, next *manifest
	// sameOptions says the last build made its pages as this one does,
	// so an unchanged source keeps its page.
	sameOptions bool

	// order lists the sources' keys in the order given; abs maps each to
	// its source's absolute path.
	order []string
	abs   map[string]string
	// lk links the sessions to each other.
	lk *links
	// jobs are the sources to read before the pages are linked again;
	// queued holds each source's last job, by key.
	jobs   []*job
	queued map[string]*job
	// families are the families of the sources, by key, under Mask
	// (see Options.Mask); nil otherwise.
	families map[string][]string

	// What each page links, by key: the session it came from, the others
	// it has to do with, the index and its sub-agents' documents.
	parents map[string]page.Link
	related map[string][]page.Related
	docs    map[string]pageDocs

	// The search index, in an HTML archive (sb nil otherwise): sb collects
	// the words of the sessions read, num is each source's slot, prev the
	// last build's index (nil when there is none to build on).
	sb   *searchBuild
	num  map[string]int
	prev *searchMeta

	// res is what the build did so far.
	res Result
}

// lock makes the archive's directory and takes its lock, which the
// returned func releases, and clears what killed builds left there.
func (b *builder) lock(ctx context.Context, files []string) (unlock func(), err error) {
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return nil, err
	}
	// Before the lock is taken: it is removed when the build ends.
	if err := refuseHousekeeping(b.dir, files); err != nil {
		return nil, err
	}
	if unlock, err = lockDir(ctx, b.dir); err != nil {
		return nil, err
	}
	removeStaleTemps(b.dir)
	return unlock, nil
}

// start reads the last build's manifest and begins the next one: the
// pages of the last build are kept only if they were made as this build
// makes them.
func (b *builder) start() error {
	old, err := readManifest(b.dir)
	if err != nil {
		return err
	}
	fingerprint, err := fingerprintOf(b.opt, b.f.name)
	if err != nil {
		return err
	}
	b.opt.fingerprint = fingerprint
	if b.opt.Progress != nil {
		b.opt.tracker = &tracker{tell: b.opt.Progress, p: Progress{Started: time.Now()}}
	}
	b.old = old
	b.next = &manifest{Version: manifestVersion, Fingerprint: fingerprint, Format: b.f.name, Index: b.f.index, Sessions: map[string]*entry{}}
	b.sameOptions = old.Fingerprint == fingerprint && !b.opt.Force
	b.abs, b.queued = map[string]string{}, map[string]*job{}
	b.parents, b.related, b.docs = map[string]page.Link{}, map[string][]page.Related{}, map[string]pageDocs{}
	return nil
}

// findSources gives each source its entry in the next manifest and its
// page's name, queues those that changed since the last build, and finds
// how the sessions link. It refuses, before anything is written, a build
// that would write over one of its sources.
func (b *builder) findSources(files []string) error {
	// Names first: every name the old manifest gave stays reserved, so a
	// new source never takes the name of a page about to be removed.
	names := newNamer()
	for _, e := range b.old.sortedEntries() {
		names.reserve(e.Stem)
	}
	stemOf := agentStems(files, b.old, names, b.opt.hide)
	for _, p := range files {
		a, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		key := sourceKey(a)
		if b.next.Sessions[key] != nil {
			continue
		}
		b.abs[key] = a
		oe := b.old.Sessions[key]
		e := &entry{Path: p}
		if oe != nil && b.opt.hide(oe.Stem) == oe.Stem {
			e.Stem = oe.Stem
		} else {
			e.Stem = stemOf(a)
		}
		b.next.Sessions[key] = e
		b.order = append(b.order, key)

		fi, err := os.Stat(p)
		if err != nil {
			e.Error = err.Error()
			continue
		}
		e.Size, e.ModTime = fi.Size(), fi.ModTime().UnixNano()
		// Its links are known before its page is made: the header says
		// what it was forked from. (Read at every build: the manifest
		// does not keep the path.)
		from := session.ForkedFrom(p)
		if b.sameOptions && oe != nil && oe.Size == e.Size && oe.ModTime == e.ModTime && pageExists(b.dir, oe, b.f) {
			*e = *oe
			e.Path, e.ParentSession = p, from
			continue
		}
		e.ParentSession = from
		j := b.jobFor(key)
		j.page = true
		b.queue(j)
	}
	if err := refuseInputs(b.dir, files, b.next, b.old, b.f); err != nil {
		return err
	}
	if err := checkSearchDirs(b.dir); err != nil {
		return err
	}
	b.lk = linkSessions(b.next, b.order, b.abs, b.opt.hide)
	return nil
}

// jobFor is a job for the source of key, which asks for nothing yet.
func (b *builder) jobFor(key string) *job {
	e := b.next.Sessions[key]
	return &job{key: key, path: e.Path, old: b.old.Sessions[key], e: e}
}

// queue adds j to the sources read before the pages are linked again.
func (b *builder) queue(j *job) {
	b.jobs = append(b.jobs, j)
	b.queued[j.key] = j
}

// planFamilies queues, under Mask, every member of the family of a
// source queued: a family is prepared together, and when one of its
// sessions changed, what the others must mask may have too.
func (b *builder) planFamilies() {
	if b.opt.Mask == nil {
		return
	}
	b.families = b.lk.families(b.order, b.abs)
	for _, j := range slices.Clone(b.jobs) {
		for _, key := range b.families[j.key] {
			if e := b.next.Sessions[key]; b.queued[key] == nil && e.Error == "" {
				k := b.jobFor(key)
				k.page = true
				b.queue(k)
			}
		}
	}
}

// planLinks queues the pages whose links changed though their sources
// did not: a session whose fork or sub-agent appeared links to it.
func (b *builder) planLinks() {
	for _, key := range b.linkPages() {
		if b.queued[key] == nil {
			j := b.jobFor(key)
			j.page, j.relink = true, true
			b.queue(j)
		}
	}
}

// linkPages works out what each page links (b.parents, b.related,
// b.docs) from the links between the sessions and their titles as
// b.next has them so far, and returns the sessions whose pages link
// otherwise than their entries' Related say: those pages are to be made
// again, and Related now says how.
func (b *builder) linkPages() (changed []string) {
	for _, key := range b.order {
		e := b.next.Sessions[key]
		if e.Error != "" {
			continue
		}
		b.related[key] = b.opt.shared(b.lk.pageRelated(b.next, key, b.f.pageURL), e.Path)
		b.parents[key] = b.lk.parentLink(b.next, key, b.f.pageURL)
		b.docs[key] = pageDocs{index: b.f.toIndex(), agents: b.lk.agentLinks(b.next, key, b.f.pageURL)}
		if rk := relatedKey(b.parents[key], b.related[key]); rk != e.Related {
			e.Related = rk
			changed = append(changed, key)
		}
	}
	return changed
}

// planSearch starts the search index of an HTML archive. Sessions keep
// their words from the last build's index unless they are read again, in
// which case their words are added anew; one the index lacks is read for
// its words.
func (b *builder) planSearch() error {
	if b.f.name != "html" {
		return nil
	}
	b.prev = readSearchMeta(b.dir, b.old)
	sb, err := newSearchBuild(b.dir)
	if err != nil {
		return err
	}
	b.sb = sb
	b.num = assignSlots(b.prev, b.next, b.order, b.f.ext)
	for _, j := range b.jobs {
		j.words = true // read again: its words may have changed
	}
	for _, key := range b.order {
		e := b.next.Sessions[key]
		if e.Error != "" || b.queued[key] != nil {
			continue
		}
		if b.prev == nil || !b.prev.has(e.Stem+b.f.ext, e.Doc) {
			j := b.jobFor(key)
			j.words = true
			b.queue(j)
		}
	}
	return nil
}

// relink makes again, once every source is read, the pages that link a
// session whose title was not known before it was read. Their words are
// in the search index already, and its next generation is to say so.
func (b *builder) relink(ctx context.Context) error {
	var relink []*job
	for _, key := range b.linkPages() {
		e := b.next.Sessions[key]
		j := &job{key: key, path: e.Path, old: e, e: e, page: true, relink: true}
		if q := b.queued[key]; q != nil {
			j.indexed = q.indexed // j may take q's place in b.queued
		}
		relink = append(relink, j)
	}
	if b.opt.tracker != nil {
		b.opt.tracker.relinking = true
	}
	if err := b.run(ctx, relink); err != nil {
		return err
	}
	for _, j := range relink {
		if q := b.queued[j.key]; q == nil || !q.rendered {
			b.queued[j.key] = j
		}
	}
	return nil
}

// abortSearch removes what the search index's build holds on disk, if
// it is not finished.
func (b *builder) abortSearch() {
	if b.sb != nil {
		b.sb.abort()
	}
}
