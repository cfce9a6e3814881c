package gfm

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Session text for the engines that do not read Markdown as GitHub does:
// Python-Markdown (MkDocs), which knows no CommonMark escape, passes raw
// HTML through, nests lists by four spaces and finds block HTML before it
// finds code; and MDX (Docusaurus), which reads "{" as an expression, "<"
// as JSX and a line starting "import" as code. Editing the text where
// goldmark reads it wrongly, as safeMarkdown does for GitHub and Hugo,
// would leave the text as written wherever a reader of another kind could
// read it otherwise. So the text is written anew from goldmark's reading,
// in a form both read alike: every character of text that could be syntax
// a character reference, code in fences or backtick spans whose backticks
// are the only ones in the text, lists indented by four, no HTML of the
// text's own. The words, code and links stay; how the source spelled them
// (which list marker, which emphasis mark) does not.

// dialect is how one engine's reader wants canonical Markdown written.
type dialect struct {
	// mdx: MDX rather than Python-Markdown.
	mdx bool
}

// canonical writes src, session Markdown, anew for d. nested says the
// text goes inside a part or a quote, where Python-Markdown reads no
// fence (its fences are found before blocks are): code is indented there.
func canonical(src string, d dialect, nested bool) string {
	src = trimBlankLines(showControls(normaliseNewlines(src)))
	if src == "" {
		return ""
	}
	source := []byte(src)
	root := githubMarkdown.Parser().Parse(text.NewReader(source))
	c := &canonWriter{src: source, d: d, nested: nested}
	return strings.TrimRight(c.blocks(root), "\n")
}

// canonWriter writes one text.
type canonWriter struct {
	src    []byte
	d      dialect
	nested bool
	// notes are the text's footnotes, written after it.
	notes []string
}

// blocks writes the block children of n, separated by blank lines, or
// by line ends in an item of a tight list (but before indented code,
// which Python-Markdown finds only after a blank line).
func (c *canonWriter) blocks(n ast.Node) string {
	tight := false
	if l, ok := n.Parent().(*ast.List); ok && n.Kind() == ast.KindListItem {
		tight = l.IsTight
	}
	var b strings.Builder
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		part := c.block(k, n.Kind() != ast.KindDocument)
		switch {
		case part == "":
			continue
		case b.Len() == 0:
		case tight && !strings.HasPrefix(part, "    "):
			b.WriteString("\n")
		default:
			b.WriteString("\n\n")
		}
		b.WriteString(part)
	}
	if n.Kind() == ast.KindDocument && len(c.notes) > 0 {
		b.WriteString("\n\n---\n\n" + strings.Join(c.notes, "\n\n"))
	}
	return b.String()
}

// block writes one block; inside says it is in a list item or quote.
func (c *canonWriter) block(n ast.Node, inside bool) string {
	if n.Type() == ast.TypeInline {
		// An inline where a block was wanted: goldmark puts a footnote's
		// backlink after its last block when that is no paragraph.
		var b strings.Builder
		c.inlineNode(&b, n)
		return c.lines(b.String())
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return c.lines(c.inline(n))
	case *ast.Heading:
		// A heading of the text is a bold line: see boldHeading.
		if t := c.inline(n); strings.TrimSpace(t) != "" {
			return c.lines(c.strong(t))
		}
		return ""
	case *ast.ThematicBreak:
		return "---"
	case *ast.FencedCodeBlock:
		lang := ""
		if n.Info != nil {
			lang, _, _ = strings.Cut(string(n.Info.Segment.Value(c.src)), " ")
		}
		return c.code(lang, c.rawLines(n), inside)
	case *ast.CodeBlock:
		return c.code("", c.rawLines(n), inside)
	case *ast.HTMLBlock:
		// Raw HTML is text, its lines kept.
		raw := c.rawLines(n)
		if n.HasClosure() {
			raw += string(n.ClosureLine.Value(c.src))
		}
		return c.lines(c.hardLines(strings.Split(strings.TrimRight(raw, "\n"), "\n")))
	case *ast.Blockquote:
		return prefixLines(c.blocks(n), "> ", ">")
	case *ast.List:
		return c.list(n)
	case *extast.Table:
		return c.table(n)
	case *extast.FootnoteList:
		for f := n.FirstChild(); f != nil; f = f.NextSibling() {
			if fn, ok := f.(*extast.Footnote); ok {
				// The mark starts the note's first paragraph, or is one.
				sep := "\n\n"
				if k := fn.FirstChild(); k != nil && (k.Kind() == ast.KindParagraph || k.Kind() == ast.KindTextBlock) {
					sep = " "
				}
				c.notes = append(c.notes, noteMark(fn.Index)+sep+c.blocks(fn))
			}
		}
		return ""
	case *ast.LinkReferenceDefinition:
		return "" // the links that use it carry its destination
	}
	// A kind this writer does not know: its blocks, or its text.
	if n.HasChildren() && n.FirstChild().Type() == ast.TypeBlock {
		return c.blocks(n)
	}
	if n.HasChildren() {
		return c.lines(c.inline(n))
	}
	return c.lines(c.hardLines(strings.Split(strings.TrimRight(c.rawLines(n), "\n"), "\n")))
}

