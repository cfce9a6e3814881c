package gfm

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// mdFixRounds bounds safeMarkdown's edit-and-reparse rounds; text that
// still needs edits after them is shown as source in a fence.
const mdFixRounds = 32

// githubMarkdown parses Markdown the way GitHub renders it (tables, strikethrough,
// autolinks, task lists, footnotes). Only its parser is used, to check
// text before it is written; built once, since goldmark parsers are
// stateless.
var githubMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

// otherReadings are githubMarkdown less tables, less footnotes, and less
// both: the other ways a renderer may read text that holds a "|" or a
// "[^", each made when the text holds what it is for. safeMarkdown makes
// the edits of every reading.
//
// GitHub's renderer (cmark-gfm) and goldmark disagree on what is a table
// (lines a list item or quote takes lazily, a header row short of cells,
// control characters): content goldmark puts in a cell, or drops as a
// cell past the header's, is then a paragraph on GitHub, where backticks
// pair across the pipes and a "<" in what was a cell's code span, or in
// a dropped cell, is raw HTML. And many renderers (cmark-gfm's own
// command, by default) have no footnotes: there "[^1]: x" is a link
// definition, and the lines after it may be definitions too, where with
// footnotes they are the note's text.
var otherReadings = []struct {
	md    goldmark.Markdown
	needs func(src []byte) bool
}{
	{goldmark.New(goldmark.WithExtensions(extension.Linkify, extension.Strikethrough, extension.TaskList, extension.Footnote)), hasTableChar},
	{goldmark.New(goldmark.WithExtensions(extension.GFM)), hasFootnoteChars},
	{goldmark.New(goldmark.WithExtensions(extension.Linkify, extension.Strikethrough, extension.TaskList)), func(src []byte) bool {
		return hasTableChar(src) && hasFootnoteChars(src)
	}},
}

func hasTableChar(src []byte) bool     { return bytes.IndexByte(src, '|') >= 0 }
func hasFootnoteChars(src []byte) bool { return bytes.Contains(src, []byte("[^")) }

// safeMarkdown returns session text as Markdown that renders as written
// and stays inside the place it is written to. It parses the text as
// GitHub would and edits it where needed, then parses again, until no edit
// is needed. An edit writes a character as its character reference
// (refEdit: "&lt;", "&#91;"), which is text in every renderer and reads
// as the character, where a backslash escape is CommonMark's alone:
//   - raw HTML has its "<" written "&lt;" (in an HTML block, the "<" of
//     each line that could start a block), so it shows as the text it
//     is; so does every "<" in text that could open HTML to another
//     renderer (see opensHTML), and every such "<" that begins a line
//     outside code (see htmlLineStarts);
//   - a code span that runs over lines is put on one (foldCodeSpan);
//   - a heading is made a bold line (boldHeading);
//   - a backtick that opens no code span is a reference, since after
//     one GitHub's renderer reads some later code spans as text;
//   - links, images, autolinks and link reference definitions whose URL
//     is not http, https, mailto or relative (for a site, not http,
//     https or mailto) have their bracket written "&#91;": the text
//     stays, the link goes; so do those that GitHub does not read as
//     links (see linkKept);
//   - an image becomes a link, "![x](u)" becoming "[image: x](u)", as on
//     the HTML page: a document must not load anything when it is read
//     (a remote image is a tracking pixel);
//   - a bare autolink followed by a backslash, a backtick or a reference
//     is broken ("https&#58;//", "www&#46;"): GitHub's renderer
//     (cmark-gfm) takes them into the link, and then the "<" a backslash
//     escaped, or the "<" in what goldmark sees as a code span, opens raw
//     HTML (see runOnLinkEdits);
//   - a table whose header row has fewer cells than its delimiter row,
//     which GitHub reads as a paragraph, is kept from being a table (see
//     unpaddedTable);
//   - text with a "|" or a "[^" in it is read again, without tables or
//     footnotes, and the edits of every reading are made (see
//     otherReadings);
//   - a fence left open at the end is closed, so that it does not swallow
//     the rest of the document;
//   - hard line breaks written as trailing spaces become backslashes
//     (CommonMark's other hard break), so the document has no trailing
//     whitespace;
//   - for Hugo, "{" and "}" of text are references (reading.braces).
//
// Control characters but tab and newline are shown as their control
// pictures first (see showControls). Text that still needs edits after
// mdFixRounds rounds is shown as its source, fenced.
func safeMarkdown(src string) string { return safeMarkdownFor(src, githubReading) }

