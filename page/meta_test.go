package page

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/piexport/piexport/session"
)

// headMeta is the content of each <meta> of the page's head, by its name
// or property, as a browser reads it.
func headMeta(t *testing.T, page []byte) map[string]string {
	t.Helper()
	root := parseNoScript(t, page)
	got := map[string]string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" {
			key := attr(n, "name")
			if key == "" {
				key = attr(n, "property")
			}
			got[key] = attr(n, "content")
		}
		if n.Type == html.ElementNode && n.Data == "title" && n.FirstChild != nil && got["<title>"] == "" {
			got["<title>"] = n.FirstChild.Data
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return got
}

// TestPageMeta: a link to a page previews its title and its first user
// message, as text: quotes, tags and line breaks of the session stay
// text in the attributes, and a long message is cut on a word.
func TestPageMeta(t *testing.T) {
	hostile := "He said \"run it\" & <script>window.__xss=1</script>\n\n'quoted' <img src=x onerror=alert(1)>\nthen " +
		strings.Repeat("a rather long explanation of the failing test ", 8)
	text, _ := json.Marshal(hostile)
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":` + string(text) + `}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}]}}`,
		`{"type":"session_info","id":"n1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","name":"Fix \"it\" <b>now</b>\nplease"}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "meta.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	page := exportPage(t, s, Options{})
	meta := headMeta(t, page)
	desc := meta["description"]
	for _, key := range []string{"og:description"} {
		if meta[key] != desc {
			t.Errorf("%s = %q, want the description %q", key, meta[key], desc)
		}
	}
	if meta["og:title"] != meta["<title>"] || meta["og:title"] != `Fix "it" <b>now</b> please` {
		t.Errorf("og:title %q, <title> %q", meta["og:title"], meta["<title>"])
	}
	if meta["og:type"] != "article" {
		t.Errorf("og:type = %q", meta["og:type"])
	}
	if !strings.HasPrefix(desc, `He said "run it" & <script>window.__xss=1</script> 'quoted' <img src=x onerror=alert(1)> then a rather`) {
		t.Errorf("description = %q, want the message's text on one line", desc)
	}
	if n := utf8.RuneCountInString(desc); n > descriptionMax || !strings.HasSuffix(desc, "…") || strings.Contains(desc, "\n") {
		t.Errorf("description of %d characters, want at most %d, cut with …: %q", n, descriptionMax, desc)
	}
	oneLine := strings.Join(strings.Fields(hostile), " ")
	if cut := strings.TrimSpace(strings.TrimSuffix(desc, "…")); !strings.HasPrefix(oneLine, cut) || oneLine[len(cut)] != ' ' {
		t.Errorf("the description is not cut on a word: %q", desc)
	}
	// In the file, every quote and angle bracket of the session is an
	// entity inside the attributes: nothing ends one early.
	head := string(page[:strings.Index(string(page), "</head>")])
	for _, bad := range []string{"<script>window", "<img src=x", `"run it"`, "<b>now"} {
		if strings.Contains(head, bad) {
			t.Errorf("the head holds %q unescaped", bad)
		}
	}
}

// TestPageMetaWithoutMessage: a session without a user message is
// described by its figures.
func TestPageMetaWithoutMessage(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","provider":"anthropic","modelId":"claude"}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "empty.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := headMeta(t, exportPage(t, s, Options{}))["description"]; got != "A pi session: 1 entry, 0 tool calls." {
		t.Errorf("description = %q", got)
	}
}
