package gfm

import (
	"maps"
	"slices"
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
// where Markdown's headings end). The document's parts never nest, so a
// transcript cannot go inside its task call's part. Transcripts that no
// task call on the path started (the path is another branch, or the task
// call's entry is lost) follow the path, under a heading of their own:
// the page carries them, and so does the document. In an archive, where
// each transcript is a document of its own (Options.AgentLinks), the
// task call links it, and the others are listed after the path.

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
		if sub := session.FindSubAgent(m.agents, a.ID); sub != nil && !m.written[sub] {
			m.written[sub] = true
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
	m.flushAnchor()
	kind, turn := m.turn, m.turns
	for _, p := range m.pending {
		m.transcript(p, m.level+1)
	}
	m.pending = m.pending[:0]
	m.endTurn()
	m.resume, m.resumeTurn = kind, turn
}

// transcript writes one sub-agent's transcript, its heading at level:
// the path to its leaf. Sub-agents nest at most session.LoadSubAgents'
// depth, so the recursion through the transcripts of its own task calls
// is bounded.
func (m *mdWriter) transcript(p pendingAgent, level int) {
	s := p.agent.Session
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	title := "Sub-agent " + codeSpan(p.agent.ID)
	if d := humanize.OneLine(p.task.Description, 120); d != "" {
		title += ": " + mdInline(d)
	}
	// The section's id is the page's for the agent's panel.
	key := "sub-" + strings.Join(strings.Fields(p.agent.Key), "_")
	id := m.anchorID(key)
	if a := m.t.anchor(id); a != "" {
		m.block(a)
	}
	m.block(strings.Repeat("#", min(level, maxHeading)) + " " + title + m.t.headingID(id))
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
	sub := &mdWriter{s: s, home: session.HomeOf(cwd, m.home), t: m.t, opt: m.opt, agents: p.agent.Agents,
		level: min(level+1, maxHeading), headingIDs: m.headingIDs, idPrefix: key + "-", dated: spansDays(path), shared: m.shared}
	if len(path) == 0 {
		sub.note("The transcript has no entries")
	}
	for _, e := range path {
		sub.entry(e)
		sub.transcripts()
	}
	sub.resume = ""
	sub.strayAgents()
	sub.flushAnchor()
	m.raw(strings.TrimRight(sub.buf.String(), "\n"))
}

// strayAgents writes, after the path, the transcripts of the session's
// sub-agents that no task call on it started; in an archive, links to
// the documents of those no task call linked. An excerpt leaves them out:
// it holds the part of the path it was asked for.
func (m *mdWriter) strayAgents() {
	if m.s.Excerpt != nil {
		return
	}
	var stray []*session.SubAgent
	for _, a := range m.agents {
		if !m.written[a] {
			stray = append(stray, a)
		}
	}
	var links []string
	if m.idPrefix == "" {
		ids := slices.Sorted(maps.Keys(m.opt.AgentLinks))
		for _, id := range ids {
			if dest := markdownLink(m.opt.AgentLinks[id]); dest != "" && !m.linked[id] {
				links = append(links, "- [Sub-agent "+mdInline(id)+"]("+dest+")")
			}
		}
	}
	if len(stray) == 0 && len(links) == 0 {
		return
	}
	m.flushAnchor()
	m.block(strings.Repeat("#", m.level) + " Sub-agents no task call on this path started")
	m.endTurn()
	if len(links) > 0 {
		m.block(strings.Join(links, "\n"))
	}
	for _, a := range stray {
		m.written[a] = true
		m.transcript(pendingAgent{agent: a}, m.level+1)
	}
}
