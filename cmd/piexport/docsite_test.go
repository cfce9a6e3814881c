package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/internal/browsertest"
	"github.com/piexport/piexport/internal/docsite"
	"github.com/piexport/piexport/session"
)

// The documentation sites: the corpus, its sub-agents and a session of
// strings aimed at each engine (hostile.Engine), written by piexport as a
// user writes them (an archive, a single session with images, an excerpt
// to include), built by the real engine with the configuration README.md
// shows, and every page opened in Chromium (MDX: compiled, as Docusaurus
// does, and its tree read).

const readme = "../../README.md"

// siteExports writes the Markdown of a site for target into content: the
// archive of sources, a session with images, and an excerpt to include,
// the body only, under a heading offset. It returns what each page must
// hold, by its file name.
func siteExports(t *testing.T, content, target string, sources []siteSource) map[string]siteSource {
	t.Helper()
	args := []string{"-q", "--format", "md", "--md-target", target, "-o", content}
	for _, s := range sources {
		args = append(args, s.path)
	}
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("the archive for %s: exit %d: %s", target, code, errOut)
	}
	pages := map[string]siteSource{}
	var all strings.Builder
	for _, s := range sources {
		if _, err := os.Stat(filepath.Join(content, s.stem+".md")); err != nil {
			t.Errorf("%s has no page %s.md: %v", s.path, s.stem, err)
		}
		pages[s.stem] = s
		all.WriteString(s.text)
	}
	pages[strings.TrimSuffix(indexName(target), ".md")] = siteSource{text: all.String()}

	images := corpus + "pi-v1-pimono-compact-images.jsonl"
	if _, errOut, code := runCLI(t, "-q", "--format", "md", "--md-target", target, "-o", filepath.Join(content, "single-images.md"), images); code != 0 {
		t.Fatalf("a single session: exit %d: %s", code, errOut)
	}
	for _, s := range sources {
		if s.path == images {
			pages["single-images"] = s
		}
	}
	part := corpus + "pi-v3-sdk-branches-labels.jsonl"
	if _, errOut, code := runCLI(t, "-q", "--format", "md", "--md-target", target, "--body-only", "--front-matter", "--heading-offset", "1",
		"--from", "8940", "--to", "6eea", "-o", filepath.Join(content, "excerpt.md"), part); code != 0 {
		t.Fatalf("an excerpt: exit %d: %s", code, errOut)
	}
	s, err := session.Load(part)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := s.Cut(s.Entry("8940eb96"), s.Entry("6eea0e7d"))
	if err != nil {
		t.Fatal(err)
	}
	ex := siteSource{text: pages[pageStem(part)].text}
	for _, e := range cut.Entries {
		ex.ids = append(ex.ids, e.ID)
	}
	pages["excerpt"] = ex
	return pages
}

func indexName(target string) string {
	if target == "hugo" {
		return "_index.md"
	}
	return "index.md"
}

// siteFiles lists the session files the sites are built from, read once
// for every site's test, with their anchors as target writes them.
func siteFiles(t *testing.T, target string) []siteSource {
	t.Helper()
	sitesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "piexport-sites-")
		if err != nil {
			t.Fatal(err)
		}
		sitesDir = dir
		for _, s := range siteSources(t, dir) {
			if !strings.Contains(s.path, "jsonmode-eventstream") {
				sites = append(sites, s)
			}
		}
	})
	if sites == nil {
		t.Fatal("the sessions of the sites could not be read")
	}
	out := slices.Clone(sites)
	for i := range out {
		out[i].ids = slices.Clone(out[i].ids)
		for k, id := range out[i].ids {
			out[i].ids[k] = siteAnchor(id, target)
		}
	}
	return out
}

var (
	sitesOnce sync.Once
	sites     []siteSource
	sitesDir  string // removed by TestMain
)

