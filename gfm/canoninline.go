package gfm

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// The inline content of canonical text: text as references, code spans,
// emphasis, links; and the line starts of a paragraph.

// canonEscapes are the characters text never holds as they are: the
// marks of emphasis, code, links, tables, HTML, JSX, MDX expressions,
// headings, strikethrough and TeX.
const canonEscapes = "\\`*_[]<>&|~#${}"

// inline writes n's inline children; a soft line break is a line end.
func (c *canonWriter) inline(n ast.Node) string {
	var b strings.Builder
	c.inlineChildren(&b, n)
	return b.String()
}

func (c *canonWriter) inlineChildren(b *strings.Builder, n ast.Node) {
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		c.inlineNode(b, k)
	}
}

func (c *canonWriter) inlineNode(b *strings.Builder, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(c.src)
		if !n.IsRaw() {
			v = resolveText(v)
		}
		b.WriteString(c.esc(string(v)))
		switch {
		case n.HardLineBreak() && c.d.mdx:
			b.WriteString("\\\n")
		case n.HardLineBreak():
			b.WriteString("<br>\n")
		case n.SoftLineBreak():
			b.WriteString("\n")
		}
	case *ast.String:
		v := n.Value
		if !n.IsRaw() && !n.IsCode() {
			v = resolveText(v)
		}
		b.WriteString(c.esc(string(v)))
	case *ast.CodeSpan:
		var code strings.Builder
		for k := n.FirstChild(); k != nil; k = k.NextSibling() {
			if t, ok := k.(*ast.Text); ok {
				code.Write(t.Segment.Value(c.src))
			} else if s, ok := k.(*ast.String); ok {
				code.Write(s.Value)
			}
		}
		b.WriteString(c.codeSpan(code.String()))
	case *ast.Emphasis:
		// Written into b, not returned: emphasis can nest as deep as a
		// text has asterisks, and a string per level would copy the text
		// once per level.
		mark, open, end := "*", "<em>", "</em>"
		if n.Level >= 2 {
			mark, open, end = "**", "<strong>", "</strong>"
		}
		if c.d.mdx {
			open, end = mark, mark
		}
		b.WriteString(open)
		c.inlineChildren(b, n)
		b.WriteString(end)
	case *extast.Strikethrough:
		open, end := "<del>", "</del>"
		if c.d.mdx {
			open, end = "~~", "~~"
		}
		b.WriteString(open)
		c.inlineChildren(b, n)
		b.WriteString(end)
	case *ast.Link:
		b.WriteString(c.link(c.inline(n), n.Destination))
	case *ast.Image:
		b.WriteString(c.link("image: "+c.inline(n), n.Destination))
	case *ast.AutoLink:
		url := n.URL(c.src)
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(string(url)), "mailto:") {
			url = append([]byte("mailto:"), url...)
		}
		b.WriteString(c.link(c.esc(string(n.Label(c.src))), url))
	case *ast.RawHTML:
		// A tag of the text is text.
		var raw strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			raw.Write(seg.Value(c.src))
		}
		b.WriteString(c.esc(raw.String()))
	case *extast.TaskCheckBox:
		if n.IsChecked {
			b.WriteString("&#91;x&#93; ")
		} else {
			b.WriteString("&#91; &#93; ")
		}
	case *extast.FootnoteLink:
		b.WriteString(noteMark(n.Index))
	case *extast.FootnoteBacklink:
	default:
		b.WriteString(c.inline(n))
	}
}

// codeSpan writes a code span: for MDX in backticks, its text as it is; for
// Python-Markdown as a <code> element, its text escaped, since
// Python-Markdown finds fences before code spans, and without CommonMark's
// rule that a fence's info string holds no backtick: a line that starts
// with a span of three backticks would open one, and what follows would
// be read otherwise.
func (c *canonWriter) codeSpan(s string) string {
	if c.d.mdx {
		return codeSpan(s)
	}
	if s = foldLine(s); s == "" {
		return ""
	}
	return "<code>" + c.esc(s) + "</code>"
}

