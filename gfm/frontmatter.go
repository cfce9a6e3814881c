package gfm

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/piexport/piexport/session"
)

// Front matter: what an engine reads of a page before its Markdown, in
// YAML between "---" lines. Hugo takes its title and dates from it (a page
// without them has no title and is dated 0001-01-01), MkDocs and
// Docusaurus their title; GitHub shows it as a table. Every string is
// double-quoted, with escapes (yamlString).

// frontMatter writes the document's front matter: its title (the
// session's, as the page shows it), when the path started and last
// changed, the session's id, project and models, what it cost, its
// tokens, how many entries the path holds, and for a sub-agent or a
// fork the session it came from.
func (m *mdWriter) frontMatter(f pathFacts, _ *session.Entry) {
	var b strings.Builder
	b.WriteString("---\n")
	field := func(key, value string) { b.WriteString(key + ": " + value + "\n") }
	field("title", m.t.metaString(f.title))
	if !f.start.IsZero() {
		field("date", f.start.UTC().Format(time.RFC3339))
		field("lastmod", f.end.UTC().Format(time.RFC3339))
	}
	if h := m.s.Header; h != nil {
		if h.ID != "" {
			field("session_id", m.t.metaString(h.ID))
		}
		if h.Cwd != "" {
			field("project", m.t.metaString(session.ShortenHome(h.Cwd, m.home)))
		}
	}
	models := make([]string, len(f.models))
	for i, name := range f.models {
		models[i] = m.t.metaString(name)
	}
	field("models", "["+strings.Join(models, ", ")+"]")
	field("cost", strconv.FormatFloat(math.Round(f.usage.Cost*1e6)/1e6, 'f', -1, 64))
	field("tokens", strconv.FormatInt(f.usage.Tokens(), 10))
	field("entries", strconv.Itoa(f.entries))
	if parent := m.parentName(); parent != "" {
		field("parent", m.t.metaString(parent))
	}
	b.WriteString("---")
	m.raw(b.String())
}

// parentName names the session this one came from: its title, where an
// archive links it, else the path its header names.
func (m *mdWriter) parentName() string {
	for _, l := range m.opt.Parent.Links {
		if l.Title != "" {
			return l.Title
		}
	}
	name, _ := m.s.ParentOf(m.home)
	return name
}

// yamlString writes s as a YAML double-quoted scalar that every YAML
// reader takes as s: a backslash, a quote, and each character a reader
// may refuse in a file or fold as a line end (controls, U+0085, U+2028,
// U+2029, a byte order mark, noncharacters and invalid UTF-8) escaped;
// "<", ">", "&", "{" and "}" too, which a renderer that does not know
// front matter would read in it as HTML or an expression.
func yamlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\uFFFD`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case strings.ContainsRune("<>&{}", r) || r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff || r >= 0xd800 && r <= 0xdfff:
			const hex = "0123456789ABCDEF"
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>shift)&15])
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}
