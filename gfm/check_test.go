package gfm

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// mdCheckParser parses exported documents in the tests, as GitHub would.
var mdCheckParser = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote)).Parser()

// mdDoc is what the structure checks found in a document.
type mdDoc struct {
	root   ast.Node
	source []byte
	// fences holds the content of every fenced code block, in order.
	fences []string
	// details counts the <details> blocks.
	details int
	// headings holds the text of every heading, as "## text".
	headings []string
}

var ownHTML = regexp.MustCompile(`^(<details><summary>[^<>\n]*</summary>|</details>)\n?$`)

// ownImage is the one image a document shows: a file kept beside it
// (imagefiles), named by its content.
var ownImage = regexp.MustCompile(`^(\./|\.\./)?[A-Za-z0-9._%-]*assets/[0-9a-f]{32}\.(png|jpg|gif|webp)$`)

// ownAnchor is an entry's anchor, the one inline HTML of ours: an empty
// <a> with an id of characters that need no escaping.
var ownAnchor = regexp.MustCompile(`^(<a id="[A-Za-z0-9_.:~'/-]+">|</a>)$`)

func rawHTMLText(n *ast.RawHTML, source []byte) string {
	var b strings.Builder
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		b.Write(seg.Value(source))
	}
	return b.String()
}

// isAnchorParagraph reports whether p is a paragraph that holds an anchor
// of ours and nothing else.
func isAnchorParagraph(p ast.Node, source []byte) bool {
	if p == nil || p.Kind() != ast.KindParagraph || p.ChildCount() != 2 {
		return false
	}
	open, ok1 := p.FirstChild().(*ast.RawHTML)
	end, ok2 := p.LastChild().(*ast.RawHTML)
	return ok1 && ok2 && ownAnchor.MatchString(rawHTMLText(open, source)) && !strings.HasPrefix(rawHTMLText(open, source), "</") && rawHTMLText(end, source) == "</a>"
}

// checkMarkdown parses doc and fails t where the document breaks the
// rules every export keeps: no trailing whitespace, no raw HTML but our
// own <details> and <summary> lines (balanced, not nested), and no link,
// image or link definition outside http, https, mailto and relative URLs.
func checkMarkdown(t *testing.T, doc string) *mdDoc {
	t.Helper()
	if !strings.HasSuffix(doc, "\n") || strings.HasSuffix(doc, "\n\n") {
		t.Errorf("the document does not end with exactly one newline")
	}
	for i, line := range strings.Split(doc, "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("line %d ends with whitespace: %q", i+1, line)
		}
		if strings.Contains(line, "\r") {
			t.Errorf("line %d holds a carriage return", i+1)
		}
	}
	d := &mdDoc{source: []byte(doc)}
	d.root = mdCheckParser.Parse(text.NewReader(d.source))
	open := false
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			if n.Parent() != d.root {
				t.Errorf("an HTML block inside a %s", n.Parent().Kind())
			}
			var b strings.Builder
			for i := range n.Lines().Len() {
				line := n.Lines().At(i)
				b.Write(line.Value(d.source))
			}
			if n.HasClosure() {
				closure := n.ClosureLine
				b.Write(closure.Value(d.source))
			}
			html := b.String()
			switch {
			case !ownHTML.MatchString(html):
				t.Errorf("raw HTML that is not ours: %q", html)
			case strings.HasPrefix(html, "<details>"):
				if open {
					t.Errorf("a <details> inside another: %q", html)
				}
				open = true
				d.details++
			default:
				if !open {
					t.Errorf("a </details> without a <details>")
				}
				open = false
			}
		case *ast.RawHTML:
			if !isAnchorParagraph(n.Parent(), d.source) {
				t.Errorf("inline raw HTML: %q", rawHTMLText(n, d.source))
			}
		case *ast.Link:
			if !markdownURLAllowed(n.Destination) {
				t.Errorf("a link to %q", n.Destination)
			}
		case *ast.Image:
			if !ownImage.Match(n.Destination) {
				t.Errorf("an image from %q", n.Destination)
			}
		case *ast.AutoLink:
			if u := n.URL(d.source); n.AutoLinkType == ast.AutoLinkURL && !markdownURLAllowed(u) && !bytes.HasPrefix(u, []byte("www.")) {
				t.Errorf("an autolink to %q", u)
			}
		case *ast.LinkReferenceDefinition:
			if !markdownURLAllowed(n.Destination) {
				t.Errorf("a link definition of %q", n.Destination)
			}
		case *ast.FencedCodeBlock:
			var b strings.Builder
			for i := range n.Lines().Len() {
				line := n.Lines().At(i)
				b.Write(line.Value(d.source))
			}
			d.fences = append(d.fences, b.String())
		case *ast.Heading:
			d.headings = append(d.headings, strings.Repeat("#", n.Level)+" "+mdNodeText(n, d.source))
		case *extast.FootnoteList:
		}
		return ast.WalkContinue, nil
	})
	if open {
		t.Errorf("a <details> is never closed")
	}
	checkCmark(t, doc)
	return d
}

// mdNodeText is the text of n's inline content.
func mdNodeText(n ast.Node, source []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(resolveText(c.Segment.Value(source)))
			case *ast.String:
				b.Write(c.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
