// Package gfm writes one path of a session, or the index of an archive,
// as Markdown for GitHub and other CommonMark renderers, and for the
// engines of documentation sites: MkDocs with Material, Hugo and
// Docusaurus 3 (Options.Target).
//
// Session text is untrusted, and a Markdown file has no escaping layer of
// its own: whatever a message says is parsed together with the structure
// written around it, by a reader that may keep raw HTML (Python-Markdown),
// evaluate braces (MDX) or read shortcodes before Markdown (Hugo). So
// session text never becomes markup: for GitHub and Hugo it goes through
// safeMarkdown, which edits it (and only where needed) until goldmark,
// parsing it as the engine does, finds no raw HTML, no link outside http,
// https and mailto, and nothing that runs past its end; for MkDocs and
// Docusaurus it is written anew from goldmark's reading (canonical). Text
// that could be syntax is written as character references ("&lt;",
// "&#123;"), which every renderer reads as the character, never as
// backslash escapes, which some show. The only HTML in a document is our
// own: <details>, <summary> and empty <a id> anchors, and MkDocs'
// <strong>, <em> and <br>. The target writers (target.go) hold what
// differs between engines; the entry writers call them through mdWriter.
//
// It knows nothing of HTML pages or of files on disk: it is handed a
// loaded session, and an ImageStore to keep images beside the document.
package gfm

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// Options say how a document is written.
type Options struct {
	// Leaf is the ID of the entry whose path is written; empty means the
	// session's leaf.
	Leaf string
	// Home is the reader's home directory, shown as ~. Empty: guessed
	// from the session's working directory (see session.HomeOf).
	Home string
	// Generator names the program in the document's last line.
	Generator string
	// SubAgents are the transcripts of the session's sub-agents
	// (session.LoadSubAgents): each is written, as a section of its own,
	// after the omp task call that started it; those no task call on the
	// path started, after the path.
	SubAgents []*session.SubAgent
	// Progress, when set, is told how many entries of the path are
	// written, of total, after each: a long path takes seconds.
	Progress func(done, total int)

	// Target names the engine the document is written for: one of
	// Targets; empty is "github".
	Target string
	// FrontMatter heads the document with YAML front matter (title, dates,
	// ids, project, models, cost, tokens), which an engine shows as the
	// page's title: the document's own title (its H1) is then left out.
	FrontMatter bool
	// HeadingOffset moves every heading that many levels down (0 to 4),
	// for a page that includes the document under headings of its own.
	HeadingOffset int
	// BodyOnly leaves out the title, the list of facts and the last line:
	// the turns alone, for a page that includes the document.
	BodyOnly bool
	// Images, when set, keeps each image as a file beside the document,
	// which links it; else a line names each image.
	Images ImageStore

	// IndexURL, when set, links the document to the index of the
	// sessions it belongs to (an archive's), a link as MarkdownLink's.
	IndexURL string
	// Parent links the session this one came from (a sub-agent's session,
	// a fork's origin) and names how ("Sub-agent of"); Related the others
	// it has to do with (its sub-agents, its forks): an archive knows
	// their documents. AgentLinks are the documents of the session's
	// sub-agents by agent id: a task call links the agents it started.
	Parent     MarkdownRelated
	Related    []MarkdownRelated
	AgentLinks map[string]string
}

// ImageStore keeps the images of a document as files beside it.
type ImageStore interface {
	// Add keeps an image, its bytes and the MIME type the session gives
	// it, and returns the link the document writes for it; "" when it
	// keeps no image of that kind (a type that is not an image a page
	// shows safely). An error is a failure to write.
	Add(mimeType string, data []byte) (link string, err error)
}

// WriteMarkdown writes the path from the session's first entry to
// opt.Leaf (the session's leaf when empty) as Markdown for opt.Target: a
// title, a short list of facts, then one numbered heading per turn ("3.
// User: Why does…"), with thinking, tool calls and hidden context in
// parts the engine folds, and each entry's id as an anchor.
func WriteMarkdown(w io.Writer, s *session.Session, opt Options) error {
	t, err := targetFor(opt.Target)
	if err != nil {
		return err
	}
	if opt.HeadingOffset < 0 || opt.HeadingOffset > 4 {
		return fmt.Errorf("a heading offset of %d: it must be 0 to 4", opt.HeadingOffset)
	}
	leaf := s.Leaf
	if opt.Leaf != "" {
		if leaf = s.Entry(opt.Leaf); leaf == nil {
			return fmt.Errorf("%s: no entry has the id %q", s.File, opt.Leaf)
		}
	}
	cwd := ""
	if s.Header != nil {
		cwd = s.Header.Cwd
	}
	path := s.Path(leaf)
	m := newWriter(s, t, &opt, session.HomeOf(cwd, opt.Home), 2+opt.HeadingOffset, path)
	facts := m.factsOf(path)
	if opt.FrontMatter {
		m.frontMatter(facts, leaf)
	}
	if h, ok := t.(hugoTarget); ok {
		m.raw(h.begin(opt.FrontMatter))
	}
	if !opt.BodyOnly {
		m.head(facts, leaf)
	}
	if len(path) == 0 {
		m.note("This session has no entries: it was opened and closed without a turn")
	}
	if opt.Progress != nil {
		opt.Progress(0, len(path))
	}
	for i, e := range path {
		m.entry(e)
		m.transcripts()
		if opt.Progress != nil {
			opt.Progress(i+1, len(path))
		}
	}
	m.resume = ""
	m.strayAgents()
	if opt.Generator != "" && !opt.BodyOnly {
		m.block("---")
		m.block("_Exported by " + mdInline(opt.Generator) + "._")
	}
	if m.err != nil {
		return m.err
	}
	// Control characters of the session's text (ESC in terminal output)
	// show as their pictures: a document is read on a terminal too.
	_, err = render.WithoutControls(w).Write(t.finish(trimLineEnds(m.buf.Bytes())))
	return err
}

