package archive

import (
	"github.com/piexport/piexport/page"
)

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
	// families are the families of the sources, by key, under Prepare
	// (see Options.Prepare); nil otherwise.
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
