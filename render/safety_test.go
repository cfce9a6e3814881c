package render

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// What the tests of every renderer check their output against: hostile
// Markdown, and the elements, attributes and URLs no fragment may hold.

// xssCorpus is Markdown written to get script, handlers or dangerous URLs
// into the page. It seeds FuzzRenderMarkdown too.
var xssCorpus = []struct{ name, src string }{
	{"raw script", "<script>alert(1)</script>"},
	{"inline script", "hello <script>alert(1)</script> world"},
	{"img onerror", `<img src=x onerror=alert(1)>`},
	{"inline img onerror", `text <img src=x onerror=alert(1)> text`},
	{"svg onload", `<svg onload=alert(1)>`},
	{"svg inline", `a <svg><script>alert(1)</script></svg> b`},
	{"iframe", `<iframe src="javascript:alert(1)"></iframe>`},
	{"object embed", "<object data=x></object>\n\n<embed src=x>"},
	{"style block", "<style>body{display:none}</style>"},
	{"style attribute", `<p style="background:url(javascript:alert(1))">x</p>`},
	{"javascript link", "[x](javascript:alert(1))"},
	{"javascript upper", "[x](JAVASCRIPT:alert(1))"},
	{"javascript mixed", "[x](JaVaScRiPt:alert(1))"},
	{"javascript tab", "[x](<java\tscript:alert(1)>)"},
	{"javascript newline entity", "[x](java&#10;script:alert(1))"},
	{"javascript tab entity", "[x](java&#9;script:alert(1))"},
	{"javascript entity", "[x](&#106;avascript:alert(1))"},
	{"javascript hex entity", "[x](&#x6A;avascript:alert(1))"},
	{"javascript colon entity", "[x](javascript&colon;alert(1))"},
	{"javascript leading space", "[x](< javascript:alert(1)>)"},
	{"javascript control", "[x](\x01javascript:alert(1))"},
	{"javascript autolink", "<javascript:alert(1)>"},
	{"javascript reference", "[x][r]\n\n[r]: javascript:alert(1)"},
	{"javascript image", "![x](javascript:alert(1))"},
	{"vbscript", "[x](vbscript:msgbox(1))"},
	{"data html link", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"},
	{"data html image", "![x](data:text/html,<script>alert(1)</script>)"},
	{"data svg image", "![x](data:image/svg+xml,<svg onload=alert(1)>)"},
	{"file link", "[x](file:///etc/passwd)"},
	{"protocol-relative link", "[x](//evil.example/p) [y](<\\\\evil.example>) ![z](//t.example/p.gif)"},
	{"title quotes", `[x](javascript:alert(1) "title\" onmouseover=\"x")`},
	{"title quotes https", `[x](https://example.com "title\" onmouseover=\"alert(1)")`},
	{"title entity quote", `[x](https://example.com "a&quot; onmouseover=&quot;alert(1)")`},
	{"image title quotes", `![x](http://example.com/a.png "t\" onerror=\"alert(1)")`},
	{"image alt quotes", `![x" onerror="alert(1)](http://example.com/a.png)`},
	{"data image alt quotes", `![x" onerror="alert(1)](data:image/png;base64,iVBORw0KGgo=)`},
	{"close script in text", "a </script><script>alert(1)</script> b"},
	{"close script in code span", "`</script><script>alert(1)</script>`"},
	{"close script in fence", "```\n</script><script>alert(1)</script>\n```"},
	{"close script in go fence", "```go\n// </script><script>alert(1)</script>\n```"},
	{"html in info string", "```\"><script>alert(1)</script>\nx\n```"},
	{"html in info string 2", "``` go\"><img src=x onerror=alert(1)>\nx\n```"},
	{"onclick in info string", "```x onclick=alert(1)\ny\n```"},
	{"html block", "<div onclick=\"alert(1)\">\n\n*x*\n\n</div>"},
	{"comment", "<!-- --><script>alert(1)</script> -->"},
	{"cdata", "<![CDATA[<script>alert(1)</script>]]>"},
	{"html in heading", "# <script>alert(1)</script>"},
	{"html in table", "| a | b |\n|---|---|\n| <script>alert(1)</script> | <img src=x onerror=alert(1)> |"},
	{"html in footnote", "x[^1]\n\n[^1]: <script>alert(1)</script>"},
	{"link in link", "[[x](javascript:alert(1))](https://example.com)"},
	{"image in link", "[![x](http://example.com/a.png)](javascript:alert(1))"},
	{"autolink email", "<foo@example.com> and bar@example.com"},
	{"linkify", "see www.example.com/<script> and https://example.com/?q=\"><script>"},
	{"heading id injection", "# \"><script>alert(1)</script>"},
	{"entity script", "&lt;script&gt;alert(1)&lt;/script&gt;"},
}

var contentForbiddenElements = map[string]bool{
	"script": true, "iframe": true, "frame": true, "object": true, "embed": true,
	"svg": true, "math": true, "style": true, "link": true, "meta": true,
	"base": true, "form": true, "textarea": true, "button": true,
}

// contentSafetyProblems parses out as a browser would and lists what
// session content must never produce: forbidden elements, event handler
// or style attributes, and URLs with schemes outside the allow-list
// (href: http, https, mailto, none; src: raster data: images only).
func contentSafetyProblems(out string) []string {
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		return []string{"parse: " + err.Error()}
	}
	var problems []string
	stack := []*html.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			stack = append(stack, c)
		}
		if n.Type != html.ElementNode {
			continue
		}
		if contentForbiddenElements[n.Data] {
			problems = append(problems, "element <"+n.Data+">")
		}
		if n.Data == "input" && (attrValue(n, "type") != "checkbox" || !hasAttr(n, "disabled")) {
			problems = append(problems, "input that is not a disabled checkbox")
		}
		for _, a := range n.Attr {
			key := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(key, "on"):
				problems = append(problems, fmt.Sprintf("attribute %s on <%s>", a.Key, n.Data))
			case key == "style", key == "srcset", key == "formaction", key == "action", key == "xlink:href":
				problems = append(problems, fmt.Sprintf("attribute %s on <%s>", a.Key, n.Data))
			case key == "href":
				if s := urlSchemeAsBrowser(a.Val); s != "" && s != "http" && s != "https" && s != "mailto" {
					problems = append(problems, fmt.Sprintf("href with scheme %q: %q", s, a.Val))
				}
				if v := strings.TrimLeft(a.Val, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\v\f\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "); len(v) >= 2 && strings.ContainsRune(`/\`, rune(v[0])) && strings.ContainsRune(`/\`, rune(v[1])) {
					problems = append(problems, fmt.Sprintf("protocol-relative href (file://host from a file): %q", a.Val))
				}
			case key == "src":
				if !dataImageURL([]byte(strings.TrimSpace(a.Val))) {
					problems = append(problems, fmt.Sprintf("src that is not a data: image: %q", a.Val))
				}
			}
		}
	}
	return problems
}

// urlSchemeAsBrowser returns the lower-case scheme a browser would find
// in an attribute value (after the HTML parser decoded it), or "".
// Independent of AllowedURL on purpose: it follows the WHATWG URL parser,
// which strips leading and trailing C0 controls and spaces and removes
// tabs and newlines anywhere.
func urlSchemeAsBrowser(v string) string {
	v = strings.TrimFunc(v, func(r rune) bool { return r <= ' ' })
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, v)
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.ToLower(v[:i])
		default:
			return ""
		}
	}
	return ""
}

func attrValue(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// contentNodes returns the elements of out, in document order.
func contentNodes(t *testing.T, out string) []*html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatalf("parse output: %v", err)
	}
	var nodes []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			nodes = append(nodes, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return nodes
}

// contentText is the text a reader sees in out.
func contentText(t *testing.T, out string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatalf("parse output: %v", err)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}
