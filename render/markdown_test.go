package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func TestRenderMarkdownXSS(t *testing.T) {
	for _, tc := range xssCorpus {
		t.Run(tc.name, func(t *testing.T) {
			out := string(Markdown(tc.src, "e-1-"))
			for _, p := range contentSafetyProblems(out) {
				t.Errorf("%s\nin output:\n%s", p, out)
			}
		})
	}
}

// The reader sees raw HTML as written, not an "omitted" comment.
func TestRenderMarkdownRawHTMLShownAsText(t *testing.T) {
	cases := []struct{ name, src, wantText string }{
		{"inline", "use <br> here", "use <br> here"},
		{"script", "a <script>alert(1)</script> b", "a <script>alert(1)</script> b"},
		{"block", "<div class=\"x\">\nhi\n</div>", "<div class=\"x\">\nhi\n</div>"},
		{"closed block", "<script>\nalert(1)\n</script>", "<script>\nalert(1)\n</script>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := string(Markdown(tc.src, "p-"))
			if got := contentText(t, out); !strings.Contains(got, tc.wantText) {
				t.Errorf("text = %q, want it to contain %q\noutput: %s", got, tc.wantText, out)
			}
			if strings.Contains(out, "raw HTML omitted") {
				t.Errorf("raw HTML omitted instead of shown: %s", out)
			}
		})
	}
}

func TestRenderMarkdownLinks(t *testing.T) {
	cases := []struct {
		name, src string
		wantHref  string // "" when no link may be made
		wantText  string
	}{
		{"https", "[x](https://example.com/a?b=1&c=2)", "https://example.com/a?b=1&c=2", "x"},
		{"http upper", "[x](HTTP://example.com)", "HTTP://example.com", "x"},
		{"mailto", "[x](mailto:a@example.com)", "mailto:a@example.com", "x"},
		{"relative", "[x](docs/readme.md)", "docs/readme.md", "x"},
		{"fragment", "[x](#section)", "#section", "x"},
		{"fragment to own heading", "[x](#über-uns)\n\n## Über uns", "#p-%C3%BCber-uns", "x"},
		{"fragment to missing heading", "[x](#nowhere)\n\n## Über uns", "#nowhere", "x"},
		{"colon after slash", "[x](./a:b)", "./a:b", "x"},
		{"query colon", "[x](?a=b:c)", "?a=b:c", "x"},
		{"spaces encoded", "[x](<a b.md>)", "a%20b.md", "x"},
		{"javascript", "[click](javascript:alert(1))", "", "click"},
		{"javascript entity", "[click](&#106;avascript:alert(1))", "", "click"},
		{"javascript tab", "[click](<java\tscript:alert(1)>)", "", "click"},
		{"javascript case", "[click](JaVaScRiPt:alert(1))", "", "click"},
		{"vbscript", "[click](vbscript:x)", "", "click"},
		{"data", "[click](data:text/html,x)", "", "click"},
		{"file", "[click](file:///etc/passwd)", "", "click"},
		{"ftp", "[click](ftp://example.com)", "", "click"},
		// Protocol-relative: a page opened from a file would make it
		// file://evil.example/p; resolved to https instead.
		{"protocol-relative", "[x](//evil.example/p)", "https://evil.example/p", "x"},
		{"a backslash is encoded, not read as a slash", `[x](<\\evil.example/p>)`, "%5Cevil.example/p", "x"},
		{"a space before is encoded", "[x](< //evil.example/p>)", "%20//evil.example/p", "x"},
		{"protocol-relative reference", "[x][r]\n\n[r]: //evil.example/p", "https://evil.example/p", "x"},
		{"protocol-relative image", "![pixel](//tracker.example/p.gif)", "https://tracker.example/p.gif", "image: pixel"},
		{"one slash stays relative", "[x](/docs/a.md)", "/docs/a.md", "x"},
		{"autolink https", "<https://example.com>", "https://example.com", "https://example.com"},
		{"autolink javascript", "<javascript:alert(1)>", "", "javascript:alert(1)"},
		{"autolink email", "<a@example.com>", "mailto:a@example.com", "a@example.com"},
		{"linkify www", "see www.example.com now", "http://www.example.com", "www.example.com"},
		{"linkify https", "see https://example.com/x now", "https://example.com/x", "https://example.com/x"},
		{"linkify email", "write to a@example.com", "mailto:a@example.com", "a@example.com"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := string(Markdown(tc.src, "p-"))
			var links []*html.Node
			for _, n := range contentNodes(t, out) {
				if n.Data == "a" {
					links = append(links, n)
				}
			}
			if !strings.Contains(contentText(t, out), tc.wantText) {
				t.Errorf("text %q missing from %s", tc.wantText, out)
			}
			if tc.wantHref == "" {
				if len(links) != 0 {
					t.Errorf("want no link, got %s", out)
				}
				return
			}
			if len(links) != 1 {
				t.Fatalf("want one link, got %d: %s", len(links), out)
			}
			if got := attrValue(links[0], "href"); got != tc.wantHref {
				t.Errorf("href = %q, want %q", got, tc.wantHref)
			}
			if got := attrValue(links[0], "rel"); got != "noopener noreferrer nofollow" {
				t.Errorf("rel = %q", got)
			}
			if hasAttr(links[0], "target") {
				t.Errorf("link has a target: %s", out)
			}
		})
	}
}

