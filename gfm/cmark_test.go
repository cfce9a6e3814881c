package gfm

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/internal/testtool"
)

// cmarkArgs run cmark-gfm as GitHub renders Markdown: with its autolink,
// table, strikethrough, tasklist and tagfilter extensions; -t xml gives
// the tree, in which raw HTML, links and images are nodes of their own.
var cmarkArgs = []string{"-e", "autolink", "-e", "table", "-e", "strikethrough", "-e", "tasklist", "-e", "tagfilter", "-t", "xml"}

// cmark is what the checks with GitHub's renderer need: go test's cache
// runs them again once it is installed (see testtool.Need.Path).
var cmark = &testtool.Need{What: "check with GitHub's renderer", Whats: "checks with GitHub's renderer", Program: "cmark-gfm",
	Install: "install it (apt-get install cmark-gfm)", Names: []string{"cmark-gfm"}}

// cmarkPath is cmark-gfm's path, "" when it is not installed.
func cmarkPath() string { return cmark.Path() }

// TestMain says, once, how many checks were left out for want of
// cmark-gfm, and how to run them.
func TestMain(m *testing.M) {
	testtool.Main(m, "piexport/gfm", append([]*testtool.Need{cmark}, docsite.Needs...)...)
}

// checkCmark parses doc with cmark-gfm (Debian's package, the renderer
// GitHub uses) and fails t where its tree holds raw HTML but our own
// <details> and <summary> lines, an image (a document loads nothing), or
// a link outside http, https, mailto and relative URLs. The export's own
// checks parse with goldmark, which cannot see where the two differ (an
// autolink running on through a backslash, for one). Without cmark-gfm
// the check fails on CI (the CI variable set) and is left out, counted
// for TestMain's line, elsewhere.
func checkCmark(t testing.TB, doc string) {
	t.Helper()
	if cmarkPath() == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no cmark-gfm found: " + cmark.Install)
		}
		cmark.Left()
		return
	}
	cmd := exec.Command(cmarkPath(), cmarkArgs...)
	cmd.Stdin = strings.NewReader(doc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	if problems := cmarkProblems(out); len(problems) > 0 {
		t.Errorf("under cmark-gfm, %s in:\n%s", strings.Join(problems, "; "), doc)
	}
}

// cmarkProblems lists what checkCmark fails on in cmark-gfm's XML tree.
func cmarkProblems(tree []byte) []string {
	var problems []string
	// Control characters of the text are in the tree as they are, and
	// XML 1.0 has no place for them.
	tree = bytes.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return '\uFFFD'
		}
		return r
	}, tree)
	dec := xml.NewDecoder(bytes.NewReader(tree))
	dec.Strict = false // the tree names a DTD it does not ship
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return append(problems, "an unreadable tree: "+err.Error())
		}
		start, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := func(name string) string {
			for _, a := range start.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		switch start.Name.Local {
		case "html_block":
			if html := cmarkText(dec); !ownHTML.MatchString(html) {
				problems = append(problems, "raw HTML that is not ours: "+quote(html))
			}
		case "html_inline":
			if html := cmarkText(dec); !ownAnchor.MatchString(html) {
				problems = append(problems, "inline raw HTML: "+quote(html))
			}
		case "image":
			if d := attr("destination"); !ownImage.MatchString(d) {
				problems = append(problems, "an image from "+quote(d))
			}
		case "link":
			if d := attr("destination"); !markdownURLAllowed([]byte(d)) {
				problems = append(problems, "a link to "+quote(d))
			}
		}
	}
	return problems
}

// cmarkText reads the text of the element just started.
func cmarkText(dec *xml.Decoder) string {
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return b.String()
		}
		switch tok := tok.(type) {
		case xml.CharData:
			b.Write(tok)
		case xml.EndElement:
			return b.String()
		}
	}
}

func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return "\"" + strings.ReplaceAll(s, "\n", `\n`) + "\""
}

// The check itself: each of these is live under cmark-gfm, and must fail.
func TestCheckCmarkCatches(t *testing.T) {
	if cmarkPath() == "" {
		cmark.Missing(t)
	}
	for _, doc := range []string{
		"see https://a.example/\\<img src=https://tracker.example/p.png onerror=alert(1)>\n",
		"# see https://a.example/\\<img src=x onerror=alert(1)\\>\n",
		"www.a.example/\\<input type=checkbox>\n",
		"![x](https://tracker.example/pixel.png)\n",
		"<div>x</div>\n",
		"[a](javascript:alert(1))\n",
	} {
		cmd := exec.Command(cmarkPath(), cmarkArgs...)
		cmd.Stdin = strings.NewReader(doc)
		tree, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if len(cmarkProblems(tree)) == 0 {
			t.Errorf("the check passes %q", doc)
		}
	}
	ours := "<details><summary>Thinking</summary>\n\nplain [a](https://a.example) www.a.example\n\n</details>\n"
	cmd := exec.Command(cmarkPath(), cmarkArgs...)
	cmd.Stdin = strings.NewReader(ours)
	tree, _ := cmd.Output()
	if p := cmarkProblems(tree); len(p) != 0 {
		t.Errorf("the check fails our own document: %v", p)
	}
}
