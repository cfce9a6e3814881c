package render

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/piexport/piexport/render/internal/fastlex"
	"github.com/piexport/piexport/session"
)

const (
	// highlightMaxBytes caps what is highlighted: a page with a megabyte
	// of tool output must still be written quickly, and a reader does not
	// need colour to find their way through a block that long.
	highlightMaxBytes = 64 << 10

	// toolHighlightMaxBytes caps highlighting of file contents in tool
	// calls and results. They are most of a session's bytes; past this
	// size only their first lines (the part shown before "more lines") are
	// highlighted, which keeps a large export from spending minutes in
	// chroma.
	toolHighlightMaxBytes = 16 << 10

	// workPerByte and workFloor bound the work of lexing one block, in
	// fastlex's steps (see fastlex.Lex): real code takes 4 to 10 steps a
	// byte, while a lexer that turns quadratic (Go's on an unclosed "/*")
	// would take millions. Past the bound the rest of the block is shown
	// as plain text. The bound is work, not time, so a session exports to
	// the same page however busy the machine; a 64 KB block costs at most
	// about 20 ms of lexing.
	workPerByte = 48
	workFloor   = 1 << 16

	// lexerCacheMax bounds the lexer cache: fence info strings and file
	// names come from the session, so their variety is unbounded.
	lexerCacheMax = 4096

	// lexerNameMax skips the lookup for names no lexer could have; a long
	// name would only cost a full scan of every lexer's globs.
	lexerNameMax = 64
)

// Highlight renders code in the named language (a fence's first word) as
// a <pre class="chroma"> block. An unknown language gives escaped plain
// text in the same wrapper.
func Highlight(code, lang string) template.HTML {
	return trusted(renderCode(code, lexerForLang(lang), 0))
}

// HighlightFile renders file contents in tool calls and results, in
// the language of the file name, with line numbers from firstLine and the
// smaller toolHighlightMaxBytes limit.
func HighlightFile(code, path string, firstLine int) template.HTML {
	return trusted(renderCodeUpTo(code, lexerForFile(path), max(firstLine, 1), limits{toolHighlightMaxBytes, lexWork}))
}

// limits bound the highlighting of one block: its size, and the work of
// lexing it, per byte.
type limits struct {
	maxBytes    int
	workPerByte int64
}

// renderCode writes the <pre> block; firstLine 0 means no line numbers.
// Every byte of code appears in the output, highlighted or not.
func renderCode(code string, l chroma.Lexer, firstLine int) []byte {
	return renderCodeUpTo(code, l, firstLine, limits{highlightMaxBytes, lexWork})
}

// lexWork is the work per byte a block may take: workPerByte, but for
// tests that compare fastlex's tokens with chroma's (see UnlimitedWork).
var lexWork int64 = workPerByte

// renderCodeUpTo is renderCode with limits of its own.
func renderCodeUpTo(code string, l chroma.Lexer, firstLine int, lim limits) []byte {
	if l == nil || len(code) < blockCacheMinBytes {
		return renderCodeNow(code, l, firstLine, lim)
	}
	key := blockKey(code, l.Config().Name, firstLine, lim)
	if b, ok := blockCache.get(key); ok {
		return b
	}
	b := renderCodeNow(code, l, firstLine, lim)
	blockCache.put(key, b)
	return b
}

// tokenBuffers hold the tokens of one block while it is written.
var tokenBuffers = sync.Pool{New: func() any { return new([]chroma.Token) }}