func TestRenderMarkdownLinkTitle(t *testing.T) {
	out := string(Markdown(`[x](https://example.com "a \"quoted\" & <b>")`, "p-"))
	nodes := contentNodes(t, out)
	var a *html.Node
	for _, n := range nodes {
		if n.Data == "a" {
			a = n
		}
	}
	if a == nil {
		t.Fatalf("no link in %s", out)
	}
	if got, want := attrValue(a, "title"), `a "quoted" & <b>`; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if len(a.Attr) != 3 {
		t.Errorf("link attributes = %v, want href, title, rel", a.Attr)
	}
}

func TestRenderMarkdownImages(t *testing.T) {
	const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
	cases := []struct {
		name, src string
		wantImg   bool
		wantHref  string // the link an image turns into, if any
		wantText  string
	}{
		{"remote http", "![a cat](http://example.com/cat.png)", false, "http://example.com/cat.png", "image: a cat"},
		{"remote https", "![a cat](https://example.com/cat.png)", false, "https://example.com/cat.png", "image: a cat"},
		{"protocol relative", "![a cat](//example.com/cat.png)", false, "https://example.com/cat.png", "image: a cat"},
		{"relative", "![a cat](img/cat.png)", false, "img/cat.png", "image: a cat"},
		{"no alt", "![](https://example.com/cat.png)", false, "https://example.com/cat.png", "image: https://example.com/cat.png"},
		{"data png", "![dot](" + png + ")", true, "", ""},
		{"data jpeg upper", "![dot](DATA:image/jpeg;base64,/9j/4AAQ)", true, "", ""},
		{"data gif", "![dot](data:image/gif;base64,R0lGODlh)", true, "", ""},
		{"data webp", "![dot](data:image/webp;base64,UklGRg==)", true, "", ""},
		{"data svg", "![dot](data:image/svg+xml;base64,PHN2Zz4=)", false, "", "image: dot"},
		{"data pngx", "![dot](data:image/pngx;base64,AAAA)", false, "", "image: dot"},
		{"javascript", "![dot](javascript:alert(1))", false, "", "image: dot"},
		{"inside link", "[![logo](https://example.com/l.png)](https://example.com)", false, "https://example.com", "image: logo"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := string(Markdown(tc.src, "p-"))
			var imgs, links []*html.Node
			for _, n := range contentNodes(t, out) {
				switch n.Data {
				case "img":
					imgs = append(imgs, n)
				case "a":
					links = append(links, n)
				}
			}
			if tc.wantImg != (len(imgs) == 1) || len(imgs) > 1 {
				t.Errorf("images = %d, want image %v: %s", len(imgs), tc.wantImg, out)
			}
			if tc.wantImg && attrValue(imgs[0], "alt") != "dot" {
				t.Errorf("alt = %q", attrValue(imgs[0], "alt"))
			}
			if tc.wantHref == "" && len(links) > 0 || tc.wantHref != "" && (len(links) != 1 || attrValue(links[0], "href") != tc.wantHref) {
				t.Errorf("want link %q, got %s", tc.wantHref, out)
			}
			if !strings.Contains(contentText(t, out), tc.wantText) {
				t.Errorf("text %q missing: %s", tc.wantText, out)
			}
			if !tc.wantImg && !strings.Contains(out, `class="remote-image"`) {
				t.Errorf("no remote-image class: %s", out)
			}
		})
	}
}

