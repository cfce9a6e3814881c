package gfm

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// GitHub renders Markdown with cmark-gfm; safeMarkdown reads it with
// goldmark. Where the two read the same text otherwise, what goldmark
// takes for code, a link or a table can be raw HTML on GitHub. The
// functions here find those places (each found by FuzzSafeMarkdown, whose
// documents cmark-gfm checks) and the edits after which both read the
// text alike.

// runOnLinkEdits keeps any autolink from running on over a backslash, a
// backtick or a character reference. GitHub's renderer (cmark-gfm) runs
// a bare link on from its "://" or "www." to the next space or "<",
// whatever lies between:
//   - in "https://a.example/\<img onerror=...>" the backslash goes into
//     the link, and the "<" it escaped opens raw HTML;
//   - in "https://a.ex`mple/<img onerror=...> `" the backtick goes into
//     the link, and the code span that goldmark sees, in which the <img>
//     is left alone, is not one;
//   - in "https://a.example/&lt;img", which safeMarkdown makes of a "<"
//     that could open HTML, the reference goes into the link as it is
//     written, and the link reads "&lt;img".
//
// It writes the colon of every such "://" and the dot of every such
// "www." (in any case: cmark-gfm ignores case there) as a character
// reference: the text reads the same, as text, in every renderer. Those
// in code (inBlock, inSpan: nil when there is none) are no links and
// stay as written. done holds the places already changed in this round.
func runOnLinkEdits(src []byte, inBlock, inSpan []bool, done map[int]bool) []mdEdit {
	var edits []mdEdit
	// From the end back, so that one pass knows whether a backslash, a
	// backtick or a reference lies between each place and the next
	// space or "<".
	runsOn := false
	for at := len(src) - 1; at >= 0; at-- {
		switch c := src[at]; {
		case c == '<' && opensHTML(src, at):
			// Text made a character reference, which the link runs on
			// over: "https://a.example/&lt;img" would be its text.
			runsOn = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '<':
			// Not a vertical tab or form feed: the link runs on over those.
			runsOn = false
		case c == '\\' || c == '`' || c == '&' && refAt(src, at):
			runsOn = true
		}
		if !runsOn || !bytes.HasPrefix(src[at:], []byte("://")) && (at < 3 || !bytes.EqualFold(src[at-3:at+1], []byte("www."))) {
			continue
		}
		if done[at] || escapedAt(src, at) || inBlock != nil && inBlock[at] || inSpan != nil && inSpan[at] {
			continue
		}
		done[at] = true
		edits = append(edits, refEdit(at, src[at]))
	}
	return edits
}

// opensHTML reports whether the "<" at source[p] is followed by what
// could make it open raw HTML in a CommonMark renderer: a letter (a tag),
// "/" (an end tag), "!" (a comment, declaration or CDATA) or "?" (a
// processing instruction). Such a "<" is written "&lt;" even where
// goldmark reads it as text, since GitHub's renderer (cmark-gfm) reads
// more as HTML than goldmark does: goldmark's regular expressions stop
// at U+FFFD, which is what invalid UTF-8 becomes here, and cmark-gfm
// takes "<img src=x\uFFFD onerror=...>" as a tag. (So it did with a
// control character in an attribute value, "<img src=x\x03 ...>", or a
// form feed between attributes, before showControls.) A "<" before
// anything else ("a < b", "x<3") opens nothing and stays.
func opensHTML(source []byte, p int) bool {
	if p+1 >= len(source) {
		return false
	}
	c := source[p+1]
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!' || c == '?'
}

