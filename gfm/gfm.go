// Package gfm writes one path of a session, or the index of an archive,
// as GitHub-flavoured Markdown for GitHub and other CommonMark renderers.
//
// Session text is untrusted, and a Markdown file has no escaping layer of
// its own: whatever a message says is parsed together with the structure
// written around it. So message text goes through safeMarkdown, which
// edits it (and only where needed) until goldmark, parsing it as GitHub
// would, finds no raw HTML, no link outside http, https and mailto, and
// nothing that runs past its end; everything else goes into fences longer
// than any backtick run inside, code spans, or escaped inline text. The
// only HTML in the document is our own <details> and <summary> tags, whose
// summaries are HTML-escaped.
//
// It knows nothing of HTML pages or of files on disk: it is handed a
// loaded session and writes one document.
package gfm

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/piexport/piexport/humanize"
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
	// after the omp task call that started it.
	SubAgents []*session.SubAgent
	// Progress, when set, is told how many entries of the path are
	// written, of total, after each: a long path takes seconds.
	Progress func(done, total int)
}

// WriteMarkdown writes the path from the session's first entry to
// opt.Leaf (the session's leaf when empty) as GitHub-flavoured Markdown: a
// title, a short metadata list, then one "## User" or "## Assistant"
// section per turn, with thinking, tool calls and hidden context in
// collapsed <details> blocks. Base64 images are not
// included (GitHub cannot show data: URIs); a line names each one instead.
func WriteMarkdown(w io.Writer, s *session.Session, opt Options) error {
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
	home := session.HomeOf(cwd, opt.Home)
	m := &mdWriter{s: s, home: home, agents: opt.SubAgents, level: 2}
	path := s.Path(leaf)
	m.head(path, leaf)
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
	if opt.Generator != "" {
		m.block("---")
		m.block("_Exported by " + mdInline(opt.Generator) + "._")
	}
	// Control characters of the session's text (ESC in terminal output)
	// show as their pictures: a document is read on a terminal too.
	_, err := render.WithoutControls(w).Write(trimLineEnds(m.buf.Bytes()))
	return err
}

// mdWriter builds one Markdown document, a block at a time.
type mdWriter struct {
	s    *session.Session
	home string
	buf  bytes.Buffer
	// turn is the heading of the section being written, so that a turn of
	// several assistant messages and tool results gets one heading.
	turn string
	// level is the level of the turns' headings: 2 in the document's own
	// session, deeper in a sub-agent's transcript.
	level int
	// agents are the sub-agent transcripts of the session written;
	// pending those whose task call the entry being written made, to
	// follow it (see transcripts).
	agents  []*session.SubAgent
	pending []pendingAgent
	// resume is the heading of the turn a transcript interrupted, written
	// again before what follows unless that starts a section of its own.
	resume string
}

// block writes one Markdown block. Blocks are separated by one blank line,
// which ends any paragraph, list, quote or HTML block before it.
func (m *mdWriter) block(b string) {
	b = strings.Trim(b, "\n")
	if b == "" {
		return
	}
	if h := m.resume; h != "" {
		// Back from a sub-agent's transcript: the turn it interrupted
		// goes on under its heading again.
		m.resume, m.turn = "", h
		m.block(strings.Repeat("#", m.level) + " " + h)
	}
	if m.buf.Len() > 0 {
		m.buf.WriteByte('\n')
	}
	m.buf.WriteString(b)
	m.buf.WriteByte('\n')
}

// heading starts a section unless it is already the one being written.
// h is Markdown: literal text or text escaped by mdInline.
func (m *mdWriter) heading(h string) {
	m.resume = ""
	if m.turn == h {
		return
	}
	m.turn = h
	m.block(strings.Repeat("#", m.level) + " " + h)
}

// note writes one italic line; s is Markdown that starts with a letter.
func (m *mdWriter) note(s string) {
	if !strings.HasSuffix(s, ".”") {
		s += "."
	}
	m.block("_" + s + "_")
}

// openDetails starts a collapsed block. GitHub renders Markdown inside it
// only after a blank line, which block writes. The summary is the one
// piece of session text that lands in HTML, so it is escaped as HTML and
// kept on one line (a blank line would end the HTML block).
func (m *mdWriter) openDetails(summary string) {
	m.block("<details><summary>" + summaryEscaper.Replace(humanize.OneLine(foldLine(summary), 300)) + "</summary>")
}

// summaryEscaper escapes the characters that matter in HTML text; quotes
// only matter in attributes, and left alone they keep the file readable.
var summaryEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func (m *mdWriter) closeDetails() { m.block("</details>") }
