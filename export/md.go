package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// The Markdown export writes one path of a session as a document for
// GitHub and other CommonMark renderers. Session text is untrusted, and a
// Markdown file has no escaping layer of its own: whatever a message says
// is parsed together with the structure written around it. So message
// text goes through safeMarkdown, which edits it (and only where needed)
// until goldmark, parsing it as GitHub would, finds no raw HTML, no link
// outside http, https and mailto, and nothing that runs past its end;
// everything else goes into fences longer than any backtick run inside,
// code spans, or escaped inline text. The only HTML in the document is our
// own <details> and <summary> tags, whose summaries are HTML-escaped.

// Long outputs are cut after mdOutputLines lines (unless only a few more
// would follow) or mdOutputBytes bytes, with a note saying how many lines
// were left out: a document is for reading, the session file has the rest.
const (
	mdOutputLines = 200
	mdOutputSlack = 20
	mdOutputBytes = 64 << 10
)

// mdFixRounds bounds safeMarkdown's edit-and-reparse rounds; text that
// still needs edits after them is shown as source in a fence.
const mdFixRounds = 32

// gfm parses Markdown the way GitHub renders it (tables, strikethrough,
// autolinks, task lists, footnotes). Only its parser is used, to check
// text before it is written; built once, since goldmark parsers are
// stateless.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// WriteMarkdown writes the path from the session's first entry to
// opt.Leaf (the session's leaf when empty) as GitHub-flavoured Markdown: a
// title, a short metadata list, then one "## User" or "## Assistant"
// section per turn, with thinking, tool calls and hidden context in
// collapsed <details> blocks. opt.Theme is ignored. Base64 images are not
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
	m := &mdWriter{s: s, home: home}
	path := s.Path(leaf)
	m.head(path, leaf)
	for _, e := range path {
		m.entry(e)
	}
	if opt.Generator != "" {
		m.block("---")
		m.block("_Exported by " + mdInline(opt.Generator) + "._")
	}
	_, err := w.Write(trimLineEnds(m.buf.Bytes()))
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
}

