package archive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/session"
)

// errOldSearch says the last build's search index cannot be read.
var errOldSearch = errors.New("the search index of the last build cannot be read")

// searchGen returns the generation number of a search index's meta file
// ("search/meta-3.js"), 0 when it is not one.
func searchGen(name string) int {
	n, ok := strings.CutPrefix(name, searchDir+"/meta-")
	if n, ok = strings.CutSuffix(n, ".js"); !ok {
		return 0
	}
	g, err := strconv.Atoi(n)
	if err != nil || g <= 0 || strconv.Itoa(g) != n {
		return 0
	}
	return g
}

// metaName is the meta file of generation gen, relative to the archive.
func metaName(gen int) string { return fmt.Sprintf("%s/meta-%d.js", searchDir, gen) }

// assignSlots gives every source its slot in the search index: the slot
// its page had in the last build's index, else a free one (a removed
// session's), else a new one at the end. One that fails to load gets a
// slot too, with nothing under it, so that slots do not move when a build
// learns it fails.
func assignSlots(prev *searchMeta, next *manifest, order []string, ext string) map[string]int {
	taken := map[int]bool{}
	num := make(map[string]int, len(order))
	byPage := map[string]int{}
	if prev != nil {
		for i, s := range prev.Sessions {
			if s != nil {
				byPage[s.Page] = i
			}
		}
	}
	var fresh []string
	for _, key := range order {
		if i, ok := byPage[next.Sessions[key].Stem+ext]; ok && !taken[i] {
			num[key], taken[i] = i, true
		} else {
			fresh = append(fresh, key)
		}
	}
	slices.SortFunc(fresh, func(a, b string) int { return strings.Compare(next.Sessions[a].Stem, next.Sessions[b].Stem) })
	slot := 0
	for _, key := range fresh {
		for taken[slot] {
			slot++
		}
		num[key], taken[slot] = slot, true
	}
	return num
}

// readSearchMeta reads the meta file of the last build's search index;
// nil when there is none, one of another format, or one whose segments
// are not as it says (a shard missing, or of another size).
func readSearchMeta(dir string, old *manifest) *searchMeta {
	if old.Search == "" {
		return nil
	}
	b, err := fileguard.ReadInput(context.Background(), filepath.Join(dir, old.Search))
	if err != nil {
		return nil
	}
	var m searchMeta
	if jsArgs(b, "meta", &m) != nil || m.Version != searchVersion {
		return nil
	}
	for _, g := range m.Segments {
		if g.ID <= 0 || g.Shards <= 0 || g.Shards&(g.Shards-1) != 0 {
			return nil
		}
		var size int64
		for k := range g.Shards {
			fi, err := os.Lstat(filepath.Join(dir, segmentDir(g.ID), fmt.Sprintf("t%d.js", k)))
			if err != nil || !fi.Mode().IsRegular() {
				return nil
			}
			size += fi.Size()
		}
		if size != g.Bytes {
			return nil
		}
	}
	return &m
}

// has says whether the index holds the session whose page is named page,
// with the doc file doc.
func (m *searchMeta) has(page, doc string) bool {
	if m == nil || doc == "" {
		return false
	}
	for _, s := range m.Sessions {
		if s != nil && s.Page == page && s.Doc == doc {
			return true
		}
	}
	return false
}