// reading is how an engine reads session text: its parser, and what else
// its text may not hold.
type reading struct {
	md goldmark.Markdown
	// braces: "{" and "}" of text become references.
	braces bool
	// absolute: a link keeps its destination only when it is absolute
	// (siteURLAllowed): in a site, a link relative to the session's
	// project leads nowhere, and Docusaurus fails the build on one.
	absolute bool
}

var githubReading = &reading{md: githubMarkdown}

// safeMarkdownFor is safeMarkdown for the engine that reads text as r.
func safeMarkdownFor(src string, r *reading) string {
	src = trimBlankLines(showControls(normaliseNewlines(src)))
	if src == "" {
		return ""
	}
	for range mdFixRounds {
		edits, ok := markdownEdits(src, r)
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

// refEdit writes the character c at src[at] as its character reference,
// which keeps it from being syntax and, unlike a backslash escape, reads
// as the character in every renderer.
func refEdit(at int, c byte) mdEdit { return mdEdit{at: at, end: at + 1, text: charRef(c)} }

// mdSentinel is a paragraph placed after the text while checking it: the
// text is contained exactly when the sentinel is still a paragraph of its
// own at the top level.
const mdSentinel = "piexport-end-of-text"

// markdownEdits lists the edits src needs (see safeMarkdown); ok is false
// when src needs a change this function cannot make.
func markdownEdits(src string, rd *reading) (edits []mdEdit, ok bool) {
	source := []byte(src + "\n\n" + mdSentinel + "\n")
	root := rd.md.Parser().Parse(text.NewReader(source))
	edits, ok = treeEdits(source, len(src), root, rd)
	for _, r := range otherReadings {
		// Where the readings agree, their edits are the same, made once.
		if r.needs(source[:len(src)]) {
			more, moreOK := treeEdits(source, len(src), r.md.Parser().Parse(text.NewReader(source)), rd)
			edits, ok = append(edits, more...), ok && moreOK
		}
	}
	if !ok || len(edits) > 0 {
		return edits, ok
	}
	return containedEdits(source, len(src), root)
}

// treeEdits lists the edits that the text source[:n] needs where root,
// goldmark's reading of source, finds raw HTML, a bad link or image, or a
// place GitHub reads otherwise; ok is false when it needs a change this
// function cannot make.
func treeEdits(source []byte, n int, root ast.Node, rd *reading) (edits []mdEdit, ok bool) {
	braces := rd.braces
	kept := func(dest []byte) bool { return linkKept(dest) && (!rd.absolute || siteURLAllowed(dest)) }
	src := source[:n]
	ok = true
	broken := map[int]bool{}
	// The bytes goldmark reads as code or as an HTML block (inBlock) and
	// as code spans (inSpan), made when the first is seen.
	var inBlock, inSpan []bool
	mark := func(in *[]bool, seg text.Segment) {
		if *in == nil {
			*in = make([]bool, len(src))
		}
		for p := seg.Start; p < min(seg.Stop, len(src)); p++ {
			(*in)[p] = true
		}
	}
	markLines := func(lines *text.Segments) {
		for i := range lines.Len() {
			mark(&inBlock, lines.At(i))
		}
	}
	var autolinks []int // where the "<" of each <scheme:...> is
	// The "[" goldmark left as text, by the block they are in.
	brackets := map[ast.Node][]int{}
	// Edits after which goldmark reads the lines as they are: the rest of
	// this reading is wrong until they are made.
	var misread []mdEdit
	escape := func(pos int, want byte) {
		if pos < 0 || pos >= len(src) || source[pos] != want || escapedAt(source, pos) {
			ok = false
			return
		}
		edits = append(edits, refEdit(pos, want))
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			markLines(n.Lines())
			edits = append(edits, htmlBlockEdits(source[:len(src)], n)...)
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			escape(n.Pos(), '<')
		case *ast.Link:
			if !kept(n.Destination) {
				escape(n.Pos(), '[')
			}
		case *ast.Image:
			p := n.Pos()
			switch {
			case !kept(n.Destination):
				if p >= 0 {
					p++ // past the "!"
				}
				escape(p, '[')
			case p >= 0 && p+1 < len(src) && source[p] == '!' && source[p+1] == '[' && !escapedAt(source, p):
				edits = append(edits, mdEdit{at: p, end: p + 2, text: "[image: "})
			default:
				ok = false
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			markLines(n.Lines())
		case *ast.Heading:
			more, found := boldHeading(source[:len(src)], n)
			edits, ok = append(edits, more...), ok && found
		case *ast.CodeSpan:
			var segs []text.Segment
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, isText := c.(*ast.Text); isText {
					mark(&inSpan, t.Segment)
					segs = append(segs, t.Segment)
				}
			}
			edits = append(edits, foldCodeSpan(source[:len(src)], segs)...)
		case *ast.AutoLink:
			autolinks = append(autolinks, n.Pos())
			if n.AutoLinkType != ast.AutoLinkURL || markdownURLAllowed(n.URL(source)) {
				break
			}
			if p := n.Pos(); p >= 0 && p < len(src) && source[p] == '<' {
				escape(p, '<') // <scheme:...>
				break
			}
			// A bare one found in text (ftp://...): its label is a slice
			// of source; the colon of its "://" is written "&#58;".
			label := n.Label(source)
			start := cap(source) - cap(label)
			i := bytes.Index(label, []byte("://"))
			if start < 0 || start+len(label) > len(src) || !bytes.Equal(source[start:start+len(label)], label) || i < 0 {
				ok = false
				break
			}
			if !broken[start+i] {
				broken[start+i] = true
				edits = append(edits, refEdit(start+i, ':'))
			}
		case *extast.TableHeader:
			if e, found := unpaddedTable(source[:len(src)], n); !found {
				ok = false
			} else if e != nil {
				edits = append(edits, *e)
			}
		case *ast.LinkReferenceDefinition:
			// A definition applies to the whole document, so a bad one
			// must go even when this text does not use it.
			if !kept(n.Destination) || definitionBeforeTable(src, n) {
				escape(n.Pos(), '[')
			}
		case *ast.Text:
			for p := n.Segment.Start; p < min(n.Segment.Stop, len(src)); p++ {
				switch {
				case inCode(n):
				case source[p] == '`' && !escapedAt(source, p):
					// A backtick that opens no code span, each of a run.
					// cmark-gfm notes, per paragraph, where it last saw
					// a run of each length, to give up early on one that
					// has no closer; once one has none, a later code
					// span of a length seen since is read as a lone
					// backtick, so that in
					//	``
					//	`a` `<b>`
					// the <b> is in a code span for goldmark (and the
					// spec) and raw HTML on GitHub. Escaped, it opens
					// nothing, cmark-gfm never gives up, and the two read
					// the same code spans.
					edits = append(edits, refEdit(p, '`'))
				case source[p] == '[' && !escapedAt(source, p):
					brackets[blockOf(n)] = append(brackets[blockOf(n)], p)
				case source[p] == '<' && opensHTML(source, p) && !escapedAt(source, p):
					// Text to goldmark, but maybe raw HTML to GitHub: see
					// opensHTML.
					edits = append(edits, refEdit(p, '<'))
				case braces && (source[p] == '{' || source[p] == '}') && !escapedAt(source, p):
					edits = append(edits, refEdit(p, source[p]))
				case (source[p] == 'f' || source[p] == 'F') && p+6 <= len(src) && bytes.EqualFold(source[p:p+6], []byte("ftp://")) && !broken[p+3] && !escapedAt(source, p+3):
					// GitHub links ftp:// in text; the allow-list has no ftp.
					broken[p+3] = true
					edits = append(edits, refEdit(p+3, ':'))
				}
			}
			if n.HardLineBreak() {
				edits = append(edits, hardBreakEdit(source, n.Segment.Stop)...)
			} else if !inCode(n) {
				misread = append(misread, backslashesBeforeNewline(src, n.Segment.Stop)...)
			}
		}
		return ast.WalkContinue, nil
	})
	if len(misread) > 0 {
		return misread, true
	}
	edits = append(edits, runOnLinkEdits(source[:len(src)], inBlock, inSpan, broken)...)
	edits = append(edits, strayBracketEdits(brackets)...)
	starts := htmlLineStarts(source[:len(src)])
	for _, p := range autolinks {
		delete(starts, p)
	}
	for p := range starts {
		// One in a code span is folded onto the line before (foldCodeSpan).
		if (inBlock == nil || !inBlock[p]) && (inSpan == nil || !inSpan[p]) && !escapedAt(source, p) {
			edits = append(edits, refEdit(p, '<'))
		}
	}
	return edits, ok
}
