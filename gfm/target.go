package gfm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/piexport/piexport/humanize"
)

// Targets lists the engines a document can be written for
// (Options.Target): GitHub (and any CommonMark renderer), MkDocs with
// Material, Hugo, Docusaurus 3.
var Targets = []string{"github", "mkdocs", "hugo", "docusaurus"}

// target is what differs between the engines a document is written for:
// how session text and code are written, how a part that the page folds
// (thinking, a tool call, hidden context) is set apart, and how an entry
// is given an anchor. The entry writers call it through mdWriter, and
// write everything else, their own Markdown, alike for every engine.
type target interface {
	// prose writes session Markdown to read as written and as text, in
	// the engine; nested says it goes inside a part or a quote.
	prose(src string, nested bool) string
	// code writes a code block of content, in language lang.
	code(lang, content string, nested bool) string
	// openPart writes what starts a part of the kind, labelled by label
	// (plain text); closePart what ends it. Every line of the blocks
	// between starts with partPrefix's line, or is blank.
	openPart(label string, kind partKind) string
	closePart() string
	partPrefix() (line, blank string)
	// anchor writes the block that gives the next thing written the
	// element id id; "" when the engine has ids on headings only, which
	// headingID then writes after a heading's text.
	anchor(id string) string
	headingID(id string) string
	// requote writes again a blockquote made of prose's output, for an
	// engine whose prose edits text in place: a line may mean something
	// else once it starts with "> ".
	requote(quoted string) string
	// metaString writes a string of the front matter, YAML-quoted.
	metaString(s string) string
	// finish makes the last changes to the whole document.
	finish(doc []byte) []byte
}

// partKind says what a part holds, for an engine that styles each kind.
type partKind int

const (
	partThinking partKind = iota
	partTool
	partContext // a system prompt, hidden context, what an agent was told
	partData    // JSON of what the document has no view for
)

// targetFor is the target named name ("" is GitHub's).
func targetFor(name string) (target, error) {
	switch name {
	case "", "github":
		return githubTarget{}, nil
	case "mkdocs":
		return mkdocsTarget{}, nil
	case "hugo":
		return hugoTarget{}, nil
	case "docusaurus":
		return docusaurusTarget{}, nil
	}
	return nil, fmt.Errorf("unknown Markdown target %q (want %s)", name, strings.Join(Targets, ", "))
}

// ValidTarget reports whether name is one of Targets.
func ValidTarget(name string) bool { return slices.Contains(Targets, name) }

// githubTarget writes for GitHub and other CommonMark renderers: session
// text edited where cmark-gfm could read it otherwise (safeMarkdown),
// parts as <details> blocks with Markdown inside, anchors as empty <a>
// elements (GitHub prefixes their ids with "user-content-" and resolves
// "#id" to them).
type githubTarget struct{}

func (githubTarget) prose(src string, _ bool) string          { return safeMarkdown(src) }
func (githubTarget) code(lang, content string, _ bool) string { return fenced(lang, content) }

// openPart's summary is the one piece of session text that lands in
// HTML, so it is escaped as HTML and kept on one line (a blank line would
// end the HTML block). GitHub renders Markdown inside only after a blank
// line, which block writes.
func (githubTarget) openPart(label string, _ partKind) string {
	return "<details><summary>" + summaryEscaper.Replace(partLabel(label)) + "</summary>"
}
func (githubTarget) requote(q string) string      { return safeMarkdown(q) }
func (githubTarget) closePart() string            { return "</details>" }
func (githubTarget) partPrefix() (string, string) { return "", "" }
func (githubTarget) anchor(id string) string      { return anchorElement(id) }
func (githubTarget) headingID(string) string      { return "" }
func (githubTarget) metaString(s string) string   { return yamlString(s) }
func (githubTarget) finish(doc []byte) []byte     { return doc }

// summaryEscaper escapes the characters that matter in HTML text; quotes
// only matter in attributes, and left alone they keep the file readable.
var summaryEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// partLabel is a part's label on one line, cut to a length a summary
// line can show.
func partLabel(label string) string { return humanize.OneLine(foldLine(label), 300) }

// anchorElement is an empty element with the id id, on a line of its
// own: <a id="..."></a>, which HTML, Python-Markdown and MDX all keep.
// The id holds only characters that need no escaping (anchorID).
func anchorElement(id string) string { return `<a id="` + id + `"></a>` }
