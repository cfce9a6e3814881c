// Package render turns untrusted text from a session into trusted HTML
// fragments: Markdown, highlighted code, diffs, terminal output, JSON,
// search snippets, and the fragments other packages build with a Builder.
// It is the one place in piexport where template.HTML is minted; each
// function escapes all the text it is given and checks every URL it
// writes against AllowedURL.
//
// It knows nothing of sessions, pages or files: it is handed text and
// returns fragments.
package render

import (
	"bytes"
	"encoding/json"
	"html/template"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/piexport/piexport/internal/jsonindent"
)

// trusted is the one place where bytes become template.HTML. It is safe
// because every caller hands it the output of a renderer in this package
// (markdown, highlight, ansi, diff, Builder, Snippet) that escapes all
// session text it writes and only writes attribute values it has escaped
// and, for URLs, checked against the allow-list in AllowedURL. Never pass
// it anything else.
//
// The HTML shares b's bytes, which must not change after: every caller
// hands over a buffer it has finished with. Copying them again would
// cost an export as many bytes as the page has.
func trusted(b []byte) template.HTML {
	return template.HTML(unsafe.String(unsafe.SliceData(b), len(b)))
}

// htmlEscaper escapes as html.EscapeString does, straight into a writer.
var htmlEscaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// escapeHTMLTo writes s escaped for HTML text and double- or
// single-quoted attribute values.
func escapeHTMLTo(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case 0:
			esc = "\uFFFD"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// escapeTextTo writes s escaped for HTML element content, where only &
// and < (and > for good measure) mean anything: quotes are written as
// they are. Code is full of quotes, and each &#34; is five bytes where
// one does; text that goes into an attribute uses escapeHTMLTo.
func escapeTextTo(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case 0:
			esc = "\uFFFD"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// markup is HTML that a caller of Builder writes as a string constant.
// The type is unexported, so only an untyped constant converts to it: a
// string variable, which might hold session text, does not compile.
type markup string

// Builder collects an HTML fragment: markup the caller writes as string
// constants, text it escapes, and fragments rendered by this package. The
// zero Builder is empty and ready to use.
type Builder struct {
	buf bytes.Buffer
}

// Grow makes room for n more bytes: a body the size of its session text
// or more is built without copying itself again and again.
func (b *Builder) Grow(n int) { b.buf.Grow(n) }

// Raw writes markup, which must be a string constant.
func (b *Builder) Raw(m markup) { b.buf.WriteString(string(m)) }

// Text writes s escaped as HTML text.
func (b *Builder) Text(s string) { _, _ = htmlEscaper.WriteString(&b.buf, s) }

// Attr writes the attribute name="value", the value escaped; name must
// be a string constant.
func (b *Builder) Attr(name markup, value string) {
	b.buf.WriteByte(' ')
	b.buf.WriteString(string(name))
	b.buf.WriteString(`="`)
	_, _ = htmlEscaper.WriteString(&b.buf, value)
	b.buf.WriteByte('"')
}

// Append writes a fragment rendered by this package.
func (b *Builder) Append(h template.HTML) { b.buf.WriteString(string(h)) }

// Len is the length in bytes of what the Builder holds.
func (b *Builder) Len() int { return b.buf.Len() }

// Bytes returns what the Builder holds, to read (a block of a page
// measures its articles) until the next write.
func (b *Builder) Bytes() []byte { return b.buf.Bytes() }

// Truncate keeps the first n bytes; Reset empties the Builder and keeps
// its room.
func (b *Builder) Truncate(n int) { b.buf.Truncate(n) }
func (b *Builder) Reset()         { b.buf.Reset() }

// HTML returns the fragment: everything in it was escaped on the way in,
// is a constant its caller wrote, or was rendered by this package. It
// ends the Builder's use: the fragment shares its bytes.
func (b *Builder) HTML() template.HTML { return trusted(b.buf.Bytes()) }

// Text returns s escaped as HTML text.
func Text(s string) template.HTML {
	var b Builder
	b.Text(s)
	return b.HTML()
}

// JSON shows raw indented, or as it is when it does not parse, in
// <pre class="json">, and says below it what is not indented: values
// nested too deep, and what follows once indentation reached its bound
// (see jsonindent).
func JSON(raw json.RawMessage) template.HTML {
	shown := jsonindent.Indent(raw)
	var b Builder
	b.Raw(`<pre class="json">`)
	b.Text(string(shown.Text))
	b.Raw(`</pre>`)
	if note := shown.Note(); note != "" {
		b.Raw(`<p class="note">`)
		b.Text(note)
		b.Raw(`</p>`)
	}
	return b.HTML()
}

// Snippet escapes a search snippet and wraps its marks, byte ranges
// [start, end) in order, in <mark>: every byte of the snippet is escaped
// as html.EscapeString does, and the only markup added is <mark> and </mark>,
// balanced. (Built here rather than in a template because a search page
// holds hundreds of snippets, and html/template escapes each piece through
// reflection.) Marks out of range, out of order or not on UTF-8 boundaries
// are ignored rather than trusted.
func Snippet(s string, marks [][2]int) template.HTML {
	var b bytes.Buffer
	b.Grow(len(s) + 32)
	at := 0
	for _, m := range marks {
		if m[0] < at || m[1] <= m[0] || m[1] > len(s) || !utf8.RuneStart(s[m[0]]) || (m[1] < len(s) && !utf8.RuneStart(s[m[1]])) {
			continue
		}
		_, _ = htmlEscaper.WriteString(&b, s[at:m[0]])
		b.WriteString("<mark>")
		_, _ = htmlEscaper.WriteString(&b, s[m[0]:m[1]])
		b.WriteString("</mark>")
		at = m[1]
	}
	_, _ = htmlEscaper.WriteString(&b, s[at:])
	return trusted(b.Bytes())
}
