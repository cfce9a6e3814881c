package gfm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
)

// TestSafeMarkdown checks the edits safeMarkdown makes, and that it makes
// none to Markdown that needs none.
func TestSafeMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain markdown stays", "Title\n\n- a *b* `c`\n\n| x | y |\n|---|---|\n| 1 | 2 |", ""},
		// Headings of session text are bold lines: they must not rank with
		// the document's turns, nor reach a table of contents.
		{"ATX heading", "# Title\nnext\n\n## Rules ##\n\n- a", "**Title**\n\nnext\n\n**Rules**\n\n- a"},
		{"ATX heading after a paragraph", "a\n## B\nc\n\n> d\n> # E", "a\n\n**B**\n\nc\n\n> d\n>\n> **E**"},
		{"heading in a quote and a list", "> # Q\n> text\n\n- # A\n- # B", "> **Q**\n>\n> text\n\n- **A**\n- **B**"},
		{"setext heading", "Set\next\n===\nafter", "**Set\next**\n\nafter"},
		{"empty heading", "a\n\n#\n\nb", "a\n\n\n\nb"},
		{"heading with code", "# a `<b>` #", "**a `<b>`**"},
		{"HTML in code stays", "Use `<b>` or:\n\n```html\n<script>x</script>\n```\n\n    <div>", ""},
		{"safe links stay", "[a](https://x.org) [b](./rel.md) [c](#frag) <mailto:a@b.c> www.x.org", ""},
		{"leading blank lines go, indentation stays", "\n  \n    code\n\n", "    code"},
		{"CRLF", "a\r\nb\rc", "a\nb\nc"},
		{"inline HTML", "a <b>x</b> c", `a &lt;b>x&lt;/b> c`},
		{"HTML block", "<div>\n*x*\n</div>", "&lt;div>\n*x*\n&lt;/div>"},
		{"HTML comment before a fence keeps the fence's code as it is", "<!--\n```\n<b>\n```", "&lt;!--\n```\n<b>\n```"},
		{"javascript link", "[a](javascript:x)", `&#91;a](javascript:x)`},
		{"link hidden by a character reference", "[a](jav&#x61;script:x)", `&#91;a](jav&#x61;script:x)`},
		{"data image", "![a](data:image/svg+xml,x)", `!&#91;a](data:image/svg+xml,x)`},
		// A file:// page would read "//host" as file://host: dropped, the
		// text kept (the HTML page resolves it to https instead).
		{"protocol-relative link", "[a](//evil.example/p) [b]: x\n\n[c]: //evil.example", `&#91;a](//evil.example/p) [b]: x` + "\n\n" + `&#91;c]: //evil.example`},
		{"image becomes a link", "![a](https://t.example/p.png)", "[image: a](https://t.example/p.png)"},
		{"autolink", "<vbscript:x>", `&lt;vbscript:x>`},
		{"definition, and the link using it", "[x]: javascript:y\n\n[x]", `&#91;x]: javascript:y` + "\n\n" + `&#91;x]`},
		{"definition that nothing here uses", "[z]: javascript:y", `&#91;z]: javascript:y`},
		{"open fence", "```go\nx", "```go\nx\n```"},
		{"open tilde fence", "~~~~\nx\n~~~", "~~~~\nx\n~~~\n~~~~"},
		{"hard break with spaces", "a  \nb", "a\\\nb"},
		{"hard break after a backslash", "a\\  \nb", "a\\ \\\nb"},
		// goldmark misses a hard break after escaped backslashes, and
		// carries the escape to the next line (testdata/fuzz).
		{"hard break after escaped backslashes", "a\\\\\\\n\\\\[b](javascript:x)", "a&#92;\\\n\\\\&#91;b](javascript:x)"},
		{"hard break with spaces after an escaped backslash", "a\\\\  \nb", "a&#92;\\\nb"},
		{"escaped backslashes before a newline stay", "a\\\\\nb", ""},
		{"footnote", "x[^1]\n\n[^1]: note <b>", "x[^1]\n\n[^1]: note &lt;b>"},
		// Without footnotes, the lines after "[^y]: ..." can be link
		// definitions; with them, the note's text (testdata/fuzz).
		{"definition after a footnote", "[^y]: ip\n[y]: javascript:x\n\n[y]", "[^y]: ip\n&#91;y]: javascript:x\n\n&#91;y]"},
		// Regressions from FuzzSafeMarkdown: tags that goldmark reads as
		// text and cmark-gfm as raw HTML; any "<" that could open a tag
		// is written "&lt;", and control characters are shown as their
		// pictures.
		{"control character in an attribute value", "a <img src=x\x03 onerror=alert(1)>", "a &lt;img src=x\u2403 onerror=alert(1)>"},
		{"form feed between attributes", "<img\fsrc=x onerror=alert(1)>", "&lt;img\u240csrc=x onerror=alert(1)>"},
		{"invalid UTF-8 in an attribute value", "a <img src=x\xe8 onerror=alert(1)>", "a &lt;img src=x\uFFFD onerror=alert(1)>"},
		{"NUL and DEL in an attribute value", "a <img src=x\x00\x7f onerror=alert(1)>", "a &lt;img src=x\u2400\u2421 onerror=alert(1)>"},
		{"end tag, comment, declaration, processing instruction", "</b\uFFFD> <!-\uFFFD- <!X\uFFFD <?\uFFFD", "&lt;/b\uFFFD> &lt;!-\uFFFD- &lt;!X\uFFFD &lt;?\uFFFD"},
		{"tab and newline stay", "a\tb\nc", ""},
		{"a < that opens nothing stays", "a < b, x<3, <=, <<", ""},
		// goldmark pads a header short of cells and makes a table;
		// cmark-gfm reads a paragraph, whose code spans pair differently.
		{"table whose header has fewer cells than its delimiter row", "a |\n|---|---|\n`x|`<img src=x onerror=alert(1)>`|`", "a |\n|&#45;--|---|\n&#96;x|`&lt;img src=x onerror=alert(1)>`|&#96;"},
		{"table in a quote, header short of cells", "> a\n> | :-- | --- |\n> b", "> a\n> | :&#45;- | --- |\n> b"},
		{"table whose body rows are short of cells stays", "a | b\n-|-\nc\n`<b>`", ""},
		// goldmark takes into a destination what cmark-gfm does not.
		{"destination in angle brackets holding a <", "[a](<x<img src=x onerror=alert(1)>)", `&#91;a](&lt;x&lt;img src=x onerror=alert(1)>)`},
		{"definition in angle brackets holding a <", "[a]: <x<b>\n\n[a]", "&#91;a]: &lt;x&lt;b>\n\n&#91;a]"},
		// A lazy line: goldmark's paragraph goes on, cmark-gfm's ends and
		// an HTML block starts. On one line, the code span starts nothing.
		{"lazy line opening HTML inside a code span", "> ``\n</j>\n> `` <img src=x onerror=alert(1)>", "> `` </j> `` &lt;img src=x onerror=alert(1)>"},
		{"lazy line in a list item", "- ``\n  </j>\n``", "- `` </j> ``"},
		{"HTML starting a line is written once", "a\n<b>x</b>", "a\n&lt;b>x&lt;/b>"},
		{"code and autolinks starting a line stay", "- ```\n  <b>\n  ```\n\n<https://a.example>\n<a@b.example>", ""},
		// cmark-gfm's autolink runs on through a backtick that is text.
		{"autolink through an unmatched backtick", "see https://a.ex`mple/<img src=x>", "see https&#58;//a.ex&#96;mple/&lt;img src=x>"},
		{"autolink through a code span", "see https://a.example/`c`<img src=x>", "see https&#58;//a.example/`c`&lt;img src=x>"},
		{"autolink through a vertical tab and a form feed", "https://a.example/x\vy\\<b> www.a.example/x\fy`<b>`", "https&#58;//a.example/x\u240by\\<b> www&#46;a.example/x\u240cy`<b>`"},
		// A form feed or vertical tab in a table's rows made a table for
		// cmark-gfm and a paragraph with a code span for goldmark; as a
		// picture, it makes a paragraph for both.
		// A table to goldmark, a list item's lazy lines to cmark-gfm: the
		// cell past the header's, which goldmark drops, holds a tag.
		{"lazy table in a list item", "- a\n|(\n-|\nb|<b>|`x|`", "- a\n|(\n-|\nb|&lt;b>|`x|`"},
		{"a table in a list item stays", "- a\n\n  | x | `<y>` |\n  |---|---|\n  | 1 | 2 |", ""},
		// cmark-gfm leaves the definitions before a table's header as
		// text; goldmark takes them out.
		{"definitions running into a table", "[a]: <b>\n[c]: /d '<i>'\n| x |\n|---|", "&#91;a]: &lt;b>\n&#91;c]: /d '&lt;i>'\n| x |\n|---|"},
		{"a definition, a line, then a table", "[a]: <b>\nx\n| y |\n|---|", "&#91;a]: &lt;b>\nx\n| y |\n|---|"},
		{"a definition as a table's header", "[a]: <b>\n:---\n\n> [c]: <d>\n> | - |", "&#91;a]: &lt;b>\n:---\n\n> &#91;c]: &lt;d>\n> | - |"},
		{"a definition before a rule stays", "[a]: <b>\n---", ""},
		{"a definition apart from a table stays", "[a]: /u '<b>'\n\n| x |\n|---|\n\n[a]", ""},
		{"form feed in a table's delimiter row", "| a`| <b> |\n\f---|---|\n| <i>`x|y |", "| a`| <b> | \u240c---|---| | <i>`x|y |"},
		{"a link before a space and code stays", "see https://a.example/ `<b>` www.a.example/x", ""},
		{"a link in a code span stays", "see `https://a.example/`<img src=x>", "see `https://a.example/`&lt;img src=x>"},
		// cmark-gfm gives up on code spans after a backtick run with no
		// closer; escaped, such a run opens nothing.
		{"backticks that open no code span", "``\n`a` `<b>` it's `x", "&#96;&#96;\n`a` `<b>` it's &#96;x"},
		{"code spans stay", "`a` ``b`c`` ```<d>```", ""},
		// goldmark refuses every link after two unclosed "[" 998 bytes
		// apart; cmark-gfm does not.
		{"unclosed brackets far apart", "[a " + strings.Repeat("x", 998) + " [b [c](javascript:x)", "&#91;a " + strings.Repeat("x", 998) + " &#91;b &#91;c](javascript:x)"},
		{"unclosed brackets in a short paragraph stay", "[a [b [c](https://a.example) x[0]", ""},
		{"destination with an escaped < stays", `[a](<x\<y>) [b](<c d>)`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if want == "" {
				want = tc.in
			}
			if got := safeMarkdown(tc.in); got != want {
				t.Errorf("safeMarkdown(%q)\n got %q\nwant %q", tc.in, got, want)
			}
		})
	}
}

