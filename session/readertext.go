package session

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// How a message reads in a title or a one-line preview: as the reader of
// the rendered message sees it, not as its Markdown source is spelt. No
// "#" or "**", no backticks, no link syntax, no tags; one line; cut at a
// word with "…".

// plainParser reads Markdown the way the page renders it (GFM tables,
// strikethrough, task lists, bare links). Goldmark parsers are safe for
// concurrent use; it is built once.
var plainParser = goldmark.New(goldmark.WithExtensions(
	extension.Table, extension.Strikethrough, extension.Linkify, extension.TaskList,
)).Parser()

// readerSourceMax bounds how much of a long message ReaderText parses for
// a text of limit characters: a title never needs the rest, and parsing
// is most of what a preview costs.
func readerSourceMax(limit int) int { return max(256, 2*limit) }

// ReaderText turns Markdown source into the text a reader of the rendered
// message sees, on one line of at most max characters (grapheme clusters),
// cut at a word with "…": headings without "#", emphasis without its
// marks, code spans and code blocks as their code, links as their text,
// images as their description, and HTML tags as the text they are, as
// piexport shows them. max <= 0 means no
// limit.
func ReaderText(markdown string, max int) string {
	src := markdown
	cut := max > 0 && len(src) > readerSourceMax(max)
	if cut {
		src = cutSource(src, readerSourceMax(max))
	}
	var plain string
	if !needsParsing(src) {
		plain = src
	} else {
		plain = markdownText(src)
	}
	room := -1
	if max > 0 {
		room = 4*max + 4
	}
	text, more := oneLineSpacesMax(plain, room)
	text = Shorten(text, max)
	if (cut || more) && !strings.HasSuffix(text, "…") {
		// The text goes on beyond what was read.
		text = Shorten(text, max-1)
		if !strings.HasSuffix(text, "…") {
			text += "…"
		}
	}
	return text
}

// cutSource cuts src to at most n bytes, at a line end if there is one in
// the second half, else between two characters (grapheme clusters).
func cutSource(src string, n int) string {
	if len(src) <= n {
		return src
	}
	if nl := strings.LastIndexByte(src[:n], '\n'); nl > n/2 {
		return src[:nl]
	}
	// The last cluster boundary at or before n, found from a rune
	// boundary some way back (clusters are short).
	from := max(0, n-128)
	for from > 0 && !utf8.RuneStart(src[from]) {
		from--
	}
	cut, at, rest, state := from, from, src[from:], -1
	for len(rest) > 0 && at <= n {
		cut = at
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		at += len(cluster)
	}
	return src[:cut]
}

// needsParsing reports whether src may hold Markdown syntax that changes
// its text; if not, the source is already what the reader sees. Most
// short messages take this way, and it is many times faster than parsing.
func needsParsing(src string) bool {
	if strings.ContainsAny(src, "\\`*_[]<>!#&~|") {
		return true
	}
	for line := range strings.Lines(src) {
		line = strings.TrimLeft(line, " \t")
		if line == "" {
			continue
		}
		switch c := line[0]; {
		case c == '-' || c == '+' || c == '=':
			return true
		case c >= '0' && c <= '9':
			// An ordered list item: "1. " or "1) ".
			if i := strings.IndexFunc(line, func(r rune) bool { return r < '0' || r > '9' }); i > 0 && (line[i] == '.' || line[i] == ')') {
				return true
			}
		}
	}
	return false
}

// markdownText is the text of src's Markdown: every block's text, blocks
// separated by line ends, and a heading from what follows by " · ".
func markdownText(src string) string {
	source := []byte(src)
	doc := plainParser.Parse(text.NewReader(source))
	var w textWriter
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			switch {
			case n.Kind() == ast.KindHeading:
				w.sep(" · ")
			case n.Type() == ast.TypeBlock:
				w.sep("\n")
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			if n.IsRaw() {
				w.write(n.Value(source))
			} else {
				w.write(unescape(n.Value(source)))
			}
			if n.SoftLineBreak() || n.HardLineBreak() {
				w.sep(" ")
			}
		case *ast.String:
			if n.IsCode() || n.IsRaw() {
				w.write(n.Value)
			} else {
				w.write(unescape(n.Value))
			}
		case *ast.CodeSpan:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					w.write(t.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				w.write(seg.Value(source))
			}
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			w.write(n.Label(source))
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML:
			// A tag is text, as piexport shows it: "what is Vec<String>?"
			// keeps its <String>.
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				w.write(seg.Value(source))
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				w.write(seg.Value(source))
				w.sep(" ")
			}
			return ast.WalkSkipChildren, nil
		case *east.TaskCheckBox, *ast.ThematicBreak:
			return ast.WalkSkipChildren, nil
		case *east.TableCell:
			w.sep(" ")
		}
		return ast.WalkContinue, nil
	})
	return w.b.String()
}

