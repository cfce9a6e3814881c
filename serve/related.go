package serve

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/site"
)

// relation is a kind of link between sessions and the sessions it links,
// by id.
type relation struct {
	label string
	ids   []string
}

// relations lists the sessions i has to do with: the one it is a
// sub-agent of, its sub-agents, the one it was forked from, its forks.
// withParent leaves out the session i came from when its header names it:
// a session's page shows that one itself (see parentLink).
func relations(i catalog.Info, withParent bool) []relation {
	var out []relation
	add := func(label string, ids ...string) {
		if len(ids) > 0 && ids[0] != "" {
			out = append(out, relation{label, ids})
		}
	}
	if withParent || i.ParentSession == "" {
		add("Sub-agent of", i.Parent)
	}
	add("Sub-agents", i.Agents...)
	if withParent && i.Parent == "" {
		add("Forked from", i.ForkOf)
	}
	add("Forks", i.Forks...)
	return out
}

// parentLink is the page of the session i's header names as the one it
// came from, and its title, when the catalog has it: its page links it.
func parentLink(i catalog.Info, byID map[string]catalog.Info) page.Link {
	if i.ParentSession == "" {
		return page.Link{}
	}
	id := i.ForkOf
	if id == "" {
		id = i.Parent
	}
	p, ok := byID[id]
	if id == "" || !ok {
		return page.Link{}
	}
	return page.Link{Title: linkTitle(p), URL: id}
}

// linkTitle is what a link to a session says: a sub-agent's id (omp names
// its transcript after it), else the session's title.
func linkTitle(i catalog.Info) string {
	if i.Parent != "" {
		return strings.TrimSuffix(filepath.Base(i.Path), ".jsonl")
	}
	if t := i.Summary.Title; t != "" {
		return t
	}
	return filepath.Base(i.Path)
}

// trail names the sub-agent i where it belongs (site.IndexItem.Trail):
// the title of the session that started it, then the ids of the
// sub-agents down to it; nil for a session of its own.
func trail(i catalog.Info, byID map[string]catalog.Info) []string {
	if i.Parent == "" {
		return nil
	}
	names := []string{linkTitle(i)}
	for range maxAgentDepth {
		p, ok := byID[i.Parent]
		if !ok {
			break
		}
		names = append(names, linkTitle(p))
		if i = p; i.Parent == "" {
			break
		}
	}
	slices.Reverse(names)
	return names
}

// siteRelated makes the links the index shows under a session; prefix
// leads from the index to a session's page.
func siteRelated(i catalog.Info, byID map[string]catalog.Info, prefix string) []site.Related {
	var out []site.Related
	for _, r := range relations(i, true) {
		rel := site.Related{Label: r.label}
		for _, id := range r.ids {
			if o, ok := byID[id]; ok {
				rel.Links = append(rel.Links, site.Link{Title: linkTitle(o), URL: prefix + id})
			}
		}
		out = append(out, rel)
	}
	return out
}

// pageRelated makes the links a session's page shows; pages are siblings
// under /s/.
func pageRelated(i catalog.Info, byID map[string]catalog.Info) []page.Related {
	var out []page.Related
	for _, r := range relations(i, false) {
		rel := page.Related{Label: r.label}
		for _, id := range r.ids {
			if o, ok := byID[id]; ok {
				rel.Links = append(rel.Links, page.Link{Title: linkTitle(o), URL: id})
			}
		}
		out = append(out, rel)
	}
	return out
}

// shared returns the links of Options.Shared about the session id, by
// its file's path as the catalog has it (the server shows it masked
// under --redact).
func (s *server) shared(id string) []page.Related {
	if s.opt.Shared == nil {
		return nil
	}
	i, ok := s.cat.Info(id)
	if !ok || i.Path == "" {
		return nil
	}
	return s.opt.Shared(i.Path)
}