// TestCanonicalNeverPanics writes every hostile seed anew for both
// readers: a footnote that ends in code has its backlink after it, where
// a block was wanted (a panic, before).
func TestCanonicalNeverPanics(t *testing.T) {
	for _, in := range append(mdHostileSeeds, "x[^1]\n\n[^1]:\n    ```\n    open") {
		for _, d := range []dialect{{}, {mdx: true}} {
			for _, nested := range []bool{false, true} {
				canonical(in, d, nested)
			}
		}
	}
}

// TestSafeMarkdownContains checks on the parsed result that text cannot
// reach past the place it is written to, whatever it holds.
func TestSafeMarkdownContains(t *testing.T) {
	for _, in := range mdHostileSeeds {
		checkContained(t, in)
	}
}

var mdHostileSeeds = []string{
	"<details>\n<summary>x</summary>\n\n</details>\n\n<script>alert(1)</script>",
	"```\n",
	"````\n```\n",
	"<!--",
	"<pre>\n```\n</pre>\n```\n<script>x</script>",
	"- ```\n  <b>\n\n<b>",
	"> ```\n> open",
	"<div>\n\t<p>a</p>\n</div>",
	"[x]: <javascript:y>\n[y]: javascript:z 'title'\n\n[x] [y]",
	"[a](<javascript:x>) [b]( javascript:x ) [c](java\tscript:x)",
	"  \n\t\n",
	"a\\\n<b>",
	"*a <b>* `<c>` ``<d>``",
	"| a | <b> |\n|---|---|\n| <script> | `x|y` |",
	"<![CDATA[\n]]>\n<?php x ?>\n<!X>",
	"\x02", // a control character, which cmark-gfm's XML tree keeps raw
	// GitHub's autolinks run on through backslashes, in any case:
	"see https://a.example/<img src=https://tracker.example/p.png onerror=alert(1)>",
	"WWW.A.EXAMPLE/\\<input> HTTPS://A.EXAMPLE/x\\\\<input> ftp://a.example/\\<b>",
	"![x](https://tracker.example/pixel.png) [![l](https://t.example/l.png)](https://a.example)",
	"ftp://0 FTP://a.example/x ftp://0.a", // linked by GitHub, not allowed here
	// FuzzSafeMarkdown's findings (testdata/fuzz): raw HTML to cmark-gfm,
	// text to goldmark, for a control character in the tag (\x03, \x12)
	// and for invalid UTF-8, which becomes U+FFFD, where goldmark's
	// regular expressions stop.
	"uee https://a.example/<img src=https://tracker\x03\xe8xample/p.png onerror=alert(1)>",
	"see https://a.example/<img src=h\x9e\xf7\x12\x86ttps:img src=e/p.png onerror=alert(1)>",
	"<img src=x\x03 onerror=alert(1)>\n\n<img\vsrc=x onerror=alert(1)>\n\n<img src=x\x00 onerror=alert(1)>",
	"a <img src=x\xe8 onerror=alert(1)> </b\x03>",
	// A table to goldmark, a paragraph to cmark-gfm (testdata/fuzz).
	"a |\n|---|---|\n`x|`<img src=x onerror=alert(1)>`|`",
	"- a\n  |-|-|\n  `|`<img src=x onerror=alert(1)>`|`",
	// A link to goldmark, text to cmark-gfm (testdata/fuzz).
	"[a](<x<img src=x onerror=alert(1)>) [b](<x<![i](https://t.example/p.png)>)\n\n[c]: <x<img src=x onerror=alert(1)>",
	// An HTML block to cmark-gfm, a code span to goldmark (testdata/fuzz).
	"> ``\n</j>\n> `` <img src=x onerror=alert(1)>\n\n- ``\n</j>\n  `` <img src=x onerror=alert(1)>",
	// An autolink through a backtick (testdata/fuzz).
	"see https://a.ex`mple/<img src=x onerror=alert(1)> www.a`b.example/<img src=x onerror=alert(1)>",
	"https://a.example/x\vy<img src=x onerror=alert(1)> https://a.example/x\fy<img src=x onerror=alert(1)>",
	// Links and images after unclosed brackets far apart (testdata/fuzz).
	"[a " + strings.Repeat("x", 1000) + " [b [c](javascript:x) ![i](https://t.example/p.png) [y [z](javascript:x)](https://a.example)",
	// A hard break after escaped backslashes (testdata/fuzz).
	"\\\\\\\n\\\\[a](javascript:x) ![i](https://t.example/p.png)",
	// Definitions that run into a table, or are its header.
	"[a]: <img src=x onerror=alert(1)>\n|---|\n\n[b]: <img src=x onerror=alert(1)>\n:---",
	// Definitions that run into a table.
	"[a]: <img src=x onerror=alert(1)>\n[b]: /u '<img src=x onerror=alert(1)>'\n| x |\n|---|",
	// Tables of lazy lines (testdata/fuzz).
	"- a\n|(\n-|\nb|<img src=x onerror=alert(1)>|\n\n> a\n|x|\n|-|-|\n|`y|`<img src=x onerror=alert(1)>`|`",
	// Vertical tabs and form feeds in tables (testdata/fuzz).
	"| a`| <img src=x onerror=alert(1)> |\n\f---|---|\n| <b>`x|y |\n\n| a | b |\f\n---|\v---|\n| `<img src=x onerror=alert(1)>` | c |",
	// Notes the text uses, which goldmark puts after the document
	// (testdata/fuzz); one holds an open fence.
	"x[^1] y[^2]\n\n[^1]: note <img src=x onerror=alert(1)>\n[^2]:\n    ```\n    open",
	// Code spans that cmark-gfm gives up on (testdata/fuzz).
	"``\n`a` `<img src=x onerror=alert(1)>`\n\nb ``` `c` ``d`` `<img src=x onerror=alert(1)>`",
}

