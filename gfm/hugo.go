package gfm

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// hugoTarget writes for Hugo with its defaults: goldmark, raw HTML off
// (it drops every tag, <details> and <summary> with the rest), ids on
// headings written "{#id}", and shortcodes read before Markdown. So
// nothing is HTML: a part is its label as a bold line and its content,
// open, in a blockquote; an entry's anchor is a heading's id (a part's
// label, a note, or a small heading naming the entry). Session text is
// edited where goldmark, as Hugo configures it, would read it as more
// than text (hugoReading), and its "{" and "}" are references, so that
// no "{...}" after a heading sets attributes. finish makes every
// shortcode delimiter left, in code, a shortcode comment, which Hugo
// writes out as the text it holds.
type hugoTarget struct{}

// hugoMarkdown parses Markdown as Hugo's goldmark does by default: GFM,
// footnotes, definition lists. (Attributes are read too, but "{" is never
// left in text to start one.)
var hugoMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote, extension.DefinitionList))

var hugoReading = &reading{md: hugoMarkdown, braces: true, absolute: true}

func (hugoTarget) prose(src string, _ bool) string          { return safeMarkdownFor(src, hugoReading) }
func (hugoTarget) code(lang, content string, _ bool) string { return fenced(lang, content) }
func (hugoTarget) openPart(label string, _ partKind) string {
	return "**" + mdInline(partLabel(label)) + "**"
}
func (hugoTarget) requote(q string) string      { return safeMarkdownFor(q, hugoReading) }
func (hugoTarget) closePart() string            { return "" }
func (hugoTarget) partPrefix() (string, string) { return "> ", ">" }
func (hugoTarget) anchor(string) string         { return "" }
func (hugoTarget) headingID(id string) string   { return " {#" + id + "}" }
func (hugoTarget) metaString(s string) string   { return yamlString(s) }
func (hugoTarget) finish(doc []byte) []byte     { return hugoShortcodes(doc) }

// hugoSummaryDivider is where Hugo's summary of a page ends. Hugo's page
// lexer takes the first one in the file out of it, wherever it is (in a
// code block too), so the document writes its own before any session
// text: one in the text is then kept as text.
const hugoSummaryDivider = "<!--more-->"

// hugoNoFrontMatter starts a Hugo document that has no front matter. The
// page lexer reads a file's first character for the front matter's kind:
// "#" would make it Org mode's, whose summary divider is "# more"; "<"
// a commented-out front matter, which would run to the next "-->" in the
// file. A link definition that nothing uses shows nothing.
const hugoNoFrontMatter = "[piexport]: #"

// hugoShortcodes makes each shortcode delimiter in doc ("{{<", "{{%",
// left in code, since text has its "{" as a reference) the start of a
// shortcode comment, "{{</*", closed by "*/>}}" at the first ">}}" after
// it, or, without one, in a link definition added at the end. Hugo's page
// lexer writes a comment out as the text it holds between the
// delimiters, "{{<" and ">}}" included, and reads nothing inside it as a
// shortcode: the text reads exactly as written, and an unclosed "{{<"
// does not fail the build. doc is read as the lexer reads it: from the
// start, a comment running to its first "*/>}}" (the text inside never
// holds one: it ends at the first ">}}").
func hugoShortcodes(doc []byte) []byte {
	var out []byte
	for {
		i := shortcodeStart(doc)
		if i < 0 {
			return append(out, doc...)
		}
		if out == nil {
			out = make([]byte, 0, len(doc)+64)
		}
		right := []byte(">}}")
		if doc[i+2] == '%' {
			right = []byte("%}}")
		}
		out = append(out, doc[:i+3]...)
		out = append(out, "/*"...)
		doc = doc[i+3:]
		j := bytes.Index(doc, right)
		if j < 0 {
			out = append(out, doc...)
			out = append(out, "\n[piexport-shortcode]: #*/"...)
			return append(append(out, right...), '\n')
		}
		out = append(out, doc[:j]...)
		out = append(out, "*/"...)
		out = append(out, right...)
		doc = doc[j+len(right):]
	}
}

// shortcodeStart is where the first "{{<" or "{{%" of doc is, or -1.
func shortcodeStart(doc []byte) int {
	for off := 0; ; {
		i := bytes.Index(doc[off:], []byte("{{"))
		if i < 0 {
			return -1
		}
		i += off
		// "{{{<": the lexer moves on a byte at a time.
		for i+2 < len(doc) && doc[i+2] == '{' {
			i++
		}
		if i+2 < len(doc) && (doc[i+2] == '<' || doc[i+2] == '%') {
			return i
		}
		off = i + 2
	}
}

// begin is what a Hugo document starts with, after its front matter:
// the summary divider, before any session text.
func (hugoTarget) begin(frontMatter bool) string {
	if frontMatter {
		return hugoSummaryDivider
	}
	return hugoNoFrontMatter + "\n" + hugoSummaryDivider
}