// renderCodeNow renders a block without looking in the cache.
func renderCodeNow(code string, l chroma.Lexer, firstLine int, lim limits) []byte {
	code = normaliseCode(code)
	var note string
	buf := tokenBuffers.Get().(*[]chroma.Token)
	var toks []chroma.Token
	defer func() {
		// The tokens point into code; a pooled buffer must not keep it.
		clear(toks)
		*buf = toks[:0]
		tokenBuffers.Put(buf)
	}()
	switch {
	case l == nil:
	case len(code) > lim.maxBytes:
		note = "not highlighted: " + strconv.Itoa((len(code)+1023)/1024) +
			" KB is above the " + strconv.Itoa(lim.maxBytes>>10) + " KB limit"
	default:
		var rest string
		var err error
		toks, rest, err = tokenise(l, code, lim.workPerByte*int64(len(code))+workFloor, *buf)
		switch {
		case err != nil:
			toks, note = nil, "not highlighted: the "+l.Config().Name+" lexer failed"
		case rest != "":
			toks = append(toks, chroma.Token{Type: chroma.Text, Value: rest})
			note = "highlighting stopped part way: the rest of this block would take the lexer too long, so it is plain text"
		}
	}
	if toks == nil {
		toks = []chroma.Token{{Type: chroma.Text, Value: code}}
	}

	var b bytes.Buffer
	// Highlighted code is its text and its runs, about a third more.
	b.Grow(len(code) + len(code)/3 + 256)
	if note != "" {
		b.WriteString(`<p class="hl-note">`)
		escapeHTMLTo(&b, note)
		b.WriteString("</p>")
	}
	b.WriteString(`<pre class="chroma`)
	if firstLine > 0 {
		b.WriteString(` numbered`)
	}
	b.WriteByte('"')
	if l != nil {
		b.WriteString(` data-lang="`)
		escapeHTMLTo(&b, l.Config().Name)
		b.WriteByte('"')
	}
	b.WriteByte('>')
	if firstLine > 0 {
		writeGutter(&b, code, firstLine)
	}
	writeCode(&b, toks)
	b.WriteString("</pre>")
	// The block may be kept a while (a repeated output, the block cache),
	// and not with the room the estimate left unused.
	if b.Cap() > b.Len()+b.Len()/4+4096 {
		return bytes.Clone(b.Bytes())
	}
	return b.Bytes()
}

// normaliseCode makes offsets agree with chroma's: it lexes runes (so
// invalid UTF-8 would change length) and turns \r\n and \r into \n.
func normaliseCode(code string) string {
	if !utf8.ValidString(code) {
		code = strings.ToValidUTF8(code, "\uFFFD")
	}
	if strings.IndexByte(code, '\r') >= 0 {
		code = strings.ReplaceAll(code, "\r\n", "\n")
		code = strings.ReplaceAll(code, "\r", "\n")
	}
	return code
}

// lexerPanic is a recovered chroma panic, reported like a lexer error.
type lexerPanic struct{ v any }

// Error implements error.
func (p lexerPanic) Error() string { return fmt.Sprint("lexer panic: ", p.v) }

// tokenise lexes code in at most work steps (see fastlex.Lex), appending
// the tokens to buf[:0]; rest is the part of code not lexed. A lexer
// fastlex does not run (chroma's own, in tests comparing the two) is
// pulled to the end: blocks are small enough. Lexer panics become
// errors so one bad block cannot take the page down.
func tokenise(l chroma.Lexer, code string, work int64, buf []chroma.Token) (toks []chroma.Token, rest string, err error) {
	toks, rest, err = fastlex.Lex(l, code, work, buf)
	if !errors.Is(err, fastlex.ErrNotFastlex) {
		return toks, rest, err
	}
	defer func() {
		if v := recover(); v != nil {
			toks, rest, err = nil, "", lexerPanic{v}
		}
	}()
	it, err := l.Tokenise(nil, code)
	if err != nil {
		return nil, "", err
	}
	toks = buf[:0]
	for t := it(); t != chroma.EOF; t = it() {
		toks = append(toks, t)
	}
	return toks, "", nil
}

// tokenClass is chroma's class for a token type: the nearest ancestor
// type that has one.
func tokenClass(t chroma.TokenType) string {
	for {
		if cls, ok := chroma.StandardTypes[t]; ok {
			return cls
		}
		if t == 0 {
			return ""
		}
		t = t.Parent()
	}
}

