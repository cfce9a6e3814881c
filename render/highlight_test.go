package render

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
)

func TestHighlightKnownLanguages(t *testing.T) {
	cases := []struct {
		lang, code, wantLang, wantSpan string
	}{
		{"go", "func main() {}", "Go", `<span class=k>func</span>`},
		{"GO", "func main() {}", "Go", `<span class=k>func</span>`},
		{"golang", "func main() {}", "Go", `<span class=k>func</span>`},
		{"python", "def f(): pass", "Python", `<span class=k>def</span>`},
		{"py", "def f(): pass", "Python", `<span class=k>def</span>`},
		{"ts", "const x: number = 1", "TypeScript", `<span class=k>const</span>`},
		{"typescript", "const x: number = 1", "TypeScript", `<span class=k>const</span>`},
		{"sh", "echo hi # c", "Bash", `<span class=c># c</span>`},
		{"json", `{"a": 1}`, "JSON", `<span class=nt>"a"</span>`},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			out := withSpans(t, string(Highlight(tc.code, tc.lang)))
			for _, want := range []string{`<pre class="chroma" data-lang="` + tc.wantLang + `"><code>`, tc.wantSpan} {
				if !strings.Contains(out, want) {
					t.Errorf("missing %q in %s", want, out)
				}
			}
			if got := contentText(t, out); got != tc.code {
				t.Errorf("text = %q, want %q", got, tc.code)
			}
		})
	}
}

func TestHighlightPlainFallback(t *testing.T) {
	cases := []struct{ name, lang string }{
		{"unknown", "nosuchlanguage"},
		{"empty", ""},
		{"plaintext", "text"},
		{"markup in name", `"><script>`},
		{"long name", strings.Repeat("x", 200)},
	}
	code := "<b>bold</b> & \"q\" 'a'\n"
	want := `<pre class="chroma"><code>&lt;b&gt;bold&lt;/b&gt; &amp; "q" 'a'` + "\n</code></pre>"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Highlight(code, tc.lang)); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// Misses are cached too: lexers.Get scans every lexer for an unknown name.
func TestLexerCacheKeepsMisses(t *testing.T) {
	if lexerForLang("no-such-lexer-xyz") != nil {
		t.Fatal("found a lexer for no-such-lexer-xyz")
	}
	v, ok := lexerCache.Load("lang:no-such-lexer-xyz")
	if !ok || v.(cachedLexer).lexer != nil {
		t.Errorf("miss not cached: %v %v", v, ok)
	}
}

func TestHighlightEscapesMarkupInCode(t *testing.T) {
	code := `</script><script>alert(1)</script><img src=x onerror=alert(1)>`
	for _, lang := range []string{"html", "go", "javascript", "nosuchlang", ""} {
		t.Run(lang, func(t *testing.T) {
			out := string(Highlight(code, lang))
			for _, p := range contentSafetyProblems(out) {
				t.Errorf("%s: %s", p, out)
			}
			if got := contentText(t, out); got != code {
				t.Errorf("text = %q", got)
			}
		})
	}
}

func TestHighlightFile(t *testing.T) {
	cases := []struct{ path, wantLang string }{
		{"main.go", "Go"},
		{"/home/u/src/app/main.go", "Go"},
		{`C:\src\tool.py`, "Python"},
		{"web/app.tsx", "TypeScript"},
		{"Makefile", "Makefile"},
		{"Dockerfile", "Docker"},
		{"notes.txt", ""},
		{"no-extension-here", ""},
		{"dir/", ""},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			out := withSpans(t, string(renderCode("x := 1\n", lexerForFile(tc.path), 0)))
			want := `<pre class="chroma"><code>`
			if tc.wantLang != "" {
				want = `<pre class="chroma" data-lang="` + tc.wantLang + `"><code>`
			}
			if !strings.HasPrefix(out, want) {
				t.Errorf("got %s, want prefix %s", out, want)
			}
		})
	}
}

func TestHighlightLines(t *testing.T) {
	out := withSpans(t, string(renderCode("a := 1\n\nb := 2\n", lexerForLang("go"), 98)))
	if want := `<pre class="chroma numbered" data-lang="Go"><span class="gutter" aria-hidden="true">98` + "\n99\n100</span><code>"; !strings.HasPrefix(out, want) {
		t.Errorf("got %s\nwant prefix %s", out, want)
	}
	if !strings.Contains(out, `<span class=k>:=</span>`) && !strings.Contains(out, `<span class=o>:=</span>`) {
		t.Errorf("not highlighted: %s", out)
	}

	// Unknown language and the minimum line number.
	out = string(HighlightFile("x\ny", "file.unknownext", 0))
	if want := `<pre class="chroma numbered"><span class="gutter" aria-hidden="true">1` + "\n2</span><code>x\ny</code></pre>"; out != want {
		t.Errorf("plain numbered lines: %s", out)
	}
}

