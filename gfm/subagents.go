package gfm

import (
	"strings"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/session"
)

// Sub-agents (omp): a task call starts agents whose transcripts omp keeps
// beside the session (session.LoadSubAgents). Each transcript follows the
// entry whose task call started it, as a section of its own: a heading one
// level below the turns', then the transcript's turns one level below
// that, written as the session's own are. A sub-agent's sub-agents follow
// its task calls in the same way, each a level deeper (down to level 6,
// where Markdown's headings end). The document's <details> blocks never
// nest, so a transcript cannot go inside its task call's block.

// maxHeading is the deepest Markdown heading.
const maxHeading = 6

// pendingAgent is a sub-agent transcript to write after the entry being
// written, and what the task call says of it.
type pendingAgent struct {
	agent *session.SubAgent
	task  session.TaskAgent
}

// queueTranscripts notes the transcripts of the agents a task call
// started, to be written once the entry that made the call is.
func (m *mdWriter) queueTranscripts(call *session.Block, result *session.Entry) {
	for _, a := range session.TaskRun(call.Arguments, result) {
		if sub := session.FindSubAgent(m.agents, a.ID); sub != nil {
			m.pending = append(m.pending, pendingAgent{sub, a})
		}
	}
}

// transcripts writes the transcripts queued while an entry was written.
// What follows them in the session goes on under the heading of the turn
// they interrupted, or under a heading of its own.
func (m *mdWriter) transcripts() {
	if len(m.pending) == 0 {
		return
	}
	turn := m.turn
	for _, p := range m.pending {
		m.transcript(p)
	}
	m.pending = m.pending[:0]
	m.turn, m.resume = "", turn
}

// transcript writes one sub-agent's transcript: the path to its leaf.
// Sub-agents nest at most session.LoadSubAgents' depth, so the recursion
// through the transcripts of its own task calls is bounded.
func (m *mdWriter) transcript(p pendingAgent) {
	s := p.agent.Session
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	title := "Sub-agent " + codeSpan(p.agent.ID)
	if d := humanize.OneLine(p.task.Description, 120); d != "" {
		title += ": " + mdInline(d)
	}
	m.block(strings.Repeat("#", min(m.level+1, maxHeading)) + " " + title)
	path := s.Path(s.Leaf)
	facts := []string{humanize.Count(len(path), "entry", "entries")}
	for _, e := range s.Entries {
		if e.Type == "session_init" && e.Omp != nil && e.Omp.Init != nil && e.Omp.Init.Agent != "" {
			facts = append([]string{"Agent " + codeSpan(e.Omp.Init.Agent)}, facts...)
			break
		}
	}
	if p.task.Status != "" {
		facts = append(facts, mdInline(p.task.Status))
	}
	if u := s.Stats().Usage; u.Cost > 0 {
		facts = append(facts, humanize.Cost(u.Cost))
	}
	m.block("_" + strings.Join(facts, " · ") + "._")
	sub := &mdWriter{s: s, home: session.HomeOf(cwd, m.home), agents: p.agent.Agents, level: min(m.level+2, maxHeading)}
	if len(path) == 0 {
		sub.note("The transcript has no entries")
	}
	for _, e := range path {
		sub.entry(e)
		sub.transcripts()
	}
	m.block(sub.buf.String())
}