// writeCode writes tokens as a <code> element: their text, and in its
// data-hl attribute the runs of text each style colours (HighlightRuns
// says how they read). Tokens whose class no style colours (white space,
// most punctuation and names) are plain text, and neighbours of one style
// share a run. Spans, one per run, would be most of a page's bytes (21
// bytes of markup a run, against 3 or 4 here); the page's script makes
// them from the runs when it draws the block, and a browser without it
// shows the code uncoloured.
func writeCode(b *bytes.Buffer, toks []chroma.Token) {
	letters := runLetters()
	var runs [256]byte
	out := runs[:0]
	cur, n := byte(0), 0
	flush := func() {
		if n == 0 {
			return
		}
		if cur == 0 {
			out = append(out, '.')
		} else {
			out = append(out, cur)
		}
		out = strconv.AppendInt(out, int64(n), 10)
	}
	styled := false
	for _, t := range toks {
		if t.Value == "" {
			continue
		}
		l := byte(0)
		if t.Type >= 0 && int(t.Type) < len(letters) {
			l = letters[t.Type]
		} else if c, ok := runClassLetters()[tokenClass(t.Type)]; ok {
			l = c
		}
		if l != cur {
			flush()
			cur, n = l, 0
		}
		styled = styled || l != 0
		n += utf16Len(t.Value)
	}
	if cur != 0 {
		flush() // a last plain run goes without saying
	}
	b.WriteString("<code")
	if styled {
		// Letters, digits and dots: nothing to escape.
		b.WriteString(` data-hl="`)
		b.Write(out)
		b.WriteByte('"')
	}
	b.WriteByte('>')
	for _, t := range toks {
		escapeTextTo(b, t.Value)
	}
	b.WriteString("</code>")
}

// utf16Len is the length of s in UTF-16 code units, as the page's script
// counts the text of a <code> element.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x80 || c >= 0xc0 && c < 0xf0:
			n++ // ASCII, or a lead byte of a character in the BMP
		case c >= 0xf0:
			n += 2 // a lead byte of a surrogate pair
		}
	}
	return n
}

// writeGutter writes the line numbers of code as one text block beside
// it (see pre.numbered in content.css): one node for all numbers instead
// of three elements per line.
func writeGutter(b *bytes.Buffer, code string, firstLine int) {
	lines := strings.Count(strings.TrimSuffix(code, "\n"), "\n") + 1
	b.WriteString(`<span class="gutter" aria-hidden="true">`)
	for i := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(firstLine + i))
	}
	b.WriteString("</span>")
}

// HighlightClasses lists the classes of the runs of highlighted code, in
// the order of their letters, for the page's script. A highlighted <code>
// element (writeCode) holds its text plain, cut into runs in its data-hl
// attribute, one after another: each a character and a length in UTF-16
// code units of the element's text, '.' for plain text, a letter for text
// in the style of a class: 'a' for the first class listed here, 'z' for
// the 26th, then 'A' to 'Z'. Text after the last run is plain. Of the
// classes that look alike in both styles, the one listed stands for all
// (chroma's stylesheet, CSS, styles each alike).
func HighlightClasses() []string { return runClassList() }