func TestMkDocsSite(t *testing.T) {
	docsite.Require(t, docsite.MkDocs)
	t.Parallel()
	dir := t.TempDir()
	pages := siteExports(t, filepath.Join(dir, "docs"), "mkdocs", siteFiles(t, "mkdocs"))
	site, warnings, took := docsite.BuildMkDocs(t, dir, docsite.Config(t, readme, "mkdocs.yml"))
	t.Logf("mkdocs built %d pages in %v", len(pages), took.Round(1e6))
	if warnings != "" {
		t.Errorf("mkdocs warned:\n%s", warnings)
	}
	checkLinks(t, site)
	checkSite(t, site, pages, func(name string) string {
		if name == "index" {
			return ""
		}
		return name + "/"
	}, ".md-sidebar--secondary .md-nav__link")

	// Without the README's extensions, a part is a block of its source,
	// and nothing of the session runs.
	bare := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bare, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	hostilePage := "hostile--engines"
	b, err := os.ReadFile(filepath.Join(dir, "docs", hostilePage+".md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bare, "docs", "index.md"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	bareSite, _, _ := docsite.BuildMkDocs(t, bare, "site_name: Sessions\ntheme:\n  name: material\n  font: false\n")
	tab := browsertest.OpenTab(t, browsertest.Start(t))
	docsite.CheckPage(t, tab, docsite.Serve(t, bareSite)+"/", docsite.Page{Source: pages[hostilePage].text, TOC: ".md-sidebar--secondary .md-nav__link", ShowsSource: true})
}

func TestHugoSite(t *testing.T) {
	docsite.Require(t, docsite.Hugo)
	t.Parallel()
	dir := t.TempDir()
	content := filepath.Join(dir, "content", "sessions")
	pages := siteExports(t, content, "hugo", siteFiles(t, "hugo"))
	public, took := docsite.BuildHugo(t, dir, docsite.Config(t, readme, "hugo.toml"))
	t.Logf("hugo built %d pages in %v", len(pages), took.Round(1e6))
	checkLinks(t, public)
	checkSite(t, public, pages, func(name string) string {
		if name == "_index" {
			return "sessions/"
		}
		return "sessions/" + strings.ToLower(name) + "/"
	}, "nav.toc a")
}

// checkSite opens every page of a built site: url is a page's path in
// the site, from its file name.
func checkSite(t *testing.T, site string, pages map[string]siteSource, url func(name string) string, toc string) {
	t.Helper()
	// One tab for every page: 41 pages took 2 minutes at load 20.
	tab := browsertest.OpenTabFor(t, browsertest.Start(t), 10*time.Minute)
	base := docsite.Serve(t, site)
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range pages {
			if !yield(k) {
				return
			}
		}
	})
	images := 0
	start := time.Now()
	defer func() {
		t.Logf("Chromium checked %d pages in %v", len(names), time.Since(start).Round(time.Millisecond))
	}()
	for _, name := range names {
		p := pages[name]
		n := docsite.CheckPage(t, tab, base+"/"+url(name), docsite.Page{Anchors: p.ids, Labels: p.labels, Source: p.text, TOC: toc})
		if name == "single-images" || strings.HasSuffix(name, "pimono-compact-images") {
			images += n
		}
	}
	if images < 6 {
		t.Errorf("%d images shown by the pages of the session with images, want its 3 twice", images)
	}
}

// checkLinks fails t for a relative link of a built site (an element's
// href or src) that leads to no file of it, and for a page from which
// the engine dropped raw HTML (Hugo leaves a comment where it did).
func checkLinks(t *testing.T, site string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(site, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		z := html.NewTokenizer(f)
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt == html.CommentToken && strings.Contains(string(z.Text()), "raw HTML omitted") {
				t.Errorf("%s: the engine dropped raw HTML", path)
			}
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			for _, a := range z.Token().Attr {
				if a.Key != "href" && a.Key != "src" {
					continue
				}
				link := a.Val
				if link == "" || strings.Contains(link, ":") || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "//") {
					continue
				}
				link, _, _ = strings.Cut(link, "#")
				link, _, _ = strings.Cut(link, "?")
				target := filepath.Join(filepath.Dir(path), filepath.FromSlash(link))
				if strings.HasPrefix(link, "/") {
					target = filepath.Join(site, filepath.FromSlash(link))
				}
				n++
				if fi, err := os.Stat(target); err != nil || fi.IsDir() && !exists(filepath.Join(target, "index.html")) {
					t.Errorf("%s links %q, which is not in the site", path, a.Val)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Errorf("no links in the site")
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestDocusaurusMDX compiles every file for Docusaurus as it does, and
// reads the tree: no expression, no import or export, no JSX but the
// parts' and the anchors', every label and anchor there, one title, no
// heading of session text.
func TestDocusaurusMDX(t *testing.T) {
	docsite.Require(t, docsite.Node)
	t.Parallel()
	dir := t.TempDir()
	pages := siteExports(t, dir, "docusaurus", siteFiles(t, "docusaurus"))
	var files []string
	for name := range pages {
		files = append(files, filepath.Join(dir, name+".md"))
	}
	results, took := docsite.CompileMDX(t, "../../testdata/node", files)
	t.Logf("MDX compiled %d files in %v", len(results), took.Round(1e6))
	for _, r := range results {
		name := strings.TrimSuffix(filepath.Base(r.File), ".md")
		p := pages[name]
		if r.Error != "" {
			t.Errorf("%s does not compile: %s", name, r.Error)
			continue
		}
		if len(r.Expressions) > 0 || r.ESM > 0 {
			t.Errorf("%s: expressions %q, %d imports or exports", name, r.Expressions, r.ESM)
		}
		for _, j := range r.JSX {
			ok := j.Name == "details" || j.Name == "summary"
			if j.Name == "a" {
				_, hasID := j.Attrs["id"]
				ok = hasID && len(j.Attrs) == 1
			}
			if !ok || j.Name != "a" && len(j.Attrs) > 0 {
				t.Errorf("%s: JSX of the text: <%s %v>", name, j.Name, j.Attrs)
			}
		}
		for _, id := range p.ids {
			if !slices.Contains(r.Anchors, id) {
				t.Errorf("%s: no anchor for entry %s", name, id)
				break
			}
		}
		for _, l := range p.labels {
			if !slices.Contains(r.Summaries, l) {
				t.Errorf("%s: no part labelled %q", name, l)
				break
			}
		}
		h1 := 0
		for _, h := range r.Headings {
			depth, _ := h[0].(float64)
			text, _ := h[1].(string)
			switch {
			case depth == 1:
				h1++
			case !docsite.OwnHeading.MatchString(text):
				t.Errorf("%s: a heading of session text: %q", name, text)
			}
		}
		if h1 > 1 || h1 == 0 && r.FrontMatter["title"] == nil {
			t.Errorf("%s: %d titles", name, h1)
		}
	}
}
