package gfm

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/session"
)

// TestHugoShortcodes: every shortcode delimiter in code becomes a
// shortcode comment, which Hugo's page lexer writes out as the text it
// holds; removing the comment marks the lexer takes out gives the text
// back, byte for byte. (The Hugo site test builds them with hugo.)
func TestHugoShortcodes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no shortcode { {{ }} {< %}", "no shortcode { {{ }} {< %}"},
		{"a {{< x >}} b", "a {{</* x */>}} b"},
		{"a {{% x %}} b {{< y >}}", "a {{%/* x */%}} b {{</* y */>}}"},
		{"{{{< x >}}", "{{{</* x */>}}"},
		// Hugo's own escape, as session text: it is text too.
		{"{{</* x */>}}", "{{</*/* x */*/>}}"},
		// Unclosed: the comment runs to the end, closed in a definition.
		{"a {{< x\nb\n", "a {{</* x\nb\n\n[piexport-shortcode]: #*/>}}\n"},
		// Inside a comment nothing is read.
		{"{{< a {{% b >}} c %}}", "{{</* a {{% b */>}} c %}}"},
	} {
		got := string(hugoShortcodes([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("hugoShortcodes(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		// What the lexer writes out: the delimiters of each comment
		// taken off ("/*" after the opening, "*/" before the closing).
		lexed := regexp.MustCompile(`(\{\{[<%])/\*`).ReplaceAllString(got, "$1")
		lexed = regexp.MustCompile(`\*/([>%]\}\})`).ReplaceAllString(lexed, "$1")
		lexed = strings.TrimSuffix(lexed, "\n[piexport-shortcode]: #>}}\n")
		lexed = strings.TrimSuffix(lexed, "\n[piexport-shortcode]: #%}}\n")
		if !strings.HasPrefix(tc.in, "{{</*") && lexed != tc.in {
			t.Errorf("Hugo would write %q, not %q", lexed, tc.in)
		}
	}
}

// TestYAMLString: front matter strings as YAML double-quoted scalars,
// with nothing a YAML reader refuses or folds.
func TestYAMLString(t *testing.T) {
	for in, want := range map[string]string{
		`what is Vec<String>?`:              `"what is Vec\u003CString\u003E?"`,
		`say "hi" \ o/`:                     `"say \"hi\" \\ o/"`,
		"a\nb\tc\x00\u0085\u2028\ufeff\x7f": `"a\nb\tc\u0000\u0085\u2028\uFEFF\u007F"`,
		"日本語 --- #: {x} &":                  `"日本語 --- #: \u007Bx\u007D \u0026"`,
		"bad \xff utf-8":                    `"bad \uFFFD utf-8"`,
	} {
		if got := yamlString(in); got != want {
			t.Errorf("yamlString(%q) = %s, want %s", in, got, want)
		}
	}
	if got, want := (mkdocsTarget{}).metaString(`<img src=x onerror="x"> & 'y'`), `"\u0026lt;img src=x onerror=\u0026quot;x\u0026quot;\u0026gt; \u0026amp; \u0026#39;y\u0026#39;"`; got != want {
		t.Errorf("MkDocs puts the title in its pages as HTML: %s, want %s", got, want)
	}
}

// TestFrontMatterAndShape: front matter replaces the title heading; a
// heading offset moves every heading; the body alone has no head or
// last line; one <h1> at most; a session's heading is a bold line.
func TestFrontMatterAndShape(t *testing.T) {
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/home/dev/p"},
		obj{"type": "session_info", "id": "n1", "parentId": nil, "timestamp": "2026-01-01T00:00:01Z", "name": `what is Vec<String>? "quoted"`},
		mdMessage("u1", "n1", 2, obj{"role": "user", "content": "# Rules\n\nWhy does Vec<String> fail?"}),
		mdMessage("a1", "u1", 3, obj{"role": "assistant", "model": "m1", "provider": "p", "content": []obj{mdText("## Answer\n\nBecause.")},
			"usage": obj{"input": 10, "output": 5, "cost": obj{"total": 0.25}}}),
	)
	doc := exportMarkdown(t, s, Options{FrontMatter: true, HeadingOffset: 1, Generator: "piexport test"})
	wantHead := "---\ntitle: \"what is Vec\\u003CString\\u003E? \\\"quoted\\\"\"\ndate: 2026-01-01T00:00:01Z\nlastmod: 2026-01-01T00:00:03Z\n" +
		"session_id: \"s1\"\nproject: \"~/p\"\nmodels: [\"p/m1\"]\ncost: 0.25\ntokens: 15\nentries: 3\n---\n"
	if !strings.HasPrefix(doc, wantHead) {
		t.Errorf("front matter:\n%s\nwant it to start:\n%s", doc, wantHead)
	}
	d := checkMarkdown(t, strings.TrimPrefix(doc, wantHead)) // a renderer that knows no front matter reads it as text
	want := []string{"### 1. User: Rules · Why does Vec<String> fail? · 00:00", "### 2. Assistant: Answer · Because. · 00:00"}
	if diff := cmp.Diff(want, d.headings); diff != "" {
		t.Errorf("headings (-want +got):\n%s\n%s", diff, doc)
	}
	for _, bold := range []string{"**Rules**", "**Answer**"} {
		if !strings.Contains(doc, bold) {
			t.Errorf("the session's heading is not the bold line %s:\n%s", bold, doc)
		}
	}
	body := exportMarkdown(t, s, Options{BodyOnly: true, Generator: "piexport test"})
	if strings.Contains(body, "Directory") || strings.Contains(body, "Exported by") || strings.HasPrefix(body, "# ") || strings.HasPrefix(body, "---") {
		t.Errorf("the body holds a head, a last line or a title:\n%s", body)
	}
	if err := WriteMarkdown(&bytes.Buffer{}, s, Options{HeadingOffset: 5}); err == nil {
		t.Errorf("a heading offset of 5 is taken")
	}
	if err := WriteMarkdown(&bytes.Buffer{}, s, Options{Target: "word"}); err == nil {
		t.Errorf("an unknown target is taken")
	}
}

// TestAnchors: every entry of the path has its id as an anchor once, as
// each target writes anchors; sub-agents' entries have the page's keys.
func TestAnchors(t *testing.T) {
	file := "omp18-task-subagents.jsonl"
	s := loadMarkdownCorpus(t, file)
	agents, _ := session.LoadSubAgents(filepath.Join("../testdata/corpus", file))
	for _, target := range Targets {
		doc := exportMarkdown(t, s, Options{Target: target, SubAgents: agents})
		pattern := `<a id="([^"]+)"></a>`
		if target == "hugo" {
			pattern = `\{#([^} ]+)\}\n`
		}
		seen := map[string]int{}
		for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(doc, -1) {
			seen[m[1]]++
		}
		for _, e := range s.Path(s.Leaf) {
			if (e.Type == "usage" || e.Type == "model_usage") && e.Work != nil {
				continue
			}
			if seen[e.ID] != 1 {
				t.Errorf("%s: entry %s has %d anchors", target, e.ID, seen[e.ID])
			}
		}
		for _, key := range []string{"sub-Lexer", "sub-Lexer-10121212", "sub-Parser"} {
			if target == "hugo" {
				key = strings.ReplaceAll(key, "/", "-")
			}
			if seen[key] != 1 {
				t.Errorf("%s: the sub-agents' anchor %s appears %d times", target, key, seen[key])
			}
		}
	}
}

// TestStrayAgents: a transcript that no task call on the path started
// is written after the path, under a heading of its own; an excerpt
// leaves it out.
func TestStrayAgents(t *testing.T) {
	agents, _ := session.LoadSubAgents("../testdata/corpus/omp18-task-subagents.jsonl")
	s := loadMarkdownCorpus(t, "pi-v3-earth0-tiny.jsonl")
	doc := exportMarkdown(t, s, Options{SubAgents: agents})
	d := checkMarkdown(t, doc)
	var tail []string
	for i, h := range d.headings {
		if strings.HasPrefix(h, "## Sub-agents no task call") {
			tail = d.headings[i:]
		}
	}
	if len(tail) < 4 || tail[1] != "### Sub-agent Lexer" || !strings.Contains(doc, "LEXER-ANSWER") || !strings.Contains(doc, "PARSER-TASK") {
		t.Errorf("the transcripts after the path: %q\n%s", tail, doc)
	}
	cut, err := s.Cut(s.Path(s.Leaf)[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if doc := exportMarkdown(t, cut, Options{SubAgents: agents}); strings.Contains(doc, "Sub-agents no task call") || !strings.Contains(doc, "**Excerpt:** entries 2 to") {
		t.Errorf("an excerpt:\n%s", doc)
	}
}

// fakeImages keeps images in memory.
type fakeImages map[string][]byte

func (f fakeImages) Add(mime string, data []byte) (string, error) {
	if mime != "image/png" {
		return "", nil
	}
	name := "x.assets/" + strings.Repeat(string(rune('a'+len(f))), 32) + ".png"
	f[name] = data
	return name, nil
}

// TestImages: an image becomes a file beside the document, linked; one
// the store will not keep, and every one without a store, a line.
func TestImages(t *testing.T) {
	s := mdSessionLines(t,
		obj{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-01-01T00:00:00Z", "cwd": "/p"},
		mdMessage("u1", "", 1, obj{"role": "user", "content": []obj{
			{"type": "image", "mimeType": "image/png", "data": "iVBORw0KGgo="},
			{"type": "image", "mimeType": "image/svg+xml", "data": "PHN2Zz4="},
		}}),
	)
	store := fakeImages{}
	doc := exportMarkdown(t, s, Options{Images: store})
	checkMarkdown(t, doc)
	if len(store) != 1 || !strings.Contains(doc, "![image/png, 8 bytes](x.assets/"+strings.Repeat("a", 32)+".png)") || !strings.Contains(doc, "_[image: image/svg+xml, 5 bytes, not included]_") {
		t.Errorf("images: %v\n%s", store, doc)
	}
	if strings.Contains(doc, "data:") {
		t.Errorf("an image as a data: URL:\n%s", doc)
	}
}
