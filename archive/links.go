package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/site"
)

// Sessions link to the sessions they have to do with: omp keeps a
// session's sub-agent transcripts beside it (session.SubAgentParent), and a
// fork's header names the session it came from (parentSession, v1's
// branchedFrom). The archive lists a sub-agent under its session, not as
// a session of its own, and every page of the archive links the others
// both ways.

// links are the relations of the archive's sessions, by manifest key.
type links struct {
	parent map[string]string   // sub-agent → its session
	agents map[string][]string // session → its sub-agents
	forkOf map[string]string   // fork → the session it came from
	forks  map[string][]string // session → its forks
	// hide rewrites a source's path as the archive shows it (see
	// Options.Mask): a sub-agent is named after its file.
	hide func(string) string
}

// linkSessions finds the links between the sessions of next, in the order
// given. abs maps each key to its source's absolute path; hide rewrites a
// path as the archive shows it.
func linkSessions(next *manifest, order []string, abs map[string]string, hide func(string) string) *links {
	l := &links{parent: map[string]string{}, agents: map[string][]string{}, forkOf: map[string]string{}, forks: map[string][]string{}, hide: hide}
	byPath := map[string]string{}
	byBase := map[string]string{}
	for _, key := range order {
		p := abs[key]
		byPath[p] = key
		base := filepath.Base(p)
		if _, dup := byBase[base]; dup {
			byBase[base] = ""
		} else {
			byBase[base] = key
		}
	}
	for _, key := range order {
		if next.Sessions[key].Error != "" {
			continue
		}
		has := func(path string) bool { _, ok := byPath[path]; return ok }
		if pp, ok := session.SubAgentParent(abs[key], has); ok && byPath[pp] != key && next.Sessions[byPath[pp]].Error == "" {
			p := byPath[pp]
			l.parent[key] = p
			l.agents[p] = append(l.agents[p], key)
		}
		from := next.Sessions[key].ParentSession
		if from == "" {
			continue
		}
		p, ok := byPath[filepath.Clean(from)]
		if !ok {
			// Forked on another machine, or moved: the file name alone,
			// when only one source has it.
			p, ok = byBase[filepath.Base(filepath.FromSlash(from))]
		}
		if ok && p != "" && p != key && next.Sessions[p].Error == "" {
			l.forkOf[key] = p
			// A sub-agent's header names the session that started it: it
			// is listed as its sub-agent, not as a fork.
			if l.parent[key] != p {
				l.forks[p] = append(l.forks[p], key)
			}
		}
	}
	return l
}

// labelAgents names a session's sub-agents among its relations.
const labelAgents = "Sub-agents"

// relation is a kind of link and the sessions it links, by key.
type relation struct {
	label string
	keys  []string
}

// of lists the relations of key. Without withParent it leaves out the
// session key came from when its header names it (headerNamed): a page
// shows that one itself (see parentLink).
func (l *links) of(key string, withParent, headerNamed bool) []relation {
	var out []relation
	add := func(label string, keys ...string) {
		if len(keys) > 0 && keys[0] != "" {
			out = append(out, relation{label, keys})
		}
	}
	if withParent || !headerNamed {
		add("Sub-agent of", l.parent[key])
	}
	add(labelAgents, l.agents[key]...)
	if withParent && l.parent[key] == "" {
		add("Forked from", l.forkOf[key])
	}
	add("Forks", l.forks[key]...)
	return out
}

// agentLinks are the documents of key's sub-agents, by agent id (the
// transcript's file name, masked as the archive names it), linked from
// key's.
func (l *links) agentLinks(next *manifest, key string, to func(stem string) string) map[string]string {
	if len(l.agents[key]) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, k := range l.agents[key] {
		out[strings.TrimSuffix(filepath.Base(l.hide(next.Sessions[k].Path)), ".jsonl")] = to(next.Sessions[k].Stem)
	}
	return out
}