// strong marks text bold: with tags for Python-Markdown, whose emphasis
// rules are not CommonMark's; with marks for MDX, where a tag alone on a
// line is a block of its own.
func (c *canonWriter) strong(s string) string {
	if c.d.mdx {
		return "**" + s + "**"
	}
	return "<strong>" + s + "</strong>"
}

// link writes a link to dest with the Markdown text, or the text alone
// when dest is no URL the document may link to.
func (c *canonWriter) link(textMD string, dest []byte) string {
	if !siteURLAllowed(dest) || strings.TrimSpace(textMD) == "" {
		return textMD
	}
	d := resolveText(dest)
	return "[" + strings.ReplaceAll(textMD, "\n", " ") + "](" + canonDest(string(d)) + ")"
}

// canonDest writes a link's destination with nothing a reader could take
// for syntax: brackets, parentheses, quotes, braces, pipes and spaces
// percent-encoded, "&" a reference.
func canonDest(d string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(d); i++ {
		ch := d[i]
		switch {
		case ch == '&':
			b.WriteString("&amp;")
		case ch <= ' ' || ch >= 0x7f || strings.IndexByte("<>()[]{}\"'`|\\^*_", ch) >= 0:
			b.WriteByte('%')
			b.WriteByte(hex[ch>>4])
			b.WriteByte(hex[ch&15])
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// hardLines joins escaped lines with hard line breaks.
func (c *canonWriter) hardLines(lines []string) string {
	br := "<br>\n"
	if c.d.mdx {
		br = "\\\n"
	}
	for i, l := range lines {
		lines[i] = c.esc(strings.TrimSpace(l))
	}
	return strings.Join(lines, br)
}

// esc writes text as text: each character that could be syntax a
// character reference (see canonEscapes). Line starts are seen to by
// lines.
func (c *canonWriter) esc(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if ch := s[i]; strings.IndexByte(canonEscapes, ch) >= 0 {
			b.WriteString(charRef(ch))
		} else {
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// lines makes each line of a paragraph start as text: a line that could
// start a list item, a heading's underline, a directive or MDX's
// import/export gets its first character as a reference; leading white
// space goes (it could make code).
func (c *canonWriter) lines(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		l = strings.TrimLeft(l, " \t")
		switch {
		case l == "":
		case strings.IndexByte("-+=:", l[0]) >= 0,
			strings.HasPrefix(l, "???") || strings.HasPrefix(l, "!!!"):
			// "???" and "!!!" start a collapsible and an admonition in
			// MkDocs, ":::" one in Docusaurus.
			l = charRef(l[0]) + l[1:]
		case l[0] >= '0' && l[0] <= '9':
			d := 0
			for d < len(l) && l[d] >= '0' && l[d] <= '9' {
				d++
			}
			if d < len(l) && (l[d] == '.' || l[d] == ')') {
				l = l[:d] + charRef(l[d]) + l[d+1:]
			}
		case c.d.mdx && (strings.HasPrefix(l, "import") || strings.HasPrefix(l, "export")):
			l = charRef(l[0]) + l[1:]
		}
		ls[i] = l
	}
	return strings.Join(ls, "\n")
}

// noteMark is how a footnote is referred to: "[1]", as text.
func noteMark(n int) string { return "&#91;" + strconv.Itoa(n) + "&#93;" }

// resolveText is text as a renderer reads it: backslash escapes and
// character references resolved.
func resolveText(v []byte) []byte {
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	return util.ResolveEntityNames(v)
}

// prefixLines starts every line of s with prefix, a blank one with blank.
func prefixLines(s, prefix, blank string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		if strings.TrimSpace(l) == "" {
			ls[i] = blank
		} else {
			ls[i] = prefix + l
		}
	}
	return strings.Join(ls, "\n")
}