// unpaddedTable keeps a table from being read as one when its header row
// has fewer cells than its delimiter row. goldmark pads such a header
// with empty cells and makes a table; GitHub's renderer (cmark-gfm), as
// the GFM spec says, reads the lines as a paragraph, in which code spans
// pair their backticks across the cells' pipes, so that a "<" goldmark
// sees inside a cell's code span can open raw HTML on GitHub:
//
//	a |
//	|---|---|
//	`x|`<img src=x onerror=alert(1)>`|`
//
// The edit writes the delimiter row's first "-" as "&#45;": neither
// renderer then sees a table, and the text reads as GitHub showed it.
// found is false when the delimiter row is not where it should be.
func unpaddedTable(src []byte, h *extast.TableHeader) (e *mdEdit, found bool) {
	padded := false
	for c := h.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Lines().Len() == 0 { // a cell of the text has a segment, if empty
			padded = true
		}
	}
	if !padded {
		return nil, true
	}
	// The header is one line; the delimiter row is the next, after any
	// blockquote markers and indentation.
	p := h.Pos()
	if p < 0 || p >= len(src) {
		return nil, false
	}
	nl := bytes.IndexByte(src[p:], '\n')
	if nl < 0 {
		return nil, false
	}
	for i := p + nl + 1; i < len(src) && src[i] != '\n'; i++ {
		switch src[i] {
		case '-':
			e := refEdit(i, '-')
			return &e, true
		case ' ', '\t', '>', '|', ':':
		default:
			return nil, false
		}
	}
	return nil, false
}

// htmlLineStarts returns the places of the "<" that begin a line, after
// at most three spaces, and could open raw HTML (opensHTML). At such a
// place cmark-gfm may start an HTML block where goldmark sees none: a
// line that goldmark takes lazily into the paragraph of a quote or list
// item before it ends that paragraph for cmark-gfm, which then starts an
// HTML block even of the kind that cannot interrupt a paragraph:
//
//	> ``
//	</j>
//	> `` <img src=x onerror=alert(1)>
//
// To goldmark "</j>" is inside a code span, where nothing is escaped;
// to cmark-gfm it opens an HTML block that runs on to a blank line. The
// caller leaves out those in code and HTML blocks and autolinks (a code
// span is folded onto one line instead), and writes the rest "&lt;": a
// "<" in a link's destination there then shows as the reference, where
// GitHub would have run raw HTML.
func htmlLineStarts(src []byte) map[int]bool {
	starts := map[int]bool{}
	for i := 0; i < len(src); {
		p := i
		for p < len(src) && p-i < 3 && src[p] == ' ' {
			p++
		}
		if p < len(src) && src[p] == '<' && opensHTML(src, p) {
			starts[p] = true
		}
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
	}
	return starts
}

// linkKept reports whether a link, image or link definition with this
// destination may stay: its URL is allowed, and GitHub's renderer reads
// it as a link too. goldmark takes an unescaped "<" into a destination
// written in angle brackets; the CommonMark spec does not, and cmark-gfm
// reads such a "link" as text, in which what goldmark took for its
// destination can be raw HTML or an image:
//
//	[a](<x<img src=x onerror=alert(1)>)
//
// Such a link loses its bracket, as a disallowed one does, and the next
// round escapes what its text then holds. (A "<" is allowed in a
// destination not in angle brackets, "[a](x<y)", but goldmark's tree does
// not say which form was written; that rare link is lost too.)
func linkKept(dest []byte) bool {
	for i, c := range dest {
		if c == '<' && !escapedAt(dest, i) {
			return false
		}
	}
	return markdownURLAllowed(dest)
}

// strayBracketEdits escapes the "[" that goldmark left as text (opening
// no link) in each block of 998 bytes or more. At each "]", goldmark
// measures the link label as the distance from the first to the last "["
// still open before it, which is no label at all, and refuses the link
// when that is over 998 bytes: after two unclosed "[" that far apart in
// a paragraph, every link and image after them is text to goldmark and a
// link or image to cmark-gfm, unchecked:
//
//	[a (a thousand bytes) [b [c](javascript:x) ![i](https://t.example/p.png)
//
// An escaped "[" opens nothing, so goldmark's measure stays short; in a
// shorter block it cannot reach 998. The text reads the same.
func strayBracketEdits(brackets map[ast.Node][]int) []mdEdit {
	var edits []mdEdit
	for blk, at := range brackets {
		if lines := blk.Lines(); lines.Len() == 0 || lines.At(lines.Len()-1).Stop-lines.At(0).Start < 998 {
			continue
		}
		for _, p := range at {
			edits = append(edits, refEdit(p, '['))
		}
	}
	return edits
}

