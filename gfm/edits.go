package gfm

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"github.com/piexport/piexport/render"
)

// The edits safeMarkdown makes, and the checks they need: where a text
// ends, what is code, how an edit is applied.

// containedEdits checks that the text source[:n] ends where it should in
// root, goldmark's reading of source: the sentinel after it is still a
// paragraph of its own. It returns the edit that closes a fence the text
// left open, and ok false when the text runs on in some other way.
func containedEdits(source []byte, n int, root ast.Node) (edits []mdEdit, ok bool) {
	src := source[:n]
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

// inCode reports whether n is inside a code span, where a backslash is
// text and adding one would change the code.
func inCode(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Kind() == ast.KindCodeSpan {
			return true
		}
	}
	return false
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
			edits = append(edits, refEdit(p, '<'))
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
	for i, e := range edits {
		if e.at < last || i > 0 && e == edits[i-1] {
			// Overlaps an edit already made (the next round rechecks), or
			// is the same edit asked for twice.
			continue
		}
		b.WriteString(src[last:e.at])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

// siteURLAllowed reports whether a link of session text may stay in a
// site's page: an http, https or mailto URL. One relative to the
// session's project leads nowhere in a site.
func siteURLAllowed(dest []byte) bool {
	d := strings.ToLower(strings.TrimSpace(string(resolveText(dest))))
	return markdownURLAllowed(dest) && (strings.HasPrefix(d, "http://") || strings.HasPrefix(d, "https://") || strings.HasPrefix(d, "mailto:"))
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