func TestRenderMarkdownIDsPrefixedAndUnique(t *testing.T) {
	src := "# Intro\n\n## Intro\n\n## Über uns\n\n## 설치\n\n## !!!\n\nText[^a] and[^b] again[^a].\n\n[^a]: First.\n[^b]: Second.\n"
	var all []string
	seen := map[string]string{}
	for _, prefix := range []string{"e-aaaa1111-", "e-bbbb2222-"} {
		out := string(Markdown(src, prefix))
		ids := map[string]bool{}
		for _, n := range contentNodes(t, out) {
			id := attrValue(n, "id")
			if id == "" {
				continue
			}
			if !strings.HasPrefix(id, prefix) {
				t.Errorf("id %q lacks prefix %q", id, prefix)
			}
			if other, dup := seen[id]; dup {
				t.Errorf("id %q appears twice (in %s and %s)", id, other, prefix)
			}
			seen[id] = prefix
			ids[id] = true
			all = append(all, id)
		}
		// Every internal link points at an id of the same render.
		for _, n := range contentNodes(t, out) {
			if href := attrValue(n, "href"); strings.HasPrefix(href, "#") && !ids[href[1:]] {
				t.Errorf("link to %q, which is not an id of this render", href)
			}
		}
		for _, want := range []string{prefix + "intro", prefix + "intro-1", prefix + "über-uns", prefix + "설치", prefix + "heading", prefix + "fn:1", prefix + "fnref:1", prefix + "fnref1:1"} {
			if !ids[want] {
				t.Errorf("missing id %q; have %v", want, ids)
			}
		}
	}
	if len(all) < 16 {
		t.Errorf("only %d ids: %v", len(all), all)
	}
}

func TestRenderMarkdownHostilePrefix(t *testing.T) {
	for _, prefix := range []string{`"><script>alert(1)</script>`, "a b", "a_20b", "é"} {
		t.Run(prefix, func(t *testing.T) {
			out := string(Markdown("# T\n\nx[^1]\n\n[^1]: y\n", prefix))
			for _, p := range contentSafetyProblems(out) {
				t.Errorf("%s in %s", p, out)
			}
			for _, n := range contentNodes(t, out) {
				if id := attrValue(n, "id"); id != "" && !strings.HasPrefix(id, sanitizeIDPrefix(prefix)) {
					t.Errorf("id %q", id)
				}
			}
		})
	}
	if sanitizeIDPrefix("a b") == sanitizeIDPrefix("a_20b") {
		t.Errorf("distinct prefixes collide: %q", sanitizeIDPrefix("a b"))
	}
}

