package gfm

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/render"
)

// Session text as Markdown syntax: fences, code spans, escaped inline
// text, and the line handling they need.

// fenceLangs names the fence language for common file extensions, in the
// names GitHub's highlighter knows; others are looked up in chroma.
var fenceLangs = map[string]string{
	".bash": "bash", ".c": "c", ".cc": "cpp", ".cjs": "javascript", ".cpp": "cpp", ".cs": "csharp",
	".css": "css", ".dart": "dart", ".diff": "diff", ".ex": "elixir", ".exs": "elixir", ".go": "go",
	".h": "c", ".hpp": "cpp", ".hs": "haskell", ".htm": "html", ".html": "html", ".ini": "ini",
	".java": "java", ".js": "javascript", ".json": "json", ".jsonl": "json", ".jsx": "jsx",
	".kt": "kotlin", ".lua": "lua", ".md": "markdown", ".mjs": "javascript", ".patch": "diff",
	".php": "php", ".proto": "protobuf", ".ps1": "powershell", ".py": "python", ".rb": "ruby",
	".rs": "rust", ".scala": "scala", ".scss": "scss", ".sh": "bash", ".sql": "sql",
	".svelte": "svelte", ".swift": "swift", ".toml": "toml", ".ts": "typescript", ".tsx": "tsx",
	".txt": "text", ".vue": "vue", ".xml": "xml", ".yaml": "yaml", ".yml": "yaml", ".zig": "zig",
	".zsh": "zsh",
}

// fenceNames names the fence language of common files without an
// extension.
var fenceNames = map[string]string{
	"makefile": "make", "gnumakefile": "make", "dockerfile": "dockerfile", "containerfile": "dockerfile",
	"gemfile": "ruby", "rakefile": "ruby", "jenkinsfile": "groovy", ".bashrc": "bash", ".zshrc": "zsh",
	".profile": "bash", ".bash_profile": "bash",
}

// fenceLang is the fence language for a file: from its extension (looked
// up in fenceLangs, else in chroma by the extension alone, so that the
// lexer cache holds one entry per extension, not per file) or its name,
// else text.
func fenceLang(file string) string {
	base := strings.ToLower(file[strings.LastIndexAny(file, `/\`)+1:])
	if lang, ok := fenceNames[base]; ok {
		return lang
	}
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return "text"
	}
	if lang, ok := fenceLangs[base[dot:]]; ok {
		return lang
	}
	if lang := fenceInfo(render.FileLanguage("x" + base[dot:])); lang != "" {
		return lang
	}
	return "text"
}

// fenceInfo keeps a language name to the characters fence info strings
// use, so that it cannot end or extend the fence line.
func fenceInfo(lang string) string {
	lang = strings.ToLower(lang)
	for i := 0; i < len(lang); i++ {
		c := lang[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("+#._-", c) >= 0) {
			return ""
		}
	}
	return lang
}

// fenced puts content in a fenced code block whose fence is longer than
// any run of backticks in it, so no line of the content can close it.
func fenced(lang, content string) string {
	content = strings.TrimRight(normaliseNewlines(content), "\n")
	f := strings.Repeat("`", max(3, longestRun(content, '`')+1))
	if content == "" {
		return f + fenceInfo(lang) + "\n" + f
	}
	return f + fenceInfo(lang) + "\n" + content + "\n" + f
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// codeSpan shows s, folded onto one line, as inline code: the backtick
// run around it is longer than any inside, and padded when s starts or
// ends with a backtick or a space, which a renderer would strip.
func codeSpan(s string) string {
	s = foldLine(s)
	if s == "" {
		return ""
	}
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' || s[0] == ' ' || s[len(s)-1] == ' ' {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// mdInline is session text folded onto one line and escaped to read as
// plain text in a heading, list item, table cell, italic line or HTML
// summary: every character that could start Markdown or HTML becomes a
// character reference ("{" and "}" too, which MDX reads as an
// expression; "$" and "~" where there are two, which GitHub reads as TeX
// and strikethrough). A reference reads
// as its character in every renderer and in HTML alike, where a
// backslash escape is CommonMark's own: Python-Markdown shows "\:" as it
// is.
func mdInline(s string) string {
	s = foldLine(s)
	// A "~" or "$" alone opens nothing: "~/src" stays as it is.
	pairs := ""
	for _, c := range "~$" {
		if strings.Count(s, string(c)) > 1 {
			pairs += string(c)
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("\\`*_[]<>&|#{}", c) >= 0, strings.IndexByte(pairs, c) >= 0,
			c == ':' && strings.HasPrefix(s[i:], "://"),
			c == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			// No autolink for the last two: GitHub's renderer runs one on
			// through what follows.
			b.WriteString(charRef(c))
		case i == 0 && (c == '-' || c == '+' || c == '='):
			// A list item or a heading's underline at a line's start.
			b.WriteString(charRef(c))
		case (c == '.' || c == ')') && i > 0 && allDigits(s[:i]):
			// "1." starts an ordered list.
			b.WriteString(charRef(c))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// charRef is the character reference of the ASCII character c, named
// for the three HTML escapes and numeric for the rest.
func charRef(c byte) string {
	switch c {
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	case '&':
		return "&amp;"
	}
	return "&#" + strconv.Itoa(int(c)) + ";"
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// foldLine puts s on one line, dropping control characters.
func foldLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func normaliseNewlines(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	// CommonMark ends lines at a lone \r too.
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// showControls shows each control character of s but tab and newline
// (which normaliseNewlines leaves alone) as its Unicode control picture:
// "\f" as "␌", NUL as "␀", DEL as "␡". In Markdown they mean nothing a
// reader can see, and GitHub's renderer (cmark-gfm) and goldmark read
// them apart: a vertical tab or form feed is a space to one and text to
// the other where a table's rows are split, an attribute value ends, or
// a tag's attributes are separated, which changes what is a table, a
// code span or raw HTML. A control picture is text to both.
func showControls(s string) string {
	i := strings.IndexFunc(s, isShownControl)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2*8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		switch {
		case r == 0x7f:
			r = '\u2421'
		case isShownControl(r):
			r += 0x2400
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isShownControl(r rune) bool {
	return r < ' ' && r != '\t' && r != '\n' || r == 0x7f
}

// trimBlankLines drops whitespace-only lines at the start (keeping the
// first line's indentation, which can make it code) and any trailing
// whitespace.
func trimBlankLines(s string) string {
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		s = rest
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strings.TrimRight(s, " \t\n")
}

// expandLeadingTabs turns a line's leading tabs into spaces (tab stops of
// four), so that indentation keeps its meaning after a "> " prefix.
func expandLeadingTabs(line string) string {
	if !strings.HasPrefix(strings.TrimLeft(line, " "), "\t") {
		return line
	}
	var b strings.Builder
	col := 0
	i := 0
	for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		if line[i] == ' ' {
			col++
			b.WriteByte(' ')
			continue
		}
		n := 4 - col%4
		col += n
		b.WriteString(strings.Repeat(" ", n))
	}
	return b.String() + line[i:]
}

// trimLineEnds removes trailing spaces and tabs from every line, and
// makes the document end with one newline. Hard line breaks in session
// text were turned into backslashes by safeMarkdown, so no meaning is lost.
func trimLineEnds(doc []byte) []byte {
	out := make([]byte, 0, len(doc)+1)
	for len(doc) > 0 {
		line, rest, _ := bytes.Cut(doc, []byte("\n"))
		out = append(out, bytes.TrimRight(line, " \t")...)
		out = append(out, '\n')
		doc = rest
	}
	return out
}
