package catalog

import (
	"path"
	"path/filepath"

	"github.com/piexport/piexport/session"
)

// subAgentParents finds the files that are sub-agent transcripts (see
// session.SubAgentParent) among those found. It returns each one's
// parent, by key.
func subAgentParents(found []file) map[string]string {
	keys := make(map[string]bool, len(found))
	for _, f := range found {
		keys[f.key] = true
	}
	has := func(key string) bool { return keys[key] }
	out := map[string]string{}
	for _, f := range found {
		if p, ok := session.SubAgentParent(f.key, has); ok && p != f.key {
			out[f.key] = p
		}
	}
	return out
}

// link fills in the links between the sessions of list: each session's
// sub-agents, the session each fork came from where the catalog has it,
// and each session's forks. A fork names its parent by the path it had
// when it was forked; it is found by that path, or else by its file name
// when only one file has it.
func (c *Catalog) link(list []Info) {
	byKey := make(map[string]int, len(list))
	byBase := make(map[string]int, len(list))
	byID := make(map[string]int, len(list))
	c.mu.RLock()
	for k, i := range list {
		byID[i.ID] = k
		if r := c.records[i.ID]; r != nil {
			byKey[r.f.key] = k
		}
		base := path.Base(filepath.ToSlash(i.Path))
		if _, dup := byBase[base]; dup {
			byBase[base] = -1
		} else {
			byBase[base] = k
		}
	}
	c.mu.RUnlock()
	for k := range list {
		i := &list[k]
		if p, ok := byID[i.Parent]; ok && i.Parent != "" {
			list[p].Agents = append(list[p].Agents, i.ID)
		} else {
			i.Parent = ""
		}
		if i.ParentSession == "" {
			continue
		}
		p, ok := byKey[filepath.Clean(i.ParentSession)]
		if !ok {
			p, ok = byBase[path.Base(filepath.ToSlash(i.ParentSession))]
		}
		if ok && p >= 0 && p != k {
			i.ForkOf = list[p].ID
			// A sub-agent's header names the session that started it:
			// it is listed as its sub-agent, not as a fork.
			if list[p].ID != i.Parent {
				list[p].Forks = append(list[p].Forks, i.ID)
			}
		}
	}
}
