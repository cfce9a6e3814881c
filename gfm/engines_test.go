package gfm

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/internal/hostile"
)

// The readers of MkDocs and Docusaurus, fed every hostile text this
// package's tests know, in every context, as the canonical writer
// writes it: Python-Markdown under several configurations (the README's,
// MkDocs' built-in extensions alone, and many more), and MDX. Nothing of
// the text may come out as markup. (The sites' tests in cmd/piexport
// build whole sites; these read many small texts at once.)

// engineTexts are the hostile texts, each alone and in every context.
func engineTexts() []string {
	seeds := append(append([]string{}, mdHostileSeeds...), hostile.Engine...)
	contexts := []string{"%s", "- %s", "> %s", "- a\n\n      %s", "1. a\n\n   ```\n   %s\n   ```", "| a | b |\n|---|---|\n| %s | c |"}
	var out []string
	for _, s := range seeds {
		for _, c := range contexts {
			out = append(out, fmt.Sprintf(c, s))
		}
	}
	return out
}

// pythonMarkdown is the script that renders documents with
// Python-Markdown: JSON [[doc...], [[extension...]...]] in, the HTML of
// each document under each configuration out.
const pythonMarkdown = `
import json, sys, markdown
docs, configs = json.load(sys.stdin)
out = []
for exts in configs:
    md = markdown.Markdown(extensions=exts)
    out.append([md.reset().convert(d) for d in docs])
json.dump(out, sys.stdout)
`

// mkdocsConfigs are the extension sets: MkDocs' built-ins are always on.
var mkdocsConfigs = [][]string{
	{"toc", "tables", "fenced_code"},
	{"toc", "tables", "fenced_code", "pymdownx.details"},
	{"toc", "tables", "admonition", "pymdownx.details", "pymdownx.superfences"}, // the README's
	{"toc", "tables", "md_in_html", "attr_list", "def_list", "footnotes", "abbr", "admonition", "pymdownx.details", "pymdownx.superfences", "pymdownx.tabbed", "pymdownx.inlinehilite", "pymdownx.tilde", "pymdownx.caret", "pymdownx.mark"},
}

func TestPythonMarkdownReadsText(t *testing.T) {
	mkdocs := docsite.Require(t, docsite.MkDocs)
	// The Python that runs MkDocs, which has its Markdown.
	python := "python3"
	if f, err := os.Open(mkdocs); err == nil {
		line, _ := bufio.NewReader(f).ReadString('\n')
		f.Close()
		if p := strings.TrimSpace(strings.TrimPrefix(line, "#!")); strings.HasPrefix(line, "#!/") && !strings.Contains(p, " ") {
			python = p
		}
	}
	var docs []string
	for _, text := range engineTexts() {
		docs = append(docs, canonical(text, dialect{}, false))
		// In a part, indented, as the MkDocs target writes one.
		docs = append(docs, "??? note \"x\"\n\n"+prefixLines(canonical(text, dialect{}, true), "    ", ""))
	}
	in, err := json.Marshal([]any{docs, mkdocsConfigs})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", pythonMarkdown)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Python-Markdown: %v", err)
	}
	var pages [][]string
	if err := json.Unmarshal(out, &pages); err != nil {
		t.Fatal(err)
	}
	for c, config := range mkdocsConfigs {
		for i, page := range pages[c] {
			if bad := markupOfText(page); bad != "" {
				t.Errorf("with %v, %s in:\n%s\nrendered:\n%s", config, bad, docs[i], page)
			}
		}
	}
}

// ownElements are the elements a page made by Python-Markdown of our
// Markdown may hold; "on*" attributes and other URLs than http, https,
// mailto and relative ones are never ours.
var ownElements = map[string]bool{
	"p": true, "em": true, "strong": true, "code": true, "pre": true, "ul": true, "ol": true, "li": true,
	"blockquote": true, "a": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"hr": true, "br": true, "del": true, "details": true, "summary": true, "div": true, "span": true,
}

// markupOfText names the first element or attribute of page that is not
// ours, or "".
func markupOfText(page string) string {
	z := html.NewTokenizer(strings.NewReader(page))
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if !ownElements[tok.Data] {
				return "a <" + tok.Data + "> element"
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"), a.Key == "style":
					return "an attribute " + a.Key
				case (a.Key == "href" || a.Key == "src") && strings.Contains(v, ":") &&
					!strings.HasPrefix(v, "http://") && !strings.HasPrefix(v, "https://") && !strings.HasPrefix(v, "mailto:"):
					return "a link to " + a.Val
				case tok.Data == "div" && a.Key != "class", tok.Data == "span" && a.Key != "class":
					return "an attribute " + a.Key + " of a <" + tok.Data + ">"
				}
			}
		case html.CommentToken:
			return "a comment"
		}
	}
	return ""
}

// TestMDXReadsText compiles the texts as Docusaurus does: none holds an
// expression, an import or JSX.
func TestMDXReadsText(t *testing.T) {
	dir := t.TempDir()
	var files []string
	texts := engineTexts()
	for i, text := range texts {
		f := filepath.Join(dir, fmt.Sprintf("t%04d.md", i))
		doc := canonical(text, dialect{mdx: true}, false) + "\n\n<details>\n<summary>x</summary>\n\n" + canonical(text, dialect{mdx: true}, true) + "\n\n</details>\n"
		if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	results, _ := docsite.CompileMDX(t, "../testdata/node", files)
	for _, r := range results {
		i := 0
		fmt.Sscanf(filepath.Base(r.File), "t%04d.md", &i)
		var jsx []string
		for _, j := range r.JSX {
			if j.Name != "details" && j.Name != "summary" {
				jsx = append(jsx, j.Name)
			}
		}
		if r.Error != "" || len(r.Expressions) > 0 || r.ESM > 0 || len(jsx) > 0 {
			t.Errorf("%q: error %q, expressions %q, %d imports, JSX %v", texts[i], r.Error, r.Expressions, r.ESM, jsx)
		}
	}
}