// parentLink is the page of the session key's header names as the one it
// came from, and its title, when the archive has it.
func (l *links) parentLink(next *manifest, key string, to func(stem string) string) page.Link {
	if next.Sessions[key].ParentSession == "" {
		return page.Link{}
	}
	p := l.forkOf[key]
	if p == "" {
		p = l.parent[key]
	}
	if p == "" {
		return page.Link{}
	}
	return page.Link{Title: l.linkTitle(next, p), URL: to(next.Sessions[p].Stem)}
}

// linkTitle is what a link to a session says: a sub-agent's id (its file
// name, as the archive shows it), else the session's title.
func (l *links) linkTitle(next *manifest, key string) string {
	e := next.Sessions[key]
	if _, ok := l.parent[key]; ok || e.Summary.Title == "" {
		return strings.TrimSuffix(filepath.Base(l.hide(e.Path)), ".jsonl")
	}
	return e.Summary.Title
}

// searchTitle is what the archive's search heads the hits of key with:
// its linkTitle, or, for a sub-agent, its trail from the session that
// started it (see site.IndexItem.Trail): "Refactor the parser › Lexer".
func (l *links) searchTitle(next *manifest, key string) string {
	names := []string{l.linkTitle(next, key)}
	k := key
	for range len(l.parent) { // a parent's path is shorter: no cycle
		p, ok := l.parent[k]
		if !ok {
			break
		}
		names = append(names, l.linkTitle(next, p))
		k = p
	}
	slices.Reverse(names)
	return strings.Join(names, site.TrailSeparator)
}

// pageRelated is what the page of key links to besides parentLink; pages
// are siblings.
func (l *links) pageRelated(next *manifest, key string, to func(stem string) string) []page.Related {
	return l.related(next, key, to, false)
}

func (l *links) related(next *manifest, key string, to func(stem string) string, withParent bool) []page.Related {
	var out []page.Related
	for _, r := range l.of(key, withParent, next.Sessions[key].ParentSession != "") {
		rel := page.Related{Label: r.label}
		for _, k := range r.keys {
			rel.Links = append(rel.Links, page.Link{Title: l.linkTitle(next, k), URL: to(next.Sessions[k].Stem)})
		}
		out = append(out, rel)
	}
	return out
}

// siteRelated is what the index shows under key's title.
func (l *links) siteRelated(next *manifest, key string, to func(stem string) string) []site.Related {
	return toSiteRelated(l.related(next, key, to, true))
}

// toSiteRelated is a page's related sessions as the index lists them.
func toSiteRelated(related []page.Related) []site.Related {
	var out []site.Related
	for _, r := range related {
		rel := site.Related{Label: r.Label}
		for _, k := range r.Links {
			rel.Links = append(rel.Links, site.Link{Title: k.Title, URL: k.URL})
		}
		out = append(out, rel)
	}
	return out
}

// allAgents replaces the sub-agents in related (siteRelated's list of
// key's) with every sub-agent below key, depth first, each named by the
// ids from key's own sub-agent down: "Lexer", "Lexer/Tokens".
func (l *links) allAgents(next *manifest, key string, to func(stem string) string, related []site.Related) {
	for i := range related {
		if related[i].Label != labelAgents {
			continue
		}
		var all []site.Link
		type job struct{ key, prefix string }
		var stack []job
		push := func(parent, prefix string) {
			agents := l.agents[parent]
			for k := len(agents) - 1; k >= 0; k-- {
				stack = append(stack, job{agents[k], prefix})
			}
		}
		push(key, "")
		seen := map[string]bool{key: true}
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[j.key] {
				continue
			}
			seen[j.key] = true
			title := j.prefix + l.linkTitle(next, j.key)
			all = append(all, site.Link{Title: title, URL: to(next.Sessions[j.key].Stem)})
			push(j.key, title+"/")
		}
		related[i].Links = all
	}
}

// relatedKey sums what a page shows of its links (the session it came
// from, parent, and the others), so a page is made again when they change.
func relatedKey(parent page.Link, rel []page.Related) string {
	if len(rel) == 0 && parent == (page.Link{}) {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q\n", parent.Title, parent.URL)
	for _, r := range rel {
		fmt.Fprintf(h, "%q\n", r.Label)
		for _, l := range r.Links {
			fmt.Fprintf(h, "%q %q\n", l.Title, l.URL)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}