// checkContained embeds safeMarkdown(in) in a <details> block followed by
// a heading, as the export does, and checks the parsed whole.
func checkContained(t *testing.T, in string) {
	t.Helper()
	doc := string(trimLineEnds([]byte("<details><summary>x</summary>\n\n" + safeMarkdown(in) + "\n\n</details>\n\n## After\n")))
	d := checkMarkdown(t, doc)
	if d.details != 1 {
		t.Errorf("%q: %d <details> blocks, want 1:\n%s", in, d.details, doc)
	}
	last := d.root.LastChild()
	if last != nil && last.Kind() == extast.KindFootnoteList {
		// goldmark puts the notes that the text uses after the whole
		// document (GitHub too): after the heading, not in place of it. A
		// note that took the heading in holds it there, and last is not it.
		last = last.PreviousSibling()
	}
	if h, ok := last.(*ast.Heading); !ok || mdNodeText(h, d.source) != "After" {
		t.Errorf("%q: the text swallowed what follows it:\n%s", in, doc)
	}
}

// FuzzSafeMarkdown checks that no text escapes its place or brings raw
// HTML or a bad link into the document.
func FuzzSafeMarkdown(f *testing.F) {
	for _, s := range mdHostileSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkContained(t, in)
	})
}

// FuzzCanonical writes any text anew for both readers, which must not
// panic. (What the readers make of it is checked by the engines' tests.)
func FuzzCanonical(f *testing.F) {
	for _, s := range mdHostileSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, d := range []dialect{{}, {mdx: true}} {
			canonical(in, d, false)
			canonical(in, d, true)
		}
	})
}

