package render

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// contentRenderer replaces goldmark's renderers for every node that can
// carry a URL, raw HTML or code.
type contentRenderer struct{}

var _ renderer.NodeRenderer = (*contentRenderer)(nil)

// RegisterFuncs implements renderer.NodeRenderer.
func (r *contentRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, r.renderLink)
	reg.Register(ast.KindAutoLink, r.renderAutoLink)
	reg.Register(ast.KindImage, r.renderImage)
	reg.Register(ast.KindRawHTML, r.renderRawHTML)
	reg.Register(ast.KindHTMLBlock, r.renderHTMLBlock)
	reg.Register(ast.KindFencedCodeBlock, r.renderFencedCodeBlock)
	reg.Register(ast.KindCodeBlock, r.renderCodeBlock)
}

// AllowedURL reports whether u (as it will appear in href, after goldmark
// resolved entities and percent-encoded controls) is http, https, mailto
// or has no scheme (relative, #fragment). Browsers drop ASCII whitespace
// and controls inside a scheme ("java\tscript:"), so those are skipped
// before the scheme is read; anything else before a ':' that precedes
// '/', '?' or '#' counts as a scheme and must be on the list. A
// protocol-relative URL ("//host/x") is not allowed as it is: a page
// opened from a file would make it file://host/x (see pageURL).
func AllowedURL(u []byte) bool {
	if protocolRelative(u) {
		return false
	}
	var scheme []byte
	for _, c := range u {
		switch {
		case c <= ' ' || c == 0x7f:
			continue
		case c == '/' || c == '?' || c == '#':
			return true
		case c == ':':
			switch strings.ToLower(string(scheme)) {
			case "http", "https", "mailto":
				return true
			}
			return false
		}
		scheme = append(scheme, c)
	}
	return true
}

// protocolRelative reports whether a browser reads u as "//host...":
// after leading spaces and controls, two slashes, or backslashes, which
// browsers take for slashes in web URLs.
func protocolRelative(u []byte) bool {
	u = trimControls(u)
	return len(u) >= 2 && (u[0] == '/' || u[0] == '\\') && (u[1] == '/' || u[1] == '\\')
}

// trimControls drops the spaces and controls a browser drops before a URL.
func trimControls(u []byte) []byte {
	for len(u) > 0 && u[0] <= ' ' {
		u = u[1:]
	}
	return u
}

// pageURL returns the href a page writes for u, and whether it writes one
// at all: u itself when AllowedURL, and a protocol-relative URL resolved
// to https ("//host/x" is meant for the web, and https is the web's safe
// default; as it is, a page opened from a file would send it to
// file://host/x).
func pageURL(u []byte) ([]byte, bool) {
	if protocolRelative(u) {
		rest := trimControls(u)
		return append([]byte("https://"), rest[2:]...), true
	}
	return u, AllowedURL(u)
}

// dataImageURL reports whether u is a data: URI of a raster image type
// that cannot carry script and is safe to show as <img>.
func dataImageURL(u []byte) bool {
	s := strings.ToLower(string(u[:min(len(u), 32)]))
	for _, t := range []string{"png", "jpeg", "gif", "webp"} {
		p := "data:image/" + t
		if strings.HasPrefix(s, p) && len(s) > len(p) && (s[len(p)] == ';' || s[len(p)] == ',') {
			return true
		}
	}
	return false
}

func writeAttr(w util.BufWriter, name string, value []byte) {
	_, _ = w.WriteString(" " + name + `="`)
	_, _ = w.Write(util.EscapeHTML(value))
	_ = w.WriteByte('"')
}

