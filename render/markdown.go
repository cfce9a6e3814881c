package render

import (
	"bufio"
	"bytes"
	"html/template"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// relLink is set on every link taken from a session: the page must not
// hand the target a referrer or a window handle, nor lend it ranking.
const relLink = `rel="noopener noreferrer nofollow"`

// metaIDs is the document meta key that carries the per-call ids (and
// their prefix) to the renderers, so that one goldmark instance serves
// every call instead of one footnote extension per prefix.
const metaIDs = "piexport-ids"

// md is built once: goldmark parsers and renderers are stateless and safe
// for concurrent use; per-document state lives in the parser.Context.
// html.WithUnsafe is deliberately absent; raw HTML is shown as text by
// contentRenderer.
var md = goldmark.New(
	goldmark.WithExtensions(
		extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
		extension.Strikethrough,
		extension.Linkify,
		extension.TaskList,
		extension.NewFootnote(extension.WithFootnoteIDPrefixFunction(footnoteIDPrefix)),
	),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(
		renderer.WithNodeRenderers(util.Prioritized(&contentRenderer{}, 100)),
	),
)

func footnoteIDPrefix(n ast.Node) []byte {
	if ids := docIDs(n); ids != nil {
		return []byte(ids.prefix)
	}
	return nil
}

func docIDs(n ast.Node) *prefixedIDs {
	if doc := n.OwnerDocument(); doc != nil {
		ids, _ := doc.Meta()[metaIDs].(*prefixedIDs)
		return ids
	}
	return nil
}

var mdBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// mdWriters are the buffered writers goldmark renders through (it wants
// a bufio.Writer): one is 4 KB, and an export renders tens of thousands
// of messages.
var mdWriters = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

// Markdown renders untrusted Markdown (GFM tables, strikethrough,
// task lists, autolinks; footnotes) as HTML inside <div class="markdown">.
// Heading and footnote ids start with idPrefix (sanitised), so that many
// messages can share one page without id collisions. Raw HTML is shown as
// escaped text, links are limited to http, https, mailto and relative
// URLs, remote images become links, and fenced code goes to Highlight.
func Markdown(src string, idPrefix string) template.HTML {
	if !utf8.ValidString(src) {
		src = strings.ToValidUTF8(src, "\uFFFD")
	}
	prefix := sanitizeIDPrefix(idPrefix)
	source := []byte(src)
	ids := &prefixedIDs{prefix: prefix}
	ctx := parser.NewContext(parser.WithIDs(ids))
	root := md.Parser().Parse(text.NewReader(source), parser.WithContext(ctx))
	if doc, ok := root.(*ast.Document); ok {
		doc.AddMeta(metaIDs, ids)
	}

	buf := mdBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer mdBufPool.Put(buf)
	buf.WriteString(`<div class="markdown">`)
	w := mdWriters.Get().(*bufio.Writer)
	w.Reset(buf)
	err := md.Renderer().Render(w, source, root)
	w.Reset(nil)
	mdWriters.Put(w)
	if err != nil {
		// Rendering into memory fails only if a renderer does; show the
		// source rather than half a document.
		buf.Reset()
		buf.WriteString(`<div class="markdown"><pre class="md-source">`)
		escapeHTMLTo(buf, src)
		buf.WriteString("</pre>")
	}
	buf.WriteString("</div>")
	return trusted(bytes.Clone(buf.Bytes()))
}

// sanitizeIDPrefix keeps letters, digits and '-' and hex-encodes every
// other byte as _XX, so distinct prefixes stay distinct and the result is
// safe to write unescaped (the footnote renderer does).
func sanitizeIDPrefix(p string) string {
	clean := true
	for i := 0; i < len(p); i++ {
		if !isIDByte(p[i]) {
			clean = false
			break
		}
	}
	if clean {
		return p
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if isIDByte(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('_')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func isIDByte(c byte) bool {
	return c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// prefixedIDs is goldmark's per-document id table with a prefix. Unlike
// goldmark's own it keeps non-ASCII letters, so headings in other scripts
// get readable ids instead of "heading-3".
type prefixedIDs struct {
	prefix string
	used   map[string]bool
}

var _ parser.IDs = (*prefixedIDs)(nil)

// Generate implements parser.IDs.
func (s *prefixedIDs) Generate(value []byte, kind ast.NodeKind) []byte {
	id := make([]byte, 0, len(s.prefix)+len(value))
	id = append(id, s.prefix...)
	start := len(id)
	for _, r := range string(bytes.TrimSpace(value)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			id = utf8.AppendRune(id, unicode.ToLower(r))
		case r == ' ' || r == '\t' || r == '-' || r == '_':
			id = append(id, '-')
		}
	}
	if len(id) == start {
		if kind == ast.KindHeading {
			id = append(id, "heading"...)
		} else {
			id = append(id, "id"...)
		}
	}
	if s.used == nil {
		s.used = map[string]bool{}
	}
	base := string(id)
	out := base
	for i := 1; s.used[out]; i++ {
		out = base + "-" + strconv.Itoa(i)
	}
	s.used[out] = true
	return []byte(out)
}

// Put implements parser.IDs.
func (s *prefixedIDs) Put(value []byte) {
	if s.used == nil {
		s.used = map[string]bool{}
	}
	s.used[string(value)] = true
}