// TestHighlightMarkupIsLean checks that white space and tokens no style
// colours carry no span, and that neighbours of one class share one.
func TestHighlightMarkupIsLean(t *testing.T) {
	out := withSpans(t, string(Highlight("func f() {\n\treturn\n}\n", "go")))
	if strings.Contains(out, `class="w"`) || strings.Contains(out, `class="p"`) {
		t.Errorf("spans for unstyled tokens: %s", out)
	}
	if n := strings.Count(out, "<span"); n > 3 {
		t.Errorf("%d spans for three styled tokens: %s", n, out)
	}
}

func TestHighlightNormalisesInput(t *testing.T) {
	out := string(Highlight("a\r\nb\rc\xff", "nosuchlang"))
	if want := "<pre class=\"chroma\"><code>a\nb\nc\uFFFD</code></pre>"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestHighlightSizeCap(t *testing.T) {
	code := strings.Repeat("x := 1 // <tag>\n", highlightMaxBytes/16+1)
	out := string(Highlight(code, "go"))
	note := `<p class="hl-note">not highlighted: ` + strconv.Itoa((len(code)+1023)/1024) + ` KB is above the ` + strconv.Itoa(highlightMaxBytes>>10) + ` KB limit</p>`
	if !strings.HasPrefix(out, note) {
		t.Errorf("no size note: %.200s", out)
	}
	if strings.Contains(out, `data-hl=`) {
		t.Errorf("highlighted above the cap")
	}
	if got := contentText(t, out); !strings.HasSuffix(got, code) {
		t.Errorf("text lost: %d bytes of %d", len(got), len(code))
	}
}

// A work limit too small for any lexer: the rest must come out as plain
// text, after a note.
func TestHighlightWorkLimitKeepsAllText(t *testing.T) {
	code := strings.Repeat("func f() { return 1 } // <x>\n", 2000)
	out := string(renderCodeNow(code, lexerForLang("go"), 0, limits{highlightMaxBytes, 0}))
	if !strings.Contains(out, `<p class="hl-note">highlighting stopped part way`) {
		t.Errorf("no note: %.300s", out)
	}
	if !strings.Contains(withSpans(t, out), `<span class=`) {
		t.Errorf("nothing highlighted before the limit: %.300s", out)
	}
	if got := contentText(t, out); !strings.HasSuffix(got, code) {
		t.Errorf("text lost: %d bytes of %d", len(got), len(code))
	}
}

// chroma's Go lexer is quadratic on unclosed block comments (this block
// would take tens of seconds): the work limit cuts it, says so, and keeps
// every byte as text. The cut is the same on every run, however busy the
// machine: it counts work, not time.
func TestHighlightQuadraticLexerIsCut(t *testing.T) {
	code := strings.Repeat("/* x ", 64<<10/5)
	out := string(Highlight(code, "go"))
	if !strings.Contains(out, "highlighting stopped part way") {
		t.Errorf("the block was not cut")
	}
	if got := contentText(t, out); !strings.HasSuffix(got, code) {
		t.Errorf("text lost: %d bytes of %d", len(got), len(code))
	}
	ResetCaches()
	if again := string(Highlight(code, "go")); again != out {
		t.Errorf("a second run cut the block elsewhere")
	}
}

// Sixty hostile blocks in one message, each as slow for its lexer as it
// can be made: each is cut after its own bounded work.
func TestHighlightManyHostileBlocks(t *testing.T) {
	var src strings.Builder
	code := strings.Repeat("/* x ", 16<<10/5)
	for i := range 60 {
		fmt.Fprintf(&src, "```go\n%s%d\n```\n\n", code, i)
	}
	out := string(Markdown(src.String(), "h-"))
	if n := strings.Count(out, "highlighting stopped part way"); n != 60 {
		t.Errorf("%d of 60 blocks cut", n)
	}
	for i := range 60 {
		if !strings.Contains(out, "/* x "+strconv.Itoa(i)+"\n") && !strings.Contains(out, "/* x "+strconv.Itoa(i)+"</code>") {
			t.Fatalf("block %d lost its end", i)
		}
	}
}

type brokenLexer struct {
	chroma.Lexer
	panics bool
}

func (l brokenLexer) Config() *chroma.Config { return &chroma.Config{Name: "broken"} }

func (l brokenLexer) Tokenise(*chroma.TokeniseOptions, string) (chroma.Iterator, error) {
	if !l.panics {
		return nil, errors.New("no rules")
	}
	n := 0
	return func() chroma.Token {
		n++
		if n > 2 {
			panic("unknown state")
		}
		return chroma.Token{Type: chroma.Keyword, Value: "x"}
	}, nil
}

func TestHighlightLexerFailures(t *testing.T) {
	for _, panics := range []bool{false, true} {
		t.Run("panics="+strconv.FormatBool(panics), func(t *testing.T) {
			out := string(renderCode("xx<y>", brokenLexer{panics: panics}, 0))
			want := `<p class="hl-note">not highlighted: the broken lexer failed</p><pre class="chroma" data-lang="broken"><code>xx&lt;y&gt;</code></pre>`
			if out != want {
				t.Errorf("got  %s\nwant %s", out, want)
			}
		})
	}
}

func TestChromaCSS(t *testing.T) {
	css := CSS()
	for _, want := range []string{
		".chroma .k, ",
		"@media screen {\n" + `html[data-theme="dark"] .chroma {`,
		"@media screen and (prefers-color-scheme: dark) {\n" + `html[data-theme="auto"] .chroma {`,
		".chroma .line { display: flex }",
	} {
		if !strings.Contains(css, want) {
			t.Errorf("missing %q", want)
		}
	}
	for _, bad := range []string{".bg ", ".err", "</style", "#ffffff; background-color", ".chroma { color: #1f2328; background-color"} {
		if strings.Contains(css, bad) {
			t.Errorf("unexpected %q", bad)
		}
	}
	if css != CSS() {
		t.Error("not stable between calls")
	}
}

// Every property the light style sets is set again by the dark rules, so
// the light style cannot leak into the dark theme.
func TestChromaCSSDarkOverridesLight(t *testing.T) {
	light := map[string][]cssDecl{}
	for _, r := range styleRules("github") {
		light[r.selector] = r.decls
	}
	css := CSS()
	_, darkPart, _ := strings.Cut(css, "@media screen {\n")
	darkPart, _, _ = strings.Cut(darkPart, "}\n@media")
	dark := map[string]string{}
	for line := range strings.SplitSeq(darkPart, "\n") {
		sels, body, ok := strings.Cut(line, " {")
		if !ok {
			continue
		}
		for sel := range strings.SplitSeq(sels, ", ") {
			dark[strings.TrimPrefix(sel, `html[data-theme="dark"] `)] = body
		}
	}
	for sel, decls := range light {
		body, ok := dark[sel]
		if !ok {
			t.Errorf("no dark rule for %s", sel)
			continue
		}
		for _, d := range decls {
			if !strings.Contains(body, " "+d.prop+":") {
				t.Errorf("%s: dark rule %q does not set %s", sel, body, d.prop)
			}
		}
	}
}

// withSpans writes the runs of highlighted code as the page's script does
// (assets/code.js: CodeBlocks.spans): a span of its class around each
// styled run. Lengths count UTF-16 code units of the element's text, a
// character reference one.
func withSpans(t *testing.T, out string) string {
	t.Helper()
	classes := HighlightClasses()
	re := regexp.MustCompile(`<code data-hl="([.a-zA-Z0-9]*)">([^<]*)</code>`)
	return re.ReplaceAllStringFunc(out, func(all string) string {
		m := re.FindStringSubmatch(all)
		runs, text := m[1], m[2]
		var b strings.Builder
		b.WriteString("<code>")
		at := 0
		for _, r := range regexp.MustCompile(`([.a-zA-Z])(\d+)`).FindAllStringSubmatch(runs, -1) {
			n, _ := strconv.Atoi(r[2])
			start := at
			for ; n > 0 && at < len(text); n-- {
				switch c := text[at]; {
				case c == '&':
					at += strings.IndexByte(text[at:], ';') + 1
				case c >= 0xf0:
					if n--; n == 0 {
						t.Fatalf("a run ends inside a surrogate pair: %s", all)
					}
					at += 4
				default:
					_, size := utf8.DecodeRuneInString(text[at:])
					at += size
				}
			}
			piece := text[start:at]
			if r[1] == "." {
				b.WriteString(piece)
				continue
			}
			k := int(r[1][0] - 'a')
			if r[1][0] <= 'Z' {
				k = int(r[1][0]-'A') + 26
			}
			if k >= len(classes) {
				t.Fatalf("run letter %q names no class: %s", r[1], all)
			}
			b.WriteString("<span class=" + classes[k] + ">" + piece + "</span>")
		}
		return b.String() + text[at:] + "</code>"
	})
}

// TestHighlightRuns: the runs of highlighted code cover its text exactly,
// across characters of one, two and four bytes and the characters the
// page escapes, each in the class of its look.
func TestHighlightRuns(t *testing.T) {
	code := "// héllo 🙂 <b> & \"x\"\nfunc f() string { return \"é🙂\" }\n"
	out := string(Highlight(code, "go"))
	if !strings.Contains(out, `<code data-hl="`) {
		t.Fatalf("no runs: %s", out)
	}
	spans := withSpans(t, out)
	if got := contentText(t, spans); got != code {
		t.Errorf("text with spans = %q, want %q", got, code)
	}
	for _, want := range []string{"<span class=c>// héllo 🙂 &lt;b&gt; &amp; \"x\"</span>", "<span class=k>func</span>", "<span class=s>\"é🙂\"</span>"} {
		if !strings.Contains(spans, want) {
			t.Errorf("missing %s in %s", want, spans)
		}
	}
	// Classes that look alike in both styles share a letter: kd and k.
	if k, kd := runClassLetters()["k"], runClassLetters()["kd"]; k == 0 || k != kd {
		t.Errorf("k and kd have the letters %q and %q", k, kd)
	}
	if n := len(HighlightClasses()); n > 52 || n < 20 {
		t.Errorf("%d classes of runs", n)
	}
}