// blockOf is the block that holds the inline n.
func blockOf(n ast.Node) ast.Node {
	for n.Type() != ast.TypeBlock && n.Parent() != nil {
		n = n.Parent()
	}
	return n
}

// definitionBeforeTable reports whether the link reference definition d
// is followed, with no blank line between, by a line that could be a
// table's delimiter row. goldmark takes the definition out of its
// paragraph first; cmark-gfm makes the table first, of the line before
// the delimiter row (which may be the definition itself) and the lines
// after, and leaves the lines before the header as a paragraph that is
// never read for definitions. On GitHub the definition is then text, or
// a header cell: a destination in angle brackets ("[a]: <b>") is raw
// HTML there, a title ("[a]: /u '<img ...>'") too. Such a definition
// does nothing on GitHub; it loses its bracket, and the next round reads
// it as text. The lines are read from the source, for goldmark may see
// no table at all ("[a]: <b>" and then ":---").
func definitionBeforeTable(src []byte, d *ast.LinkReferenceDefinition) bool {
	p := d.Pos()
	if p < 0 || p >= len(src) {
		return false
	}
	p = bytes.IndexByte(src[p:], '\n') + p + 1 // the line after the definition's first
	for p > 0 && p < len(src) {
		end := bytes.IndexByte(src[p:], '\n')
		if end < 0 {
			end = len(src) - p
		}
		line := bytes.TrimLeft(src[p:p+end], " \t>")
		if len(bytes.TrimSpace(line)) == 0 {
			return false
		}
		if delimiterLike(line) {
			return true
		}
		p += end + 1
	}
	return false
}

// delimiterLike reports whether line, without its indentation or quote
// markers, could be a table's delimiter row to cmark-gfm: dashes, colons,
// pipes and spaces, with a dash and a pipe or colon ("---" alone is a
// heading's underline or a rule).
func delimiterLike(line []byte) bool {
	dash, pipeOrColon := false, false
	for _, c := range line {
		switch c {
		case '-':
			dash = true
		case '|', ':':
			pipeOrColon = true
		case ' ', '\t':
		default:
			return false
		}
	}
	return dash && pipeOrColon
}

// backslashesBeforeNewline mends a line of text that ends, at stop, in
// an odd number of backslashes, three or more: escaped backslashes, then
// one that makes a hard line break. goldmark takes a line for a hard
// break only when the one backslash before the newline has none before
// it; here it reads the last backslash as escaping the newline, and
// carries that escape on to the next line, whose first character it then
// skips: in
//
//	\\\
//	\\[a](javascript:x)
//
// goldmark sees no link and cmark-gfm does. The edit writes the escaped
// backslash before the break as a character reference, "&#92;", which
// reads as the same backslash in both, so that goldmark sees the break.
func backslashesBeforeNewline(src []byte, stop int) []mdEdit {
	if stop >= len(src) || src[stop] != '\n' {
		return nil
	}
	n := 0
	for n < stop && src[stop-1-n] == '\\' {
		n++
	}
	if n < 3 || n%2 == 0 {
		return nil
	}
	return []mdEdit{{at: stop - 3, end: stop - 1, text: "&#92;"}}
}

// refAt reports whether src[i], an "&", starts a character reference
// that a renderer resolves: "&lt;", "&#96;", "&#x60;".
func refAt(src []byte, i int) bool {
	j := i + 1
	if j < len(src) && src[j] == '#' {
		j++
		hex := j < len(src) && (src[j] == 'x' || src[j] == 'X')
		if hex {
			j++
		}
		n := 0
		for j < len(src) && n < 8 && (src[j] >= '0' && src[j] <= '9' || hex && strings.IndexByte("abcdefABCDEF", src[j]) >= 0) {
			j++
			n++
		}
		return n > 0 && j < len(src) && src[j] == ';'
	}
	n := 0
	for j < len(src) && n < 32 && (src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || n > 0 && src[j] >= '0' && src[j] <= '9') {
		j++
		n++
	}
	if n == 0 || j >= len(src) || src[j] != ';' {
		return false
	}
	_, ok := util.LookUpHTML5EntityByName(string(src[i+1 : j]))
	return ok
}