// runStyles groups the token classes that either style shows differently
// from plain text by how they look in both (github and github-dark): of
// chroma's 73 such classes, 37 looks. Each group's first class, in
// sorted order, stands for it.
var runStyles = sync.OnceValues(func() (list []string, letter map[string]byte) {
	light, dark := styles.Get("github"), styles.Get("github-dark")
	byLook := map[string]string{}
	canon := map[string]string{}
	var names []string
	for t, cls := range chroma.StandardTypes {
		if styledClasses()[cls] {
			names = append(names, cls)
			canon[cls] = light.Get(t).String() + "|" + dark.Get(t).String()
		}
	}
	slices.Sort(names)
	for _, cls := range names {
		if _, ok := byLook[canon[cls]]; !ok {
			byLook[canon[cls]] = cls
			list = append(list, cls)
		}
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	if len(list) > len(alphabet) {
		panic("render: " + session.Count(len(list), "look", "looks") + " of highlighted code, more than run letters")
	}
	letter = map[string]byte{}
	for k, cls := range list {
		letter[cls] = alphabet[k]
	}
	for _, cls := range names {
		letter[cls] = letter[byLook[canon[cls]]]
	}
	return list, letter
})

func runClassList() []string           { l, _ := runStyles(); return l }
func runClassLetters() map[string]byte { _, m := runStyles(); return m }

// runLetters is, for each token type up to chroma's largest, the letter
// of its run, or 0 for plain text: worked out once per type, not per
// token (a page has millions).
var runLetters = sync.OnceValue(func() []byte {
	top := chroma.TokenType(0)
	for t := range chroma.StandardTypes {
		top = max(top, t)
	}
	out := make([]byte, top+1)
	for t := range out {
		out[t] = runClassLetters()[tokenClass(chroma.TokenType(t))]
	}
	return out
})

// styledClasses is the set of token classes that either style shows
// differently from plain text. White space is never among them: its colour
// cannot be seen.
var styledClasses = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, name := range []string{"github", "github-dark"} {
		style := styles.Get(name)
		bg := style.Get(chroma.Background)
		text := bg.Colour
		if !text.IsSet() {
			// github's light style sets no base colour; it paints names
			// and punctuation in its text colour instead.
			text = style.Get(chroma.Punctuation).Colour
		}
		looksPlain := func(e chroma.StyleEntry) bool {
			return (!e.Colour.IsSet() || e.Colour == text) &&
				(!e.Background.IsSet() || e.Background == bg.Background) &&
				e.Bold != chroma.Yes && e.Italic != chroma.Yes && e.Underline != chroma.Yes
		}
		for tt, cls := range chroma.StandardTypes {
			if cls != "" && !looksPlain(style.Get(tt)) {
				set[cls] = true
			}
		}
	}
	delete(set, tokenClass(chroma.TextWhitespace))
	return set
})

// Sessions show the same code again and again: a file read before and
// after each edit, the same snippet quoted in several answers. Rendered
// blocks are cached by content so chroma, the slowest stage by far, lexes
// each once per process (an archive of many sessions or the server
// benefits most).
const (
	blockCacheMinBytes = 256     // smaller blocks are cheaper to lex than to hash
	blockCacheMaxBytes = 8 << 20 // bound on the cached HTML
)

var blockCache = newCodeCache(blockCacheMaxBytes)

// SetCodeCacheLimit bounds the bytes of rendered blocks kept for reuse
// (8 MiB to start with; 0 keeps none), empties the cache and returns the
// bound it replaced. Benchmarks set 0 so that every iteration measures
// highlighting, not a map lookup. Nothing may be rendering meanwhile.
func SetCodeCacheLimit(n int) (old int) {
	old = blockCache.max
	blockCache = newCodeCache(n)
	return old
}

func blockKey(code, lexer string, firstLine int, lim limits) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\x00", lexer, firstLine, lim.maxBytes, lim.workPerByte)
	h.Write([]byte(code))
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// codeCache maps content hashes to rendered blocks. When it outgrows its
// bound it starts afresh: simpler than an LRU, and a session's repeats
// are close together.
type codeCache struct {
	mu    sync.Mutex
	max   int
	size  int
	items map[[sha256.Size]byte][]byte
}

func newCodeCache(max int) *codeCache {
	return &codeCache{max: max, items: map[[sha256.Size]byte][]byte{}}
}

func (c *codeCache) get(k [sha256.Size]byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.items[k]
	return b, ok
}

func (c *codeCache) put(k [sha256.Size]byte, b []byte) {
	if len(b) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.size+len(b) > c.max {
		clear(c.items)
		c.size = 0
	}
	if _, ok := c.items[k]; !ok {
		c.items[k] = b
		c.size += len(b)
	}
}
