package gfm

// docusaurusTarget writes for Docusaurus 3, which reads Markdown as MDX:
// "{" starts an expression, "<" JSX, a line starting "import" or "export"
// code, so session text is written anew (canonical) with each as a
// character reference, and code only in fences and backtick spans. Parts
// are <details> elements, each tag on a line of its own (MDX reads a
// <details> followed by more on its line as inline, which then cannot
// span the blank lines around Markdown); anchors are empty <a> elements.
type docusaurusTarget struct{}

func (docusaurusTarget) prose(src string, nested bool) string {
	return canonical(src, dialect{mdx: true}, nested)
}
func (docusaurusTarget) code(lang, content string, _ bool) string { return fenced(lang, content) }

func (docusaurusTarget) openPart(label string, _ partKind) string {
	return "<details>\n<summary>" + mdInline(partLabel(label)) + "</summary>"
}
func (docusaurusTarget) requote(q string) string      { return q }
func (docusaurusTarget) closePart() string            { return "</details>" }
func (docusaurusTarget) partPrefix() (string, string) { return "", "" }
func (docusaurusTarget) anchor(id string) string      { return anchorElement(id) }
func (docusaurusTarget) headingID(string) string      { return "" }
func (docusaurusTarget) metaString(s string) string   { return yamlString(s) }
func (docusaurusTarget) finish(doc []byte) []byte     { return doc }
