package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsFlags: the flags that shape Markdown for a site, and what they
// refuse.
func TestDocsFlags(t *testing.T) {
	dir := t.TempDir()
	tiny := corpus + "pi-v3-earth0-tiny.jsonl"
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown target", []string{"--format", "md", "--md-target", "jekyll", tiny}, `--md-target must be github, mkdocs, hugo or docusaurus, not "jekyll"`},
		{"target of a page", []string{"--md-target", "hugo", tiny}, "go with --format md"},
		{"front matter of a page", []string{"--front-matter", tiny}, "go with --format md"},
		{"body of a tree", []string{"--format", "tree", "--body-only", tiny}, "go with --format md"},
		{"heading offset", []string{"--format", "md", "--heading-offset", "5", tiny}, "--heading-offset must be 0 to 4"},
		{"excerpt and leaf", []string{"--from", "a", "--leaf", "b", tiny}, "--leaf does not go with them"},
		{"excerpt of an archive", []string{"-o", filepath.Join(dir, "site"), "--from", "a", tiny, tiny}, "name a part of one session"},
		{"excerpt served", []string{"--serve", "--to", "a"}, "not --serve"},
		{"body of an archive", []string{"-o", filepath.Join(dir, "site"), "--format", "md", "--body-only", tiny, corpus}, "do not go with an archive"},
		{"excerpt from an unknown entry", []string{"--format", "md", "-o", "-", "--from", "nope", tiny}, `no entry has the id "nope"`},
		{"embedded Markdown", []string{"--format", "md", "--embed", tiny}, "--embed makes an HTML page for an iframe; it does not go with --format md"},
		{"embed link alone", []string{"--embed-link", "https://example.com/", tiny}, "--embed-link goes with --embed"},
		{"embed link to a script", []string{"--embed", "--embed-link", "javascript:alert(1)", tiny}, `--embed-link must be an http or https URL, or a relative one, not "javascript:alert(1)"`},
		{"embedded archive", []string{"-o", filepath.Join(dir, "site"), "--embed", tiny, corpus}, "does not go with an archive"},
		{"embedded and encrypted", []string{"--embed", "--encrypt", tiny}, "does not go with --serve, --usage, --share or --encrypt"},
		{"embedded with the file", []string{"--embed", "--embed-jsonl", tiny}, "--embed leaves out the header"},
		{"excerpt backwards", []string{"--format", "md", "-o", "-", "--from", "6eea", "--to", "8940", corpus + "pi-v3-sdk-branches-labels.jsonl"}, "is not on the path to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, tc.want)
			}
		})
	}
}

// TestExcerptFormats: --from and --to cut every format to the same part.
func TestExcerptFormats(t *testing.T) {
	dir := t.TempDir()
	file := corpus + "pi-v3-sdk-branches-labels.jsonl"
	part := []string{"8940eb96", "d25a5af1", "f9149aff", "cf95108a", "8f97cc60", "92b3e7cb"}
	outside := []string{"76d37fdb", "95e10a05", "382538e0", "6eea0e7d", "a1eb6cb5"}
	tree, _, code := runCLI(t, "--format", "tree", "--from", "8940", "--to", "92b3", file)
	if code != 0 {
		t.Fatalf("tree: exit %d", code)
	}
	page := filepath.Join(dir, "part.html")
	if _, errOut, code := runCLI(t, "-q", "--from", "8940", "--to", "92b3", "-o", page, file); code != 0 {
		t.Fatalf("page: exit %d: %s", code, errOut)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	md, _, code := runCLI(t, "--format", "md", "-o", "-", "--from", "8940", "--to", "92b3", file)
	if code != 0 {
		t.Fatalf("md: exit %d", code)
	}
	index := regexp.MustCompile(`(?s)<script type="application/json" id="session-index">.*?</script>`).Find(html)
	for name, doc := range map[string]string{"tree": tree, "page's index": string(index), "Markdown": md} {
		for _, id := range part {
			if !strings.Contains(doc, id) {
				t.Errorf("the %s lacks %s", name, id)
			}
		}
		for _, id := range outside {
			if strings.Contains(doc, id) {
				t.Errorf("the %s holds %s, outside the part", name, id)
			}
		}
	}
	if !strings.Contains(md, "**Excerpt:** entries 3 to 8 of 13 entries on its path, `8940eb96` to `92b3e7cb`") {
		t.Errorf("the Markdown does not say which part it is:\n%s", md)
	}
}

// TestSingleDocumentForSites: a single document's images go to
// NAME.assets beside it, linked as each engine resolves the link from
// the page it makes; Hugo gets front matter unless the body is asked for.
func TestSingleDocumentForSites(t *testing.T) {
	file := corpus + "pi-v1-pimono-compact-images.jsonl"
	for target, link := range map[string]string{"github": "s.assets/", "mkdocs": "s.assets/", "hugo": "../s.assets/", "docusaurus": "./s.assets/"} {
		dir := t.TempDir()
		out := filepath.Join(dir, "s.md")
		if _, errOut, code := runCLI(t, "-q", "--format", "md", "--md-target", target, "-o", out, file); code != 0 {
			t.Fatalf("%s: exit %d: %s", target, code, errOut)
		}
		doc, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		images, _ := filepath.Glob(filepath.Join(dir, "s.assets", "*.png"))
		if len(images) != 3 || strings.Count(string(doc), "]("+link) != 3 || strings.Contains(string(doc), "data:image") {
			t.Errorf("%s: %d images kept, %d linked as %s", target, len(images), strings.Count(string(doc), "]("+link), link)
		}
		if fm := strings.HasPrefix(string(doc), "---\ntitle: "); fm != (target == "hugo") {
			t.Errorf("%s: front matter %v", target, fm)
		}
	}
	body, _, _ := runCLI(t, "--format", "md", "--md-target", "hugo", "--body-only", "-o", "-", file)
	if strings.HasPrefix(body, "---") || !strings.HasPrefix(body, "[piexport]: #\n<!--more-->") {
		t.Errorf("a body for Hugo starts %q", body[:min(60, len(body))])
	}
	// Written to standard output, there is nowhere to keep images.
	out, _, _ := runCLI(t, "--format", "md", "-o", "-", file)
	if strings.Count(out, "not included]_") != 3 {
		t.Errorf("images written to standard output are not named")
	}
}

// TestEmbedPage: --embed writes a page for an iframe, its link to the
// full session as given; under --redact its link preview is masked with
// the rest.
func TestEmbedPage(t *testing.T) {
	asAda(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "planted.jsonl")
	secrets := plantedSession(t, file, 29)
	out := filepath.Join(dir, "embed.html")
	if _, errOut, code := runCLI(t, "-q", "--redact", "--embed", "--embed-link", "../full.html", "-o", out, file); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<html lang="en" data-theme="auto" class="embed side-closed">`, `<a class="full-link" href="../full.html" target="_blank" rel="noopener">Open the full session</a>`, `<meta name="description" content="`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page holds no %s", want)
		}
	}
	if strings.Contains(string(page), `class="page-head"`) {
		t.Error("the embedded page has the full header")
	}
	head := page[:strings.Index(string(page), "</head>")]
	noLeaks(t, "the embedded page's head", head, secrets)
}