// textWriter collects text, with a separator between two pieces of text
// written only when text follows it: a heading at the end leaves none.
type textWriter struct {
	b       strings.Builder
	pending string
}

// sep asks for s before the next text, unless a stronger separator (one
// that is not white space) is already asked for.
func (w *textWriter) sep(s string) {
	if w.b.Len() == 0 || strings.TrimSpace(w.pending) != "" {
		return
	}
	w.pending = s
}

func (w *textWriter) write(v []byte) {
	if len(bytes.TrimSpace(v)) == 0 {
		if len(v) > 0 {
			w.sep(" ")
		}
		return
	}
	if w.pending != "" {
		w.b.WriteString(w.pending)
		w.pending = ""
	}
	w.b.Write(v)
}

// unescape resolves backslash escapes and character references, as a
// renderer does for text.
func unescape(v []byte) []byte {
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	return util.ResolveEntityNames(v)
}

// oneLineSpaces folds every run of white space (line ends included) into
// one space, and drops the control characters a terminal or a title bar
// would act on.
func oneLineSpaces(s string) string {
	t, _ := oneLineSpacesMax(s, -1)
	return t
}

// oneLineSpacesMax is oneLineSpaces for the first bytes of s that make
// about n bytes of text (n < 0: all of it): enough for a text of n/4
// characters, whatever their script. cut reports that s went on; the
// text then ends before the character (grapheme cluster) it was cut in.
func oneLineSpacesMax(s string, n int) (text string, cut bool) {
	var b strings.Builder
	if n >= 0 && n < len(s) {
		b.Grow(n + utf8.UTFMax)
	} else {
		b.Grow(len(s))
	}
	space := false
	for i := 0; i < len(s); {
		if n >= 0 && b.Len() >= n {
			cut = true
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c <= ' ' || c == 0x7f {
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteByte(c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			i += size
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	text = b.String()
	if cut {
		text = dropLastCluster(text)
	}
	return text, cut
}

// dropLastCluster removes the last grapheme cluster of s, which may have
// been cut short.
func dropLastCluster(s string) string {
	from := max(0, len(s)-128)
	for from > 0 && !utf8.RuneStart(s[from]) {
		from--
	}
	last, rest, state := from, s[from:], -1
	for len(rest) > 0 {
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if len(rest) > 0 {
			last += len(cluster)
		}
	}
	return s[:last]
}

// oneLine folds s onto one line of at most max characters, cut at a word
// with "…": for text that is not Markdown (names, commands, errors).
func oneLine(s string, max int) string { return Shorten(oneLineSpaces(s), max) }

// Shorten cuts s to at most max characters (grapheme clusters, so an
// emoji or an accented letter is never split), at the end of a word where
// one ends near the limit, and marks the cut with "…". Text without
// spaces (Chinese, Japanese, a long path) is cut at a character. max <= 0
// means no limit.
func Shorten(s string, max int) string {
	if max <= 0 || len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	// The byte offset where each cluster starts, up to the limit.
	var starts []int
	at, rest, state := 0, s, -1
	for len(rest) > 0 {
		if len(starts) == max {
			break
		}
		starts = append(starts, at)
		var cluster string
		cluster, rest, _, state = uniseg.FirstGraphemeClusterInString(rest, state)
		at += len(cluster)
	}
	if len(rest) == 0 {
		return s
	}
	// Room for the "…": the text keeps max-1 clusters.
	cut := starts[max-1]
	// Back to the end of the last whole word, if that is not far back.
	if sp := strings.LastIndexByte(s[:cut+1], ' '); sp > 0 && sp >= starts[max/2] {
		cut = sp
	}
	head := strings.TrimRightFunc(s[:cut], func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—(", r)
	})
	if head == "" {
		head = s[:starts[max-1]]
	}
	return head + "…"
}
