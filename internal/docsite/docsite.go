// Package docsite builds documentation sites with the real engines, for
// the tests of the Markdown written for them: MkDocs with Material,
// Hugo, and MDX compiled as Docusaurus 3 compiles it (testdata/node's
// mdxcheck.mjs). Each engine is a testtool.Need: a test that needs a
// missing one fails on CI and skips elsewhere, and every test skips under
// go test -short. The configurations come from README.md's section "In a
// documentation site", so that what the README shows is what is tested.
package docsite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/session"
)

// The engines.
var (
	MkDocs = &testtool.Need{What: "MkDocs site build", Whats: "MkDocs site builds", Program: "mkdocs with mkdocs-material",
		Install: "install them (apt-get install mkdocs mkdocs-material python3-pymdownx)", Names: []string{"mkdocs"}}
	Hugo = &testtool.Need{What: "Hugo site build", Whats: "Hugo site builds", Program: "hugo",
		Install: "install it (apt-get install hugo)", Names: []string{"hugo"}}
	Node = &testtool.Need{What: "MDX compile", Whats: "MDX compiles", Program: "node",
		Install: "install Node and run npm ci --prefix testdata/node", Names: []string{"node"}}
)

// Needs lists the engines, for a package's TestMain to report.
var Needs = []*testtool.Need{MkDocs, Hugo, Node}

// Require skips t under -short and, when the engine is missing, fails it
// on CI or skips it.
func Require(t testing.TB, n *testtool.Need) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a site with " + n.Program + "; skipped with -short")
	}
	path := n.Path()
	if path == "" {
		n.Missing(t)
	}
	return path
}

// Config returns the fenced block of readme whose info string names the
// file name (```yaml title="mkdocs.yml"), the configuration the README
// shows for an engine.
func Config(t testing.TB, readme, name string) string {
	t.Helper()
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	want := `title="` + name + `"`
	var block []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "```") && strings.Contains(line, want):
			in = true
		case in && strings.HasPrefix(line, "```"):
			return strings.Join(block, "\n") + "\n"
		case in:
			block = append(block, line)
		}
	}
	t.Fatalf("%s shows no configuration %s (a fence with %s)", readme, name, want)
	return ""
}

// run runs an engine in dir and fails t with its output when it fails.
func run(t testing.TB, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// BuildMkDocs builds the MkDocs project in dir, whose Markdown is in
// dir/docs, with config as mkdocs.yml, into dir/site. It returns the site
// and what MkDocs warned about.
func BuildMkDocs(t testing.TB, dir, config string) (site, warnings string, took time.Duration) {
	t.Helper()
	mkdocs := Require(t, MkDocs)
	if err := os.WriteFile(filepath.Join(dir, "mkdocs.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out := run(t, dir, mkdocs, "build", "--site-dir", "site")
	var warn []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "WARNING") {
			warn = append(warn, l)
		}
	}
	return filepath.Join(dir, "site"), strings.Join(warn, "\n"), time.Since(start)
}

// hugoLayouts are the least a Hugo site needs to make pages: what a theme
// gives, the page's title as its one <h1>, its table of contents and its
// content.
var hugoLayouts = map[string]string{
	"_default/single.html": `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>{{ .Title }}</title></head>` +
		`<body><h1>{{ .Title }}</h1><nav class="toc">{{ .TableOfContents }}</nav><main>{{ .Content }}</main></body></html>`,
	"_default/list.html": `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>{{ .Title }}</title></head>` +
		`<body><h1>{{ .Title }}</h1><main>{{ .Content }}</main></body></html>`,
}

// BuildHugo builds the Hugo site in dir, whose Markdown is in
// dir/content, with config as hugo.toml and layouts of its own, into
// dir/public.
func BuildHugo(t testing.TB, dir, config string) (public string, took time.Duration) {
	t.Helper()
	hugo := Require(t, Hugo)
	if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, text := range hugoLayouts {
		p := filepath.Join(dir, "layouts", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	run(t, dir, hugo, "--quiet", "--destination", "public")
	return filepath.Join(dir, "public"), time.Since(start)
}

// MDXResult is what mdxcheck.mjs says of one file.
type MDXResult struct {
	File        string         `json:"file"`
	Error       string         `json:"error"`
	FrontMatter map[string]any `json:"frontMatter"`
	JSX         []struct {
		Name  string            `json:"name"`
		Attrs map[string]string `json:"attrs"`
	} `json:"jsx"`
	Expressions []string `json:"expressions"`
	ESM         int      `json:"esm"`
	Headings    [][2]any `json:"headings"`
	Summaries   []string `json:"summaries"`
	Anchors     []string `json:"anchors"`
}

// CompileMDX compiles files as Docusaurus 3 does, with the packages of
// nodeDir (testdata/node), in two processes at once.
func CompileMDX(t testing.TB, nodeDir string, files []string) ([]MDXResult, time.Duration) {
	t.Helper()
	node := Require(t, Node)
	if _, err := os.Stat(filepath.Join(nodeDir, "node_modules", "@mdx-js", "mdx")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no @mdx-js/mdx in %s: run npm ci --prefix testdata/node", nodeDir)
		}
		Node.Left()
		t.Skip("no @mdx-js/mdx in " + nodeDir + ": run npm ci --prefix testdata/node")
	}
	start := time.Now()
	script, err := filepath.Abs(filepath.Join(nodeDir, "mdxcheck.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	halves := [2][]string{}
	for i, f := range files {
		halves[i%2] = append(halves[i%2], f)
	}
	outs := make(chan []byte, 2)
	errs := make(chan error, 2)
	for _, half := range halves {
		go func() {
			cmd := exec.Command(node, append([]string{script}, half...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				err = fmt.Errorf("%w: %s", err, stderr.Bytes())
			}
			outs <- out
			errs <- err
		}()
	}
	var results []MDXResult
	for range 2 {
		out, err := <-outs, <-errs
		if err != nil {
			t.Fatalf("mdxcheck: %v", err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
			if len(line) == 0 {
				continue
			}
			var r MDXResult
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("mdxcheck printed %q: %v", line, err)
			}
			results = append(results, r)
		}
	}
	if len(results) != len(files) {
		t.Fatalf("mdxcheck answered for %d of %s", len(results), session.Count(len(files), "file", "files"))
	}
	return results, time.Since(start)
}

// visibleEscape finds a backslash before ASCII punctuation in text.
var visibleEscape = regexp.MustCompile(`\\[!-/:-@\[-` + "`" + `{-~]`)

// VisibleEscapes lists the backslash escapes ("\:") and character
// references ("&lt;") text shows that source, the session's own text,
// does not hold: the marks of an escape a renderer did not read.
func VisibleEscapes(text, source string) []string {
	var out []string
	seen := map[string]bool{}
	for _, pat := range []*regexp.Regexp{visibleEscape, visibleRef} {
		for _, m := range pat.FindAllString(text, -1) {
			if !seen[m] && !strings.Contains(source, m) {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out
}

var visibleRef = regexp.MustCompile(`&(?:[a-zA-Z]{2,8}|#[0-9]{2,5}|#x[0-9a-fA-F]{2,4});`)

// jsonString is v as JSON, for a script.
func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}