func (r *contentRenderer) renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest, ok := pageURL(util.URLEscape(n.Destination, true))
	if !ok {
		// The text stays, the link goes.
		return ast.WalkContinue, nil
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<a")
	writeAttr(w, "href", localFragment(n, dest))
	if n.Title != nil {
		// DefaultWriter resolves the title's escapes and entities and
		// escapes the result, quotes included.
		_, _ = w.WriteString(` title="`)
		html.DefaultWriter.Write(w, n.Title)
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString(" " + relLink + ">")
	return ast.WalkContinue, nil
}

// localFragment points "#install" at this message's own heading, whose id
// carries the message's prefix, when there is such a heading; any other
// URL is returned as it is.
func localFragment(n ast.Node, dest []byte) []byte {
	if len(dest) < 2 || dest[0] != '#' {
		return dest
	}
	ids := docIDs(n)
	if ids == nil {
		return dest
	}
	frag, err := url.PathUnescape(string(dest[1:]))
	if err != nil || !ids.used[ids.prefix+frag] {
		return dest
	}
	return []byte("#" + ids.prefix + string(dest[1:]))
}

func (r *contentRenderer) renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	label := n.Label(source)
	url := util.URLEscape(n.URL(source), false)
	if n.AutoLinkType == ast.AutoLinkEmail && !bytes.HasPrefix(bytes.ToLower(url), []byte("mailto:")) {
		url = append([]byte("mailto:"), url...)
	}
	url, ok := pageURL(url)
	if !ok {
		_, _ = w.Write(util.EscapeHTML(label))
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString("<a")
	writeAttr(w, "href", url)
	_, _ = w.WriteString(" " + relLink + ">")
	_, _ = w.Write(util.EscapeHTML(label))
	_, _ = w.WriteString("</a>")
	return ast.WalkContinue, nil
}

// renderImage never lets the page load anything: remote and relative
// images become links the reader may follow, raster data: URIs are shown,
// anything else is reduced to its alt text.
func (r *contentRenderer) renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	alt := imageAlt(n, source)
	dest := util.URLEscape(n.Destination, true)

	if dataImageURL(dest) {
		_, _ = w.WriteString("<img")
		writeAttr(w, "src", dest)
		writeAttr(w, "alt", alt)
		if n.Title != nil {
			_, _ = w.WriteString(` title="`)
			html.DefaultWriter.Write(w, n.Title)
			_ = w.WriteByte('"')
		}
		_, _ = w.WriteString(` class="inline-image">`)
		return ast.WalkSkipChildren, nil
	}

	label := alt
	if len(bytes.TrimSpace(label)) == 0 {
		label = dest
	}
	dest, ok := pageURL(dest)
	if !ok || insideLink(n) {
		// A link inside a link is invalid HTML; the outer one wins.
		_, _ = w.WriteString(`<span class="remote-image">image: `)
		_, _ = w.Write(util.EscapeHTML(label))
		_, _ = w.WriteString("</span>")
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString("<a")
	writeAttr(w, "href", dest)
	_, _ = w.WriteString(" " + relLink + ` class="remote-image">image: `)
	_, _ = w.Write(util.EscapeHTML(label))
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if k := p.Kind(); k == ast.KindLink || k == ast.KindAutoLink {
			return true
		}
	}
	return false
}

// imageAlt is the plain text of an image's description.
func imageAlt(n ast.Node, source []byte) []byte {
	var alt []byte
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			alt = append(alt, t.Segment.Value(source)...)
			if t.SoftLineBreak() || t.HardLineBreak() {
				alt = append(alt, ' ')
			}
		case *ast.String:
			alt = append(alt, t.Value...)
		}
		return ast.WalkContinue, nil
	})
	return alt
}

// renderRawHTML shows inline HTML as the text that was written.
func (r *contentRenderer) renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}

// renderHTMLBlock shows an HTML block as the text that was written.
func (r *contentRenderer) renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		_, _ = w.WriteString(`<div class="raw-html">`)
		for i := range n.Lines().Len() {
			line := n.Lines().At(i)
			_, _ = w.Write(util.EscapeHTML(line.Value(source)))
		}
		return ast.WalkContinue, nil
	}
	if n.HasClosure() {
		_, _ = w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkContinue, nil
}

func blockText(n ast.Node, source []byte) string {
	var b strings.Builder
	for i := range n.Lines().Len() {
		line := n.Lines().At(i)
		b.Write(line.Value(source))
	}
	return b.String()
}

// renderFencedCodeBlock hands the code to Highlight. Only the fence's
// first word is used, as a lexer name; it never reaches the output as is.
func (r *contentRenderer) renderFencedCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	var lang string
	if l := n.Language(source); l != nil {
		lang = string(l)
	}
	_, _ = w.WriteString(string(Highlight(blockText(n, source), lang)))
	_ = w.WriteByte('\n')
	return ast.WalkSkipChildren, nil
}

func (r *contentRenderer) renderCodeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(string(Highlight(blockText(node, source), "")))
	_ = w.WriteByte('\n')
	return ast.WalkSkipChildren, nil
}
