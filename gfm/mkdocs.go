package gfm

import "strings"

// mkdocsTarget writes for MkDocs with Material: Python-Markdown, which
// keeps raw HTML and knows no CommonMark escape, so session text is
// written anew (canonical); parts as pymdownx.details blocks ("??? note
// "label"", the content indented by four), which Material styles as its
// collapsibles. Without pymdownx.details the indented content is a code
// block, and shows as its source; nothing depends on superfences, since
// code in a part is a <pre> element of references (preCode), which reads
// the same in every configuration. (<details markdown="1"> would need
// md_in_html, without which the part is raw HTML whose text is not
// read as Markdown.) Anchors are empty <a> elements, which
// Python-Markdown passes on.
type mkdocsTarget struct{}

func (mkdocsTarget) prose(src string, nested bool) string { return canonical(src, dialect{}, nested) }

func (mkdocsTarget) code(lang, content string, nested bool) string {
	if nested {
		return preCode(content)
	}
	return fenced(lang, content)
}

// openPart's label is read as Markdown in a quoted title: every mark a
// reference, the quote too.
func (mkdocsTarget) openPart(label string, kind partKind) string {
	title := strings.ReplaceAll(mdInline(partLabel(label)), `"`, "&quot;")
	return "??? " + admonitionType[kind] + ` "` + title + `"`
}

// admonitionType is the Material admonition type of each kind of part:
// its colour and icon.
var admonitionType = map[partKind]string{partThinking: "quote", partTool: "example", partContext: "info", partData: "note"}

func (mkdocsTarget) requote(q string) string      { return q }
func (mkdocsTarget) closePart() string            { return "" }
func (mkdocsTarget) partPrefix() (string, string) { return "    ", "" }
func (mkdocsTarget) anchor(id string) string      { return anchorElement(id) }
func (mkdocsTarget) headingID(string) string      { return "" }
func (mkdocsTarget) finish(doc []byte) []byte     { return doc }

// metaString escapes s as HTML too: MkDocs and Material put the front
// matter's title into the page (the <title>, the navigation, the header)
// as it is, as HTML.
func (mkdocsTarget) metaString(s string) string {
	return yamlString(htmlEscaper.Replace(s))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
