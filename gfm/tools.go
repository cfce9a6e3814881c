package gfm

import (
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/termtext"
	"github.com/piexport/piexport/session"
)

// Tool calls with their results, and the commands the user ran.

// Long outputs are cut after mdOutputLines lines (unless only a few more
// would follow) or mdOutputBytes bytes, with a note saying how many lines
// were left out: a document is for reading, the session file has the rest.
const (
	mdOutputLines = 200
	mdOutputSlack = 20
	mdOutputBytes = 64 << 10
)

// tool writes a tool call and its result as one collapsed block named as
// pi's tree names the call. call is nil for a result whose call is not in
// the file; result is nil for a call that got no answer.
func (m *mdWriter) tool(call *session.Block, result *session.Entry) {
	name, args, rawArgs, res := session.ReadToolCall(call, result)
	summary := name
	if call != nil {
		summary = session.ToolCallSummary(name, rawArgs, m.home)
		summary = strings.TrimSuffix(strings.TrimPrefix(summary, "["), "]")
	} else if summary == "" {
		summary = "tool"
	}
	switch {
	case res == nil:
		summary += " (no result)"
	case res.Aborted():
		summary += " (aborted)"
	case res.IsError:
		summary += " (error)"
	}
	if call != nil && result != nil {
		// The result is written here, with its call: the part is its
		// anchor.
		m.setAnchor(result.ID, "Tool result")
	}
	m.openPart(summary, partTool)
	if res.Aborted() {
		// pi 1.6: the user pressed Esc before the call finished; not a
		// failure of the tool.
		m.block("_Aborted: the user stopped the turn before this call finished._")
		m.closePart()
		return
	}
	output := ""
	if res != nil {
		output = res.ResultText()
	}
	switch name {
	case "bash":
		if cmd := args.Str("command"); cmd != "" {
			m.code("bash", cmd)
		}
		m.terminalOutput(res, output)
	case "read":
		m.output(res, output, fenceLang(args.Str("path", "file_path")))
	case "write":
		if content := args.Str("content"); content != "" {
			m.code(fenceLang(args.Str("path", "file_path")), content)
		}
		m.output(res, output, "text")
	case "edit":
		if d := session.EditDiff(res, args); d != "" {
			m.code("diff", d)
		}
		if res == nil || res.IsError {
			m.output(res, output, "text")
		}
	case "task": // omp: sub-agents
		if call != nil {
			m.taskAgents(call, result)
		}
		m.terminalOutput(res, output)
		if call != nil {
			m.queueTranscripts(call, result)
		}
	default:
		if call != nil && name != "grep" && name != "find" && name != "ls" && len(args) > 0 {
			m.jsonBlock(rawArgs)
		}
		m.terminalOutput(res, output)
	}
	if res != nil {
		for _, b := range res.Content {
			if b.Type == "image" {
				m.block(m.image(b))
			}
		}
		m.nested(res)
	}
	m.closePart()
}

// output writes a tool's output in a fence, cut when long, or says that
// there was none.
func (m *mdWriter) output(res *session.Message, out, lang string) {
	if res == nil {
		m.block("_No result: the turn ended before the tool answered._")
		return
	}
	if strings.TrimSpace(out) == "" {
		m.block("_No output._")
		return
	}
	m.longFence(lang, out)
}

// longFence fences text, cut after mdOutputLines lines with a note.
func (m *mdWriter) longFence(lang, s string) {
	kept, dropped := truncateLines(s)
	m.code(lang, kept)
	switch {
	case dropped == 1:
		m.block("_… 1 more line not shown._")
	case dropped > 1:
		m.block("_… " + humanize.Count(dropped, "more line", "more lines") + " not shown._")
	}
}

// truncateLines cuts s after mdOutputLines lines or mdOutputBytes bytes,
// and counts the lines it left out (a line cut in the middle among them).
func truncateLines(s string) (string, int) {
	s = strings.TrimRight(normaliseNewlines(s), "\n")
	total := strings.Count(s, "\n") + 1
	cut := len(s)
	if total > mdOutputLines+mdOutputSlack {
		cut = nthIndex(s, '\n', mdOutputLines)
	}
	if cut > mdOutputBytes {
		cut = strings.LastIndexByte(s[:mdOutputBytes], '\n')
		if cut < 0 {
			cut = mdOutputBytes
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
	}
	if cut >= len(s) {
		return s, 0
	}
	kept := s[:cut]
	complete := strings.Count(kept, "\n") + 1
	if s[cut] != '\n' {
		complete-- // the last kept line was cut
	}
	return kept, total - complete
}

// nthIndex returns the index of the nth c in s, or len(s).
func nthIndex(s string, c byte, n int) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			if n--; n == 0 {
				return i
			}
		}
	}
	return len(s)
}

// userCommand writes a command the user ran with ! (or omp's Python and
// JavaScript equivalents) and its output, uncollapsed: the user chose to
// show it.
func (m *mdWriter) userCommand(msg *session.Message) {
	lang := "bash"
	switch msg.Role {
	case "jsExecution":
		lang = "javascript"
	case "pythonExecution":
		lang = "python"
	}
	marks := append([]string{"Command run by the user"},
		session.CommandMarks(msg, func(p string) string { return codeSpan(session.ShortenHome(p, m.home)) })...)
	m.block("_" + strings.Join(marks, " · ") + ":_")
	m.code(lang, msg.Command)
	if strings.TrimSpace(msg.Output) != "" {
		text, links := termtext.PlainLinks(msg.Output)
		m.longFence("text", text)
		m.linkList(links)
	}
}

// terminalOutput writes a tool's output that was written for a terminal:
// as the text a terminal shows (termtext.Plain), then the hyperlinks it
// carried (OSC 8, http, https and mailto only), which a fence cannot hold,
// as a list of Markdown links.
func (m *mdWriter) terminalOutput(res *session.Message, out string) {
	text, links := termtext.PlainLinks(out)
	m.output(res, text, "text")
	m.linkList(links)
}

// maxOutputLinks bounds the links listed after an output.
const maxOutputLinks = 20

// linkList lists the hyperlinks of an output.
func (m *mdWriter) linkList(links []termtext.Link) {
	if len(links) == 0 {
		return
	}
	lines := []string{"Links in the output:", ""}
	for i, l := range links {
		if i == maxOutputLinks {
			lines = append(lines, "- _… "+humanize.Count(len(links)-i, "more link", "more links")+"_")
			break
		}
		text := mdInline(humanize.OneLine(l.Text, 100))
		if dest := markdownLink(l.URL); dest != "" && text != "" {
			lines = append(lines, "- ["+text+"]("+dest+")")
		}
	}
	m.block(strings.Join(lines, "\n"))
}
