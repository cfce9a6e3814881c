package archive

import (
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

// searchGen returns the generation number of a search directory
// ("search/3"), 0 when it is not one.
func searchGen(dir string) int {
	n, ok := strings.CutPrefix(dir, searchDir+"/")
	if !ok {
		return 0
	}
	g, err := strconv.Atoi(n)
	if err != nil || g <= 0 || strconv.Itoa(g) != n {
		return 0
	}
	return g
}

// numberSessions numbers the sources, in the order of their pages'
// names: the numbers the search index's keys use. One that fails to load
// keeps its number, with nothing under it, so that the numbers do not
// change when a build learns it fails.
func numberSessions(next *manifest, order []string) map[string]int {
	keys := slices.Clone(order)
	slices.SortFunc(keys, func(a, b string) int { return strings.Compare(next.Sessions[a].Stem, next.Sessions[b].Stem) })
	num := make(map[string]int, len(keys))
	for i, k := range keys {
		num[k] = i
	}
	return num
}

// readSearchMeta reads the meta.js of the last build's search index; nil
// when there is none, or one of another format.
func readSearchMeta(dir string, old *manifest) *searchMeta {
	if old.Search == "" {
		return nil
	}
	b, err := fileguard.ReadInput(context.Background(), filepath.Join(dir, old.Search, "meta.js"))
	if err != nil {
		return nil
	}
	var m searchMeta
	if jsArgs(b, "meta", &m) != nil || m.Version != searchVersion || m.Shards <= 0 || m.Shards%nBuckets != 0 {
		return nil
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
		if s.Page == page && s.Doc == doc {
			return true
		}
	}
	return false
}

// writeSearch writes the next generation of the search index: the words
// of the sessions read in this build (sb holds them), those of the others
// carried over from the last generation, and meta.js. It returns the new
// generation's directory, relative to dir.
func writeSearch(dir string, old, next *manifest, order []string, queued map[string]*job, num map[string]int,
	prev *searchMeta, sb *searchBuild, ext string, lk *links, home string) (string, error) {
	meta := searchMeta{Version: searchVersion, Sessions: make([]searchSession, len(num))}
	for _, key := range order {
		n, ok := num[key]
		e := next.Sessions[key]
		if !ok || e.Error != "" {
			continue // a slot left empty: the session failed to load
		}
		meta.Sessions[n] = searchSession{
			Page: e.Stem + ext, Title: lk.linkTitle(next, key), Doc: e.Doc,
			Project: session.ShortenHome(e.Cwd, session.HomeOf(e.Cwd, home)),
		}
		if !e.Summary.Start.IsZero() {
			meta.Sessions[n].Start = e.Summary.Start.Unix()
		}
	}
	read := false
	for _, j := range queued {
		read = read || j.words
	}
	if prev != nil && !read && slices.Equal(prev.Sessions, meta.Sessions) {
		return old.Search, nil // nothing changed
	}
	if prev != nil {
		oldNum := map[string]int{}
		for i, s := range prev.Sessions {
			oldNum[s.Page+"\x00"+s.Doc] = i
		}
		renum := map[int]int{}
		for _, key := range order {
			e := next.Sessions[key]
			n, ok := num[key]
			if !ok || queued[key] != nil && queued[key].words || e.Error != "" {
				continue
			}
			if o, ok := oldNum[e.Stem+ext+"\x00"+e.Doc]; ok {
				renum[o] = n
			}
		}
		if err := sb.addOld(filepath.Join(dir, old.Search), prev.Shards, renum); err != nil {
			return "", fmt.Errorf("%w: %v", errOldSearch, err)
		}
	}
	gen := fmt.Sprintf("%s/%d", searchDir, searchGen(old.Search)+1)
	genDir := filepath.Join(dir, gen)
	os.RemoveAll(genDir) // left by an interrupted build
	shards, err := sb.finish(genDir)
	if err != nil {
		return "", err
	}
	meta.Shards = shards
	script, err := jsCall("meta", meta)
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(filepath.Join(genDir, "meta.js"), script); err != nil {
		return "", err
	}
	return gen, nil
}

// removeOldSearch removes the last build's search generation, and the doc
// files no session of this build names, once the new index points at the
// new generation.
func removeOldSearch(dir string, old, next *manifest) {
	if old.Search != "" && old.Search != next.Search {
		os.RemoveAll(filepath.Join(dir, old.Search))
	}
	keep := map[string]bool{}
	for _, e := range next.Sessions {
		keep[e.Doc] = true
	}
	docs := filepath.Join(dir, searchDir, docsDir)
	list, _ := os.ReadDir(docs)
	for _, d := range list {
		if !keep[d.Name()] && strings.HasSuffix(d.Name(), ".js") {
			os.Remove(filepath.Join(docs, d.Name()))
		}
	}
	if next.Search == "" {
		os.RemoveAll(filepath.Join(dir, searchDir))
	}
}