func TestRenderMarkdownGFM(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"table", "| a | b |\n|:--|--:|\n| 1 | 2 |", []string{"<table>", `<th align="left">a</th>`, `<td align="right">2</td>`}},
		{"strikethrough", "~~gone~~", []string{"<del>gone</del>"}},
		{"task list", "- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox"`, `<input disabled="" type="checkbox"`}},
		{"footnote", "a[^1]\n\n[^1]: b", []string{`class="footnotes"`, `href="#p-fn:1"`}},
		{"wrapper", "x", []string{`<div class="markdown"><p>x</p>`}},
		{"fenced go", "```go\nfunc f() {}\n```", []string{`<pre class="chroma" data-lang="Go"><code>`, `<span class=k>func</span>`}},
		{"fenced info words", "```python title=x.py\nx = 1\n```", []string{`data-lang="Python"`}},
		{"fenced unknown", "```nosuchlang\n<b>\n```", []string{`<pre class="chroma"><code>&lt;b&gt;`}},
		{"fence info escaped", "```\"><b>x\ny\n```", []string{`<pre class="chroma"><code>y`}},
		{"indented code", "    <b>code</b>", []string{`<pre class="chroma"><code>&lt;b&gt;code&lt;/b&gt;`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := withSpans(t, string(Markdown(tc.src, "p-")))
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in\n%s", w, out)
				}
			}
			if strings.Contains(out, "style=") {
				t.Errorf("inline style (blocked by the page's CSP): %s", out)
			}
		})
	}
}

// chroma's Go lexer is quadratic on unclosed block comments, and one
// message must not stall the export.
func TestRenderMarkdownSlowFenceIsCut(t *testing.T) {
	code := strings.Repeat("/* x ", 64<<10/5)
	src := "```go\n" + code + "\n```\n"
	out := string(Markdown(src, "p-"))
	if !strings.Contains(out, "highlighting stopped part way") {
		t.Errorf("the block was not cut")
	}
	if got := contentText(t, out); !strings.Contains(got, strings.TrimSpace(code)) {
		t.Errorf("code text lost: %d bytes of text, want %d", len(got), len(code))
	}
}

func FuzzRenderMarkdown(f *testing.F) {
	for _, tc := range xssCorpus {
		f.Add(tc.src)
	}
	f.Add("# h\n\n[^1]\n\n[^1]: x\n\n| a |\n|---|\n| b |\n\n- [ ] t\n\n```go\nfunc\n```")
	f.Fuzz(func(t *testing.T, src string) {
		out := string(Markdown(src, "f-"))
		for _, p := range contentSafetyProblems(out) {
			t.Errorf("%s\nsource: %q\noutput: %s", p, src, out)
		}
	})
}

func TestAllowedURL(t *testing.T) {
	cases := []struct {
		url  string
		want bool
	}{
		{"https://example.com", true},
		{"HTTP://example.com", true},
		{"mailto:a@example.com", true},
		{"", true},
		{"#frag", true},
		{"a/b:c", true},
		{"?q=a:b", true},
		{"//example.com", false},       // file://example.com from a file; the page resolves it to https
		{"ht\ttp://example.com", true}, // a browser reads http
		{"javascript:alert(1)", false},
		{"java\tscript:alert(1)", false},
		{" javascript:alert(1)", false},
		{"\x00javascript:alert(1)", false},
		{"java%09script:alert(1)", false},
		{"vbscript:x", false},
		{"data:text/html,x", false},
		{"data:image/png;base64,AAAA", false}, // fine for <img>, not a link
		{"file:///etc/passwd", false},
		{"blob:https://example.com/x", false},
		{"httpx://example.com", false},
		{"https\u00a0://example.com", false},
	}
	for _, tc := range cases {
		t.Run(tc.url, func(t *testing.T) {
			if got := AllowedURL([]byte(tc.url)); got != tc.want {
				t.Errorf("AllowedURL(%q) = %v, want %v", tc.url, got, tc.want)
			}
		})
	}
}

// One goldmark instance and the lexer cache serve every goroutine; run
// with -race.
func TestRenderConcurrent(t *testing.T) {
	src := "# T\n\nx[^1] [a](https://a.example)\n\n```go\nfunc f() {}\n```\n\n```py\nx = 1\n```\n\n[^1]: n\n"
	want := string(Markdown(src, "c-"))
	done := make(chan string)
	for range 8 {
		go func() {
			var got string
			for range 20 {
				got = string(Markdown(src, "c-"))
				HighlightFile("package x", "x.go", 1)
				Terminal("\x1b[31mx")
			}
			done <- got
		}()
	}
	for range 8 {
		if got := <-done; got != want {
			t.Errorf("concurrent render differs:\n%s\nwant\n%s", got, want)
		}
	}
}