// mdWriter builds one Markdown document, a block at a time.
type mdWriter struct {
	s    *session.Session
	home string
	t    target
	opt  *Options
	buf  bytes.Buffer
	// level is the level of the turns' headings: 2 in the document's own
	// session (moved by HeadingOffset), deeper in a sub-agent's transcript.
	level int
	// turn is the kind of the turn being written ("User", "Assistant"),
	// so that a turn of several assistant messages and tool results gets
	// one heading; turns counts them.
	turn  string
	turns int
	// anchor is the element id of the entry being written, until
	// something of it is written to carry it; anchorLabel names the entry
	// where only a heading can carry an id (headingIDs: Hugo).
	anchor, anchorLabel string
	headingIDs          bool
	// idPrefix starts the ids of a sub-agent's entries, as on the page.
	idPrefix string
	// inPart is set between openPart and closePart; partBlocks counts the
	// blocks written in the part.
	inPart     bool
	partBlocks int
	// agents are the sub-agent transcripts of the session written;
	// pending those whose task call the entry being written made, to
	// follow it (see transcripts).
	agents  []*session.SubAgent
	pending []pendingAgent
	// resume is the turn a transcript interrupted (its kind and number),
	// which goes on under a heading of its own ("2. Assistant,
	// continued") unless what follows starts a turn of another kind.
	resume     string
	resumeTurn int
	// dated: the path runs over more than one day, so turns' times say
	// the day too.
	dated bool
	// shared is what the writers of a document and its transcripts
	// share.
	*shared
}

// shared is the state of one document that its transcripts' writers
// share: the ids given (each once), the agents written, the first error.
type shared struct {
	ids     map[string]bool
	written map[*session.SubAgent]bool
	linked  map[string]bool // agent ids a task call linked (AgentLinks)
	err     error
}

func newWriter(s *session.Session, t target, opt *Options, home string, level int, path []*session.Entry) *mdWriter {
	m := &mdWriter{s: s, home: home, t: t, opt: opt, level: min(level, maxHeading), agents: opt.SubAgents,
		headingIDs: t.anchor("x") == "",
		shared:     &shared{ids: map[string]bool{}, written: map[*session.SubAgent]bool{}, linked: map[string]bool{}}}
	m.dated = spansDays(path)
	return m
}

// raw writes text as it is, as a block of its own.
func (m *mdWriter) raw(text string) {
	if text == "" {
		return
	}
	m.writeBlock(text)
}

// block writes one Markdown block. Blocks are separated by one blank line,
// which ends any paragraph, list, quote or HTML block before it. The
// entry's anchor, if nothing carried it yet, goes first.
func (m *mdWriter) block(b string) {
	b = strings.Trim(b, "\n")
	if b == "" {
		return
	}
	if m.resume != "" {
		// Back from a sub-agent's transcript: the turn it interrupted
		// goes on.
		m.continueTurn("")
	}
	m.flushAnchor()
	m.writeBlock(b)
}

// writeBlock writes b after a blank line, in the part if one is open.
func (m *mdWriter) writeBlock(b string) {
	sep := ""
	if m.inPart {
		line, blank := m.t.partPrefix()
		if line != "" {
			ls := strings.Split(b, "\n")
			for i, l := range ls {
				ls[i] = expandLeadingTabs(l)
			}
			b = prefixLines(strings.Join(ls, "\n"), line, blank)
		}
		if m.partBlocks > 0 {
			sep = blank
		}
		m.partBlocks++
	}
	if m.buf.Len() > 0 {
		m.buf.WriteString(sep)
		m.buf.WriteByte('\n')
	}
	m.buf.WriteString(b)
	m.buf.WriteByte('\n')
}

// prose writes session Markdown; code a code block.
func (m *mdWriter) prose(src string) { m.block(m.t.prose(src, m.inPart)) }
func (m *mdWriter) code(lang, content string) {
	m.block(m.t.code(lang, content, m.inPart))
}

// note writes one italic line; s is Markdown that starts with a letter.
// Where only headings carry ids, a note that must carry the entry's is a
// small heading.
func (m *mdWriter) note(s string) {
	if !strings.HasSuffix(s, ".”") {
		s += "."
	}
	if m.headingIDs && m.anchor != "" && !m.inPart {
		m.block(m.labelHeading(s, m.takeAnchor()))
		return
	}
	m.block("_" + s + "_")
}

// openPart starts a part the engine folds (or sets apart), labelled by
// label (plain text); closePart ends it. Parts never nest.
func (m *mdWriter) openPart(label string, kind partKind) {
	if m.headingIDs && m.anchor != "" {
		m.block(m.labelHeading(mdInline(partLabel(label)), m.takeAnchor()))
	} else {
		m.block(m.t.openPart(label, kind))
	}
	m.inPart, m.partBlocks = true, 0
}

func (m *mdWriter) closePart() {
	if m.partBlocks == 0 {
		// An engine may take a part with nothing in it for no part.
		m.block("_Nothing to show._")
	}
	m.inPart = false
	m.block(m.t.closePart())
}

// labelHeading is a small heading, below the turns', with the id id: how
// an engine with ids on headings only gives an entry its anchor. label is
// Markdown.
func (m *mdWriter) labelHeading(label, id string) string {
	return strings.Repeat("#", min(m.level+2, maxHeading)) + " " + label + m.t.headingID(id)
}