// rawLines is the source of a code or HTML block's lines.
func (c *canonWriter) rawLines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.WriteString(strings.Repeat(" ", seg.Padding))
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

// code writes a code block: fenced, but for Python-Markdown where it is
// nested as a <pre> element on one line (preCode).
func (c *canonWriter) code(lang, content string, inside bool) string {
	if !c.d.mdx && (c.nested || inside) {
		return preCode(content)
	}
	return fenced(fenceInfo(lang), content)
}

// preCode writes code that Python-Markdown must show as it is, wherever
// it is: a <pre> element on one line, its text as references, its line
// ends too. Python-Markdown reads a fence only at a line's start (or, with
// superfences, a fence anywhere, an indented code block's lines too), so
// neither a fence nor indented code is code in every place and
// configuration; a paragraph of one line of references is text in all.
func preCode(content string) string {
	content = strings.TrimRight(normaliseNewlines(content), "\n")
	var b strings.Builder
	b.WriteString("<pre><code>")
	for i := 0; i < len(content); i++ {
		switch ch := content[i]; {
		case ch == '\n':
			b.WriteString("&#10;")
		case ch == '\t':
			b.WriteString("&#9;")
		case strings.IndexByte(canonEscapes, ch) >= 0:
			b.WriteString(charRef(ch))
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteString("</code></pre>")
	return b.String()
}

// list writes a list: each item's marker, then its blocks indented by
// four (Python-Markdown's rule, and CommonMark's for these markers).
func (c *canonWriter) list(l *ast.List) string {
	var items []string
	n := l.Start
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		marker := "-   "
		if l.IsOrdered() {
			marker = strconv.Itoa(n) + "."
			marker += strings.Repeat(" ", max(1, 4-len(marker)))
			n++
		}
		body := c.blocks(it)
		if strings.TrimSpace(body) == "" {
			body = "\u00a0"
		}
		if strings.HasPrefix(body, "    ") {
			// An item that starts with indented code: a line before it.
			body = "\u00a0\n\n" + body
		}
		first, rest, _ := strings.Cut(body, "\n")
		item := marker + first
		if rest != "" {
			item += "\n" + prefixLines(rest, strings.Repeat(" ", max(4, len(marker))), "")
		}
		items = append(items, item)
	}
	sep := "\n"
	if !l.IsTight {
		sep = "\n\n"
	}
	return strings.Join(items, sep)
}

// table writes a GFM table, its cells' text escaped (a "|" too).
func (c *canonWriter) table(t *extast.Table) string {
	var rows []string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, strings.ReplaceAll(c.inline(cell), "\n", " "))
		}
		rows = append(rows, "| "+strings.Join(cells, " | ")+" |")
		if r.Kind() == extast.KindTableHeader {
			var delims []string
			for _, a := range t.Alignments {
				switch a {
				case extast.AlignLeft:
					delims = append(delims, ":---")
				case extast.AlignRight:
					delims = append(delims, "---:")
				case extast.AlignCenter:
					delims = append(delims, ":---:")
				default:
					delims = append(delims, "---")
				}
			}
			rows = append(rows, "| "+strings.Join(delims, " | ")+" |")
		}
	}
	return strings.Join(rows, "\n")
}