// block writes one Markdown block. Blocks are separated by one blank line,
// which ends any paragraph, list, quote or HTML block before it.
func (m *mdWriter) block(b string) {
	b = strings.Trim(b, "\n")
	if b == "" {
		return
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
	if m.turn == h {
		return
	}
	m.turn = h
	m.block("## " + h)
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

func (m *mdWriter) head(path []*session.Entry, leaf *session.Entry) {
	s := m.s
	sum := s.Summarize()
	title := sum.Title
	if title == "" {
		title = "pi session"
	}
	m.block("# " + mdInline(title))

	var meta []string
	if h := s.Header; h != nil {
		if h.Cwd != "" {
			meta = append(meta, "**Directory:** "+codeSpan(session.ShortenHome(h.Cwd, m.home)))
		}
		if h.ID != "" {
			meta = append(meta, "**Session:** "+codeSpan(h.ID))
		}
	}
	var start, end time.Time
	var models []string
	var usage session.Usage
	messages, calls := 0, 0
	addModel := func(provider, model string) {
		name := model
		if provider != "" && model != "" {
			name = provider + "/" + model
		}
		if name != "" && !slices.Contains(models, name) {
			models = append(models, name)
		}
	}
	for _, e := range path {
		if !e.Time.IsZero() {
			if start.IsZero() || e.Time.Before(start) {
				start = e.Time
			}
			if e.Time.After(end) {
				end = e.Time
			}
		}
		if e.Type == "model_change" {
			addModel(e.Provider, e.ModelID)
		}
		switch e.Role() {
		case "user", "toolResult":
			messages++
		case "assistant":
			messages++
			addModel(e.Message.Provider, e.Message.Model)
			usage.Add(e.Message.Usage)
			for _, b := range e.Message.Content {
				if b.Type == "toolCall" {
					calls++
				}
			}
		}
	}
	if start.IsZero() && s.Header != nil {
		start, end = s.Header.Time, s.Header.Time
	}
	if !start.IsZero() {
		meta = append(meta, "**Date:** "+mdDates(start, end))
	}
	if len(models) > 0 {
		for i, name := range models {
			models[i] = mdInline(name)
		}
		meta = append(meta, "**Models:** "+strings.Join(models, ", "))
	}
	count := fmt.Sprintf("**Messages:** %d", messages)
	if calls > 0 {
		count += fmt.Sprintf(", with %d tool calls", calls)
	}
	meta = append(meta, count)
	if usage != (session.Usage{}) {
		meta = append(meta, "**Tokens:** "+mdUsage(usage))
	}
	if sum.Leaves > 1 && sum.Usage != usage {
		// Each figure's line holds one "$": two on a line can read as
		// TeX math on GitHub.
		meta = append(meta, "**All branches:** "+mdUsage(sum.Usage))
	}
	if leaf != nil && (sum.Leaves > 1 || leaf != s.Leaf) {
		b := "**Branch:** the path to entry " + codeSpan(leaf.ID)
		if leaf == s.Leaf {
			b += " (the latest)"
		}
		if sum.Leaves > 1 {
			b += fmt.Sprintf(", one of %d branches", sum.Leaves)
		}
		meta = append(meta, b)
	}
	m.block("- " + strings.Join(meta, "\n- "))
}

// mdDates shows when a path ran, in UTC so that exports do not depend on
// the machine they are made on.
func mdDates(start, end time.Time) string {
	start, end = start.UTC(), end.UTC()
	out := start.Format("2006-01-02 15:04:05")
	switch {
	case !end.After(start):
		return out + " UTC"
	case end.Format("2006-01-02") == start.Format("2006-01-02"):
		out += " – " + end.Format("15:04:05") + " UTC"
	default:
		out += " UTC – " + end.Format("2006-01-02 15:04:05") + " UTC"
	}
	return out + " (" + humanize.Duration(end.Sub(start)) + ")"
}

func mdUsage(u session.Usage) string {
	return strings.Join(humanize.Usage(u, "input", "output"), ", ")
}

func (m *mdWriter) entry(e *session.Entry) {
	switch e.Type {
	case "message":
		if e.Message == nil {
			m.rawJSON("message entry", e.Raw)
			return
		}
		m.message(e)
	case "compaction":
		head := "**Context compacted:** " + humanize.Tokens(e.TokensBefore) + " tokens summarised"
		if e.FromHook {
			head += " by an extension"
		}
		parts := []string{head + "."}
		if e.ShortSummary != "" {
			parts = append(parts, e.ShortSummary)
		}
		parts = append(parts, e.Summary)
		var details struct {
			ReadFiles     []string `json:"readFiles"`
			ModifiedFiles []string `json:"modifiedFiles"`
		}
		if json.Unmarshal(e.Details, &details) == nil {
			parts = append(parts, m.fileList("Files read", details.ReadFiles), m.fileList("Files modified", details.ModifiedFiles))
		}
		m.quote(parts...)
	case "branch_summary":
		m.quote("**Summary of an abandoned branch.**", e.Summary)
	case "custom_message":
		m.customMessage(e.CustomType, e.Content, e.Display)
	case "model_change":
		name := e.ModelID
		if e.Provider != "" {
			name = e.Provider + "/" + e.ModelID
		}
		line := "Model set to " + mdInline(name)
		if e.ModelRole != "" && e.ModelRole != "default" {
			line += " for the " + mdInline(e.ModelRole) + " role"
		}
		m.note(line)
	case "thinking_level_change":
		m.note("Thinking level set to " + mdInline(e.ThinkingLevel))
	case "label":
		target := "an entry not in this file (" + codeSpan(e.TargetID) + ")"
		if t := m.s.Entry(e.TargetID); t != nil {
			p := m.s.Preview(t, m.home)
			target = "“" + mdInline(humanize.OneLine(strings.TrimSpace(p.Role+" "+p.Text), 60)) + "”"
		}
		if e.LabelText == "" {
			m.note("Label cleared on " + target)
		} else {
			m.note("Label " + codeSpan(e.LabelText) + " set on " + target)
		}
	case "session_info":
		if name := mdInline(e.SessionName); name != "" {
			m.note("Session named " + name)
		} else {
			m.note("Session name cleared")
		}
	default:
		m.rawJSON(e.Type+" entry", e.Raw)
	}
}

func (m *mdWriter) message(e *session.Entry) {
	msg := e.Message
	switch msg.Role {
	case "user":
		m.heading("User")
		m.blocks(e, msg.Content)
	case "assistant":
		m.heading("Assistant")
		m.blocks(e, msg.Content)
		switch msg.StopReason {
		case "aborted", "error":
			line := "**Aborted**"
			if msg.StopReason == "error" {
				line = "**Error**"
			}
			if msg.ErrorMessage != "" {
				line += ": " + mdInline(msg.ErrorMessage)
			}
			m.block(line)
		}
	case "toolResult":
		if _, call := m.s.CallOf(e); call != nil {
			return // written with its call
		}
		m.heading("Tool result")
		m.tool(nil, e)
	case "bashExecution", "jsExecution":
		m.heading("User")
		m.userCommand(msg)
	case "custom":
		m.customMessage(msg.CustomType, msg.Content, msg.Display)
	case "branchSummary":
		m.quote("**Summary of an abandoned branch.**", msg.Summary)
	case "compactionSummary":
		m.quote("**Summary of the compacted context.**", msg.Summary)
	case "developer":
		m.heading("Developer")
		m.blocks(e, msg.Content)
	default:
		m.rawJSON(msg.Role+" message", e.Raw)
	}
}

// blocks writes message content in order: text as the Markdown it is,
// thinking collapsed, each tool call with its result, images as a note.
func (m *mdWriter) blocks(e *session.Entry, content []session.Block) {
	for i := range content {
		b := &content[i]
		switch b.Type {
		case "text":
			m.block(safeMarkdown(b.Text))
		case "thinking":
			switch {
			case b.Redacted:
				m.openDetails("Thinking")
				m.block("_The provider redacted this thinking._")
				m.closeDetails()
			case strings.TrimSpace(b.Text) != "":
				m.openDetails("Thinking")
				m.block(safeMarkdown(b.Text))
				m.closeDetails()
			}
		case "toolCall":
			var result *session.Entry
			if b.ToolCallID != "" {
				result = m.s.ToolResult(e, b.ToolCallID)
			}
			m.tool(b, result)
		case "image":
			m.block(imageNote(*b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
}

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
	case res.IsError:
		summary += " (error)"
	}
	m.openDetails(summary)
	output := ""
	if res != nil {
		output = res.ResultText()
	}
	switch name {
	case "bash":
		if cmd := args.Str("command"); cmd != "" {
			m.block(fenced("bash", cmd))
		}
		m.output(res, plainTerminalText(output), "text")
	case "read":
		m.output(res, output, fenceLang(args.Str("path", "file_path")))
	case "write":
		if content := args.Str("content"); content != "" {
			m.block(fenced(fenceLang(args.Str("path", "file_path")), content))
		}
		m.output(res, output, "text")
	case "edit":
		if d := session.EditDiff(res, args); d != "" {
			m.block(fenced("diff", d))
		}
		if res == nil || res.IsError {
			m.output(res, output, "text")
		}
	default:
		if call != nil && name != "grep" && name != "find" && name != "ls" && len(args) > 0 {
			m.block(fenced("json", indentJSON(rawArgs)))
		}
		m.output(res, output, "text")
	}
	if res != nil {
		for _, b := range res.Content {
			if b.Type == "image" {
				m.block(imageNote(b))
			}
		}
	}
	m.closeDetails()
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
	m.block(fenced(lang, kept))
	switch {
	case dropped == 1:
		m.block("_… 1 more line not shown._")
	case dropped > 1:
		m.block(fmt.Sprintf("_… %d more lines not shown._", dropped))
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

// userCommand writes a command the user ran with ! (or omp's JavaScript
// equivalent) and its output, uncollapsed: the user chose to show it.
func (m *mdWriter) userCommand(msg *session.Message) {
	lang := "bash"
	if msg.Role == "jsExecution" {
		lang = "javascript"
	}
	marks := append([]string{"Command run by the user"},
		session.CommandMarks(msg, func(p string) string { return codeSpan(session.ShortenHome(p, m.home)) })...)
	m.block("_" + strings.Join(marks, " · ") + ":_")
	m.block(fenced(lang, msg.Command))
	if strings.TrimSpace(msg.Output) != "" {
		m.longFence("text", plainTerminalText(msg.Output))
	}
}

// customMessage writes a message an extension added: as it is when pi
// shows it, collapsed as hidden context when only the model saw it.
func (m *mdWriter) customMessage(customType string, content []session.Block, display bool) {
	if !display {
		m.openDetails("Hidden context: " + customType)
	} else {
		m.heading("Extension message: " + mdInline(customType))
	}
	for _, b := range content {
		switch b.Type {
		case "text":
			m.block(safeMarkdown(b.Text))
		case "image":
			m.block(imageNote(b))
		default:
			m.rawJSON(b.Type+" block", b.Raw)
		}
	}
	if !display {
		m.closeDetails()
	}
}

// quote writes parts (Markdown) as one blockquote, for summaries that
// stand in for conversation. The quoted whole goes through safeMarkdown:
// a line means something else once prefixed with "> ".
func (m *mdWriter) quote(parts ...string) {
	var b strings.Builder
	for _, p := range parts {
		p = safeMarkdown(p) // closes a fence the part left open, among others
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString(">\n")
		}
		for line := range strings.SplitSeq(p, "\n") {
			line = expandLeadingTabs(line)
			if line == "" {
				b.WriteString(">\n")
			} else {
				b.WriteString("> " + line + "\n")
			}
		}
	}
	m.block(safeMarkdown(b.String()))
	m.turn = "" // what follows starts a new section
}

func (m *mdWriter) fileList(title string, files []string) string {
	if len(files) == 0 {
		return ""
	}
	spans := make([]string, len(files))
	for i, f := range files {
		spans[i] = codeSpan(session.ShortenHome(f, m.home))
	}
	return title + ": " + strings.Join(spans, ", ")
}

// rawJSON writes what this export has no view for as its JSON, collapsed:
// nothing on the path is silently dropped.
func (m *mdWriter) rawJSON(what string, raw json.RawMessage) {
	m.openDetails(what + " (JSON)")
	if len(raw) > 0 {
		m.block(fenced("json", indentJSON(raw)))
	}
	m.closeDetails()
}

func indentJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if json.Indent(&buf, raw, "", "  ") != nil {
		return string(raw)
	}
	return buf.String()
}

// imageNote names an image the document does not include: GitHub does not
// show data: URIs, and a document with images beside it is another format.
func imageNote(b session.Block) string {
	mime := mdInline(b.MimeType)
	if mime == "" {
		mime = "unknown type"
	}
	if strings.HasPrefix(b.Data, "blob:") {
		return "_[image: " + mime + ", not stored in the session file]_"
	}
	size := len(strings.TrimRight(strings.TrimSpace(b.Data), "=")) * 3 / 4
	return "_[image: " + mime + ", " + formatSize(size) + ", not included]_"
}

func formatSize(n int) string {
	switch {
	case n < 1024:
		return strconv.Itoa(n) + " bytes"
	case n < 1024*1024:
		return strconv.Itoa((n+512)/1024) + " KB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MB"
}

// fenceLangs names the fence language for common file extensions, in the
// names GitHub's highlighter knows; others are looked up in chroma.
var fenceLangs = map[string]string{
	".bash": "bash", ".c": "c", ".cc": "cpp", ".cjs": "javascript", ".cpp": "cpp", ".cs": "csharp",
	".css": "css", ".dart": "dart", ".diff": "diff", ".ex": "elixir", ".exs": "elixir", ".go": "go",
	".h": "c", ".hpp": "cpp", ".hs": "haskell", ".htm": "html", ".html": "html", ".ini": "ini",
	".java": "java", ".js": "javascript", ".json": "json", ".jsonl": "json", ".jsx": "jsx",
	".kt": "kotlin", ".lua": "lua", ".md": "markdown", ".mjs": "javascript", ".patch": "diff",
	".php": "php", ".proto": "protobuf", ".ps1": "powershell", ".py": "python", ".rb": "ruby",
	".rs": "rust", ".scala": "scala", ".scss": "scss", ".sh": "bash", ".sql": "sql",
	".svelte": "svelte", ".swift": "swift", ".toml": "toml", ".ts": "typescript", ".tsx": "tsx",
	".txt": "text", ".vue": "vue", ".xml": "xml", ".yaml": "yaml", ".yml": "yaml", ".zig": "zig",
	".zsh": "zsh",
}

// fenceNames names the fence language of common files without an
// extension.
var fenceNames = map[string]string{
	"makefile": "make", "gnumakefile": "make", "dockerfile": "dockerfile", "containerfile": "dockerfile",
	"gemfile": "ruby", "rakefile": "ruby", "jenkinsfile": "groovy", ".bashrc": "bash", ".zshrc": "zsh",
	".profile": "bash", ".bash_profile": "bash",
}

// fenceLang is the fence language for a file: from its extension (looked
// up in fenceLangs, else in chroma by the extension alone, so that the
// lexer cache holds one entry per extension, not per file) or its name,
// else text.
func fenceLang(file string) string {
	base := strings.ToLower(file[strings.LastIndexAny(file, `/\`)+1:])
	if lang, ok := fenceNames[base]; ok {
		return lang
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return "text"
	}
	if lang, ok := fenceLangs[base[dot:]]; ok {
		return lang
	}
	if lang := fenceInfo(render.FileLanguage("x" + base[dot:])); lang != "" {
		return lang
	}
	return "text"
}

// fenceInfo keeps a language name to the characters fence info strings
// use, so that it cannot end or extend the fence line.
func fenceInfo(lang string) string {
	lang = strings.ToLower(lang)
	for i := 0; i < len(lang); i++ {
		c := lang[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return ""
		}
	}
	return lang
}

// fenced puts content in a fenced code block whose fence is longer than
// any run of backticks in it, so no line of the content can close it.
func fenced(lang, content string) string {
	content = strings.TrimRight(normaliseNewlines(content), "\n")
	f := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	if content == "" {
		return f + fenceInfo(lang) + "\n" + f
	}
	return f + fenceInfo(lang) + "\n" + content + "\n" + f
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// codeSpan shows s, folded onto one line, as inline code: the backtick
// run around it is longer than any inside, and padded when s starts or
// ends with a backtick or a space, which a renderer would strip.
func codeSpan(s string) string {
	s = foldLine(s)
	if s == "" {
		return ""
	}
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ' {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// mdInline is session text folded onto one line and escaped to read as
// plain text in a heading, list item, table cell or italic line: every
// character that could start Markdown or HTML gets a backslash ("$" too,
// since GitHub reads text between two as TeX).
func mdInline(s string) string {
	s = foldLine(s)
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune("\\`*_[]<>&|~#!$", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// foldLine puts s on one line, dropping control characters.
func foldLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func normaliseNewlines(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	// CommonMark ends lines at a lone \r too.
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// trimBlankLines drops whitespace-only lines at the start (keeping the
// first line's indentation, which can make it code) and any trailing
// whitespace.
func trimBlankLines(s string) string {
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		s = rest
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.TrimRight(s, " \t\n")
}

// expandLeadingTabs turns a line's leading tabs into spaces (tab stops of
// four), so that indentation keeps its meaning after a "> " prefix.
func expandLeadingTabs(line string) string {
	if !strings.HasPrefix(strings.TrimLeft(line, " "), "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	i := 0
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		if line[i] == ' ' {
			col++
			b.WriteByte(' ')
			continue
		}
		n := 4 - col%4
		col += n
		b.WriteString(strings.Repeat(" ", n))
	}
	return b.String() + line[i:]
}

// trimLineEnds removes trailing spaces and tabs from every line, and
// makes the document end with one newline. Hard line breaks in session
// text were turned into backslashes by safeMarkdown, so no meaning is lost.
func trimLineEnds(doc []byte) []byte {
	out := make([]byte, 0, len(doc)+1)
	for len(doc) > 0 {
		line, rest, _ := bytes.Cut(doc, []byte("\n"))
		out = append(out, bytes.TrimRight(line, " \t")...)
		out = append(out, '\n')
		doc = rest
	}
	return out
}

// plainTerminalText is terminal output as plain text: escape sequences
// and control characters dropped, and where a line was redrawn with \r
// (progress bars) only the text after the last \r kept, as render.Terminal does.
func plainTerminalText(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 && strings.IndexByte(s, '\r') < 0 {
		return s
	}
	var b strings.Builder
	first := true
	for line := range strings.SplitSeq(s, "\n") {
		if !first {
			b.WriteByte('\n')
		}
		first = false
		line = strings.TrimRight(line, "\r")
		line = line[strings.LastIndexByte(line, '\r')+1:]
		for i := 0; i < len(line); {
			c := line[i]
			switch {
			case c == 0x1b:
				i = skipEscape(line, i)
			case c < ' ' && c != '\t' || c == 0x7f:
				i++
			default:
				b.WriteByte(c)
				i++
			}
		}
	}
	return b.String()
}

// skipEscape returns the index just after the escape sequence at s[i]:
// CSI (ESC [ ... final byte), OSC (ESC ] ... BEL or ESC \), or ESC and one
// more byte.
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[':
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']':
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// safeMarkdown returns session text as Markdown that renders as written
// and stays inside the place it is written to. It parses the text as
// GitHub would and edits it where needed, then parses again, until no edit
// is needed:
//   - raw HTML gets a backslash before its "<" (in an HTML block, before
//     the "<" of each line that could start a block), so it shows as the
//     text it is;
//   - links, images, autolinks and link reference definitions whose URL
//     is not http, https, mailto or relative get a backslash before their
//     bracket: the text stays, the link goes;
//   - a fence left open at the end is closed, so that it does not swallow
//     the rest of the document;
//   - hard line breaks written as trailing spaces become backslashes, so
//     the document has no trailing whitespace.
//
// Text that still needs edits after mdFixRounds rounds is shown as its
// source, fenced.
func safeMarkdown(src string) string {
	src = trimBlankLines(normaliseNewlines(src))
	if src == "" {
		return ""
	}
	for range mdFixRounds {
		edits, ok := markdownEdits(src)
		if !ok {
			break
		}
		if len(edits) == 0 {
			return src
		}
		src = applyEdits(src, edits)
	}
	return fenced("markdown", src)
}

// mdEdit replaces src[at:end] with text.
type mdEdit struct {
	at, end int
	text    string
}

// mdSentinel is a paragraph placed after the text while checking it: the
// text is contained exactly when the sentinel is still a paragraph of its
// own at the top level.
const mdSentinel = "piexport-end-of-text"

// markdownEdits lists the edits src needs (see safeMarkdown); ok is false
// when src needs a change this function cannot make.
func markdownEdits(src string) (edits []mdEdit, ok bool) {
	source := []byte(src + "\n\n" + mdSentinel + "\n")
	root := gfm.Parser().Parse(text.NewReader(source))
	ok = true
	escape := func(pos int, want byte) {
		if pos < 0 || pos >= len(src) || source[pos] != want || escapedAt(source, pos) {
			ok = false
			return
		}
		edits = append(edits, mdEdit{at: pos, end: pos, text: `\`})
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			edits = append(edits, htmlBlockEdits(source[:len(src)], n)...)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			escape(n.Pos(), '<')
		case *ast.Link:
			if !markdownURLAllowed(n.Destination) {
				escape(n.Pos(), '[')
			}
		case *ast.Image:
			if !markdownURLAllowed(n.Destination) {
				p := n.Pos()
				if p >= 0 {
					p++ // past the "!"
				}
				escape(p, '[')
			}
		case *ast.AutoLink:
			// Autolinks found in bare text (www., http://, e-mail
			// addresses) have safe schemes; only <scheme:...> can hold
			// any scheme.
			if p := n.Pos(); p >= 0 && p < len(src) && source[p] == '<' &&
				n.AutoLinkType == ast.AutoLinkURL && !markdownURLAllowed(n.URL(source)) {
				escape(p, '<')
			}
		case *ast.LinkReferenceDefinition:
			// A definition applies to the whole document, so a bad one
			// must go even when this text does not use it.
			if !markdownURLAllowed(n.Destination) {
				escape(n.Pos(), '[')
			}
		case *ast.Text:
			if n.HardLineBreak() {
				edits = append(edits, hardBreakEdit(source, n.Segment.Stop)...)
			}
		}
		return ast.WalkContinue, nil
	})
	if !ok || len(edits) > 0 {
		return edits, ok
	}
	last := root.LastChild()
	for last != nil && last.Kind() == extast.KindFootnoteList {
		// The footnote extension moves definitions to the end.
		last = last.PreviousSibling()
	}
	switch last := last.(type) {
	case *ast.Paragraph:
		if last.Lines().Len() == 1 && last.Lines().At(0).Start == len(src)+2 {
			return nil, true
		}
	case *ast.FencedCodeBlock:
		// A fence left open runs to the end of the document: close it with
		// a fence of the same character and length.
		p := last.Pos()
		if p < 0 || p >= len(src) || source[p] != '`' && source[p] != '~' {
			return nil, false
		}
		n := 0
		for p+n < len(src) && source[p+n] == source[p] {
			n++
		}
		return []mdEdit{{at: len(src), end: len(src), text: "\n" + strings.Repeat(string(source[p]), n)}}, true
	}
	return nil, false
}

// htmlBlockEdits escapes the "<" that opens an HTML block, and the one
// opening each later line that could open a block of its own once the
// block is text. It stops at a blank line or one that could be a fence:
// the lines after it may be code once the block is gone, and code must
// stay as written; the next round sees them as they then are.
func htmlBlockEdits(src []byte, n *ast.HTMLBlock) []mdEdit {
	var edits []mdEdit
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		if seg.Start >= len(src) {
			break
		}
		line := src[seg.Start:min(seg.Stop, len(src))]
		indent := len(line) - len(bytes.TrimLeft(line, " \t"))
		rest := line[indent:]
		if i > 0 && (len(bytes.TrimSpace(rest)) == 0 ||
			indent < 4 && (bytes.HasPrefix(rest, []byte("```")) || bytes.HasPrefix(rest, []byte("~~~")))) {
			break
		}
		if p := seg.Start + indent; len(rest) > 0 && rest[0] == '<' && !escapedAt(src, p) {
			edits = append(edits, mdEdit{at: p, end: p, text: `\`})
		}
	}
	return edits
}

// hardBreakEdit turns the trailing spaces of a hard line break that ends
// at stop into a backslash, the other way to write it.
func hardBreakEdit(source []byte, stop int) []mdEdit {
	end := stop
	for end < len(source) && (source[end] == ' ' || source[end] == '\t') {
		end++
	}
	if end == stop || end >= len(source) || source[end] != '\n' {
		return nil
	}
	if escapedAt(source, stop) {
		// "a\  " is a literal backslash, then the break.
		return []mdEdit{{at: stop, end: end, text: ` \`}}
	}
	return []mdEdit{{at: stop, end: end, text: `\`}}
}

// escapedAt reports whether source[i] follows an odd number of
// backslashes, that is, is escaped.
func escapedAt(source []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && source[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

func applyEdits(src string, edits []mdEdit) string {
	slices.SortStableFunc(edits, func(a, b mdEdit) int { return a.at - b.at })
	var b strings.Builder
	b.Grow(len(src) + len(edits))
	last := 0
	for _, e := range edits {
		if e.at < last {
			continue // overlaps an edit already made; the next round rechecks
		}
		b.WriteString(src[last:e.at])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

// markdownURLAllowed reports whether a link destination, as a renderer
// will read it after resolving backslash escapes and character
// references, is http, https, mailto or relative (render.AllowedURL).
func markdownURLAllowed(dest []byte) bool {
	d := util.UnescapePunctuations(dest)
	d = util.ResolveNumericReferences(d)
	d = util.ResolveEntityNames(d)
	return render.AllowedURL(d)
}

// MarkdownIndexItem is one session in the index of an archive of
// Markdown exports (WriteMarkdownIndex).
type MarkdownIndexItem struct {
	// Title is the session's name or first user message.
	Title string
	// Link is the session's document, a URL or a path relative to the
	// index; bytes that a Markdown link cannot hold are percent-encoded.
	Link string
	// Date is when the session started; zero when unknown.
	Date time.Time
	// Project is the session's working directory, with ~ for home.
	Project string
	// Messages counts the session's user, assistant and tool result
	// messages; Cost is what its assistant messages cost, in dollars.
	Messages int
	Cost     float64
}

// WriteMarkdownIndex writes the index of an archive of Markdown exports:
// one table row per item, in the order given, linking to each document.
func WriteMarkdownIndex(w io.Writer, items []MarkdownIndexItem) error {
	var b strings.Builder
	b.WriteString("# Sessions\n\n")
	if len(items) == 0 {
		b.WriteString("No sessions.\n")
	} else {
		b.WriteString("| Session | Date | Project | Messages | Cost |\n| --- | --- | --- | ---: | ---: |\n")
	}
	for _, it := range items {
		title := mdInline(it.Title)
		if title == "" {
			title = "(untitled)"
		}
		if link := markdownLink(it.Link); link != "" {
			title = "[" + title + "](" + link + ")"
		}
		date := ""
		if !it.Date.IsZero() {
			date = it.Date.UTC().Format("2006-01-02 15:04")
		}
		cells := []string{title, date, mdInline(it.Project), strconv.Itoa(it.Messages), humanize.Cost(it.Cost)}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	_, err := io.WriteString(w, string(trimLineEnds([]byte(b.String()))))
	return err
}

// markdownLink makes link safe as a link destination in a table cell, or
// returns "" when it is not a URL the document may link to.
func markdownLink(link string) string {
	link = strings.TrimSpace(link)
	if link == "" || !markdownURLAllowed([]byte(link)) {
		return ""
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(link); i++ {
		c := link[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~/:?#=+,;@!$'*%", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