// writeSearch writes the next generation of the search index: the words
// of the sessions read in this build (b.sb holds them) as a new segment,
// the sessions of the last generation (b.prev) that did not change
// pointing where they did, segments merged where there are too many or
// one is mostly dead, and the meta file. It returns the new meta file,
// relative to the archive.
func (b *builder) writeSearch() (string, error) {
	size := 0
	for _, n := range b.num {
		size = max(size, n+1)
	}
	meta := searchMeta{Version: searchVersion, Sessions: make([]*searchSession, size)}
	newID := 1
	if b.prev != nil {
		for _, g := range b.prev.Segments {
			newID = max(newID, g.ID+1)
		}
	}
	for _, key := range b.order {
		n, ok := b.num[key]
		e := b.next.Sessions[key]
		if !ok || e.Error != "" {
			continue // a slot left empty: the session failed to load
		}
		s := &searchSession{
			Page: e.Stem + b.f.ext, Title: b.lk.searchTitle(b.next, key), Doc: e.Doc,
			Project: session.ShortenHome(e.Cwd, session.HomeOf(e.Cwd, b.opt.Home)),
		}
		if !e.Summary.Start.IsZero() {
			s.Start = e.Summary.Start.Unix()
		}
		switch {
		case b.queued[key] != nil && b.queued[key].indexed:
			s.Seg, s.Keys = newID, b.sb.keys[n]
		case b.prev != nil && n < len(b.prev.Sessions) && b.prev.Sessions[n] != nil && b.prev.Sessions[n].Doc == e.Doc:
			s.Seg, s.Keys = b.prev.Sessions[n].Seg, b.prev.Sessions[n].Keys
		default:
			return "", fmt.Errorf("%w: %s has no words in it", errOldSearch, s.Page)
		}
		meta.Sessions[n] = s
	}
	fresh, err := b.sb.finish(newID)
	if err != nil {
		return "", err
	}
	var segs []searchSegment
	if b.prev != nil {
		segs = slices.Clone(b.prev.Segments)
	}
	if fresh.Keys > 0 {
		segs = append(segs, fresh)
	}
	live := map[int]int64{}
	for _, s := range meta.Sessions {
		if s != nil {
			live[s.Seg] += s.Keys
		}
	}
	// A segment with no live key goes; those to merge are the smallest
	// past maxSegments, and any mostly dead.
	segs = slices.DeleteFunc(segs, func(g searchSegment) bool { return live[g.ID] == 0 })
	slices.SortStableFunc(segs, func(x, y searchSegment) int { return cmp.Compare(x.Keys, y.Keys) })
	var merge, keep []searchSegment
	for i, g := range segs {
		if len(segs)-i > maxSegments/2 && len(segs) > maxSegments || live[g.ID]*2 < g.Keys {
			merge = append(merge, g)
		} else {
			keep = append(keep, g)
		}
	}
	if len(merge) > 0 {
		mb, err := newSearchBuild(b.dir)
		if err != nil {
			return "", err
		}
		mergedID := newID + 1
		for _, g := range merge {
			if err := mb.addLive(b.dir, g, &meta); err != nil {
				mb.abort()
				return "", fmt.Errorf("%w: %v", errOldSearch, err)
			}
		}
		merged, err := mb.finish(mergedID)
		if err != nil {
			return "", err
		}
		gone := map[int]bool{}
		for _, g := range merge {
			gone[g.ID] = true
		}
		for _, s := range meta.Sessions {
			if s != nil && gone[s.Seg] {
				s.Seg = mergedID
			}
		}
		if merged.Keys > 0 {
			keep = append(keep, merged)
		}
	}
	slices.SortFunc(keep, func(x, y searchSegment) int { return cmp.Compare(x.ID, y.ID) })
	meta.Segments = keep
	if b.prev != nil && fresh.Keys == 0 && len(merge) == 0 && slices.EqualFunc(b.prev.Sessions, meta.Sessions, sameSession) &&
		slices.Equal(b.prev.Segments, meta.Segments) {
		return b.old.Search, nil // nothing changed
	}
	name := metaName(searchGen(b.old.Search) + 1)
	script, err := jsCall("meta", meta)
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(filepath.Join(b.dir, name), script); err != nil {
		return "", err
	}
	return name, nil
}

func sameSession(a, b *searchSession) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// removeOldSearch removes, once the new index points at the new meta
// file, the old meta files, the segments it does not name, and the doc
// files no session of this build names.
func removeOldSearch(dir string, old, next *manifest) {
	keep := map[string]bool{}
	if next.Search != "" {
		keep[filepath.Base(next.Search)] = true
		if m := readSearchMeta(dir, next); m != nil {
			for _, g := range m.Segments {
				keep[filepath.Base(segmentDir(g.ID))] = true
			}
		}
	}
	list, _ := os.ReadDir(filepath.Join(dir, searchDir))
	for _, d := range list {
		name := d.Name()
		if keep[name] || name == docsDir {
			continue
		}
		// Only names this package makes: meta files, segments, and the
		// generations of the index's first format.
		if searchGen(searchDir+"/"+name) > 0 || isSegmentName(name) || isNumber(name) {
			os.RemoveAll(filepath.Join(dir, searchDir, name))
		}
	}
	docs := map[string]bool{}
	for _, e := range next.Sessions {
		docs[e.Doc] = true
	}
	dd := filepath.Join(dir, searchDir, docsDir)
	list, _ = os.ReadDir(dd)
	for _, d := range list {
		if !docs[d.Name()] && strings.HasSuffix(d.Name(), ".js") {
			os.Remove(filepath.Join(dd, d.Name()))
		}
	}
	if next.Search == "" {
		os.RemoveAll(filepath.Join(dir, searchDir))
	}
}

// isSegmentName says whether name is that of a segment's directory.
func isSegmentName(name string) bool {
	n, ok := strings.CutPrefix(name, "g")
	return ok && isNumber(n)
}

func isNumber(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && strconv.Itoa(n) == s
}