// The exact text the attack used, in the title and the body: under
// GitHub's renderer the backslash before "<" went into the autolink and
// the <img onerror> came alive; remote images stayed images (tracking
// pixels) where the HTML page turns them into links.
func TestMarkdownGitHubAutolinkAndImages(t *testing.T) {
	attack := "see https://a.example/<img src=https://tracker.example/p.png onerror=alert(1)>"
	inputs := "www.a.example/<input type=checkbox checked> https://a.example/x\\<input autofocus onfocus=alert(2)> " +
		"http://a.example/\\\\<input> <https://a.example/<input>> HTTPS://A.EXAMPLE/<input> WWW.A.EXAMPLE/<input>"
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/p"},
		mdMessage("u1", "", 1, obj{"role": "user", "content": attack}),
		mdMessage("a1", "u1", 2, obj{"role": "assistant", "content": []obj{mdText(
			"![x](https://tracker.example/pixel.png) ![](//tracker.example/p.gif) ![rel](pixel.png) [![logo](https://t.example/l.png)](https://a.example)\n\n" +
				"![ref][px]\n\n[px]: https://tracker.example/ref.png\n\n" + inputs)}}),
	)
	doc := exportMarkdown(t, s, Options{})
	d := checkMarkdown(t, doc) // with cmark-gfm: no raw HTML, no image
	if !strings.HasPrefix(doc, "# see https&#58;//a.example/&lt;img") {
		t.Errorf("the title: %q", strings.SplitN(doc, "\n", 2)[0])
	}
	for _, want := range []string{"[image: x](https://tracker.example/pixel.png)", "[image: rel](pixel.png)", "[image: ref][px]"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %q:\n%s", want, doc)
		}
	}
	// The text still reads as written.
	var rendered bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Renderer().Render(&rendered, d.source, d.root); err != nil {
		t.Fatal(err)
	}
	if page := rendered.String(); !strings.Contains(page, "&lt;img src=") || !strings.Contains(page, "onerror=alert(1)&gt;") {
		t.Errorf("the attack text no longer reads as written:\n%s", page)
	}
}
