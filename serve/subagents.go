package serve

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/session"
)

// Sub-agents: the catalog finds omp's sub-agent transcripts beside their
// session and links them (catalog.Info.Agents). A served page carries
// them as the single-file page does (page.Options.SubAgents): a task call
// opens its sub-agent's transcript in place. They are loaded through the
// catalog, so they are prepared (masked under --redact) as every session
// the server shows is.

// maxAgentDepth bounds how deep sub-agents of sub-agents are followed, as
// session.LoadSubAgents bounds it.
const maxAgentDepth = 16

// subAgentTree is what the catalog knows of the sub-agents below a
// session: each session's sub-agents by id, and the state of each
// transcript (its id and content hash, depth first), which goes into the
// page's key.
type subAgentTree struct {
	agents map[string][]string
	states []string
}

// subAgentsOf finds the sub-agents below the session id; byID is the
// catalog's list by id.
func subAgentsOf(id string, byID map[string]catalog.Info) subAgentTree {
	var t subAgentTree
	type job struct {
		id    string
		depth int
	}
	stack := []job{{id, 0}}
	seen := map[string]bool{id: true}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if j.depth >= maxAgentDepth {
			continue
		}
		agents := byID[j.id].Agents
		if len(agents) > 0 && t.agents == nil {
			t.agents = map[string][]string{}
		}
		for i := len(agents) - 1; i >= 0; i-- {
			a := agents[i]
			if seen[a] {
				continue
			}
			seen[a] = true
			t.agents[j.id] = append(t.agents[j.id], a)
			t.states = append(t.states, a+"="+byID[a].Hash)
			stack = append(stack, job{a, j.depth + 1})
		}
	}
	for _, list := range t.agents {
		slices.Reverse(list) // pushed last first
	}
	return t
}

// load loads the transcripts of the sub-agents below the session id from
// the catalog, in the order the catalog lists them. One that cannot be
// loaded is left out, with a warning in the log.
func (t subAgentTree) load(s *server, id string) []*session.SubAgent {
	type job struct {
		id, prefix string
		into       *[]*session.SubAgent
	}
	var top []*session.SubAgent
	stack := []job{{id, "", &top}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, aid := range t.agents[j.id] {
			sess, _, err := s.cat.Load(aid)
			if err != nil {
				s.logf("warning: a sub-agent transcript is left out of its session's page: %v", err)
				continue
			}
			// The file's name as the session has it: prepared (masked)
			// as the task call that names the agent is.
			name := strings.TrimSuffix(filepath.Base(sess.File), ".jsonl")
			a := &session.SubAgent{ID: name, Key: name, Session: sess}
			if j.prefix != "" {
				a.Key = j.prefix + "/" + name
			}
			*j.into = append(*j.into, a)
			stack = append(stack, job{aid, a.Key, &a.Agents})
		}
	}
	return top
}
