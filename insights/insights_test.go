package insights

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"github.com/piexport/piexport"
	"github.com/piexport/piexport/internal/hostile"
	"github.com/piexport/piexport/session"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// chartTemplates are templates/insights.html as the pages parse it.
var chartTemplates = template.Must(template.New("insights.html").Funcs(template.FuncMap{
	"isoTime": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"utcTime": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
}).ParseFS(piexport.Templates(), "insights.html"))

func load(t testing.TB, name string) *session.Session {
	t.Helper()
	s, err := session.Load(filepath.Join("../testdata/corpus", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func link(id string) string { return "#e%3A" + id }

func leafSection(t testing.TB, s *session.Session) *Section {
	t.Helper()
	return Of(s, s.Path(s.Leaf), "/home/dev", nil).Section(link)
}

func execute(t testing.TB, name string, data any) string {
	t.Helper()
	var b bytes.Buffer
	if err := chartTemplates.ExecuteTemplate(&b, name, data); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkXML parses an SVG as XML, as a standalone .svg file is read, and
// returns its elements' names and the attributes they carry.
func checkXML(t testing.TB, svg string) (elements map[string]bool, attrs map[string]bool) {
	t.Helper()
	elements, attrs = map[string]bool{}, map[string]bool{}
	d := xml.NewDecoder(strings.NewReader(svg))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return elements, attrs
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elements[se.Name.Local] = true
			for _, a := range se.Attr {
				attrs[a.Name.Local] = true
			}
		}
	}
}

// TestGoldenSVG compares the charts of a few sessions with
// testdata/golden (go test ./insights -update rewrites them). Each is a
// standalone SVG file, parsed as XML.
func TestGoldenSVG(t *testing.T) {
	for _, tc := range []struct{ name, file string }{
		// 32 turns of one model, four tools, one span of work.
		{"civ6", "pi-v3-civ6.jsonl"},
		// A compaction, pi's breakdown by model, a usage entry.
		{"pi15", "pi15-sdk-usage-contextedit-main.jsonl"},
		// Branch points on the path.
		{"branches", "pi-v3-sdk-branches-labels.jsonl"},
		// Two models, a long session resumed after pauses.
		{"large", "pi-v1-pimono-large-session.jsonl"},
	} {
		sec := leafSection(t, load(t, tc.file))
		if sec == nil {
			t.Fatalf("%s: no insights", tc.file)
		}
		for _, c := range sec.Charts {
			t.Run(tc.name+"-"+c.Class, func(t *testing.T) {
				svg := execute(t, "svg", c) + "\n"
				checkXML(t, svg)
				path := filepath.Join("../testdata/golden", "insights-"+tc.name+"-"+c.Class+".svg")
				if *update {
					if err := os.WriteFile(path, []byte(svg), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./insights -update)", err)
				}
				if diff := cmp.Diff(string(want), svg); diff != "" {
					t.Errorf("SVG differs (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// hostileSession is a session whose every name is markup: ids, models,
// providers, tool names and arguments.
func hostileSession(t testing.TB) *session.Session {
	t.Helper()
	var b strings.Builder
	line := func(v map[string]any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	line(map[string]any{"type": "session", "version": 3, "id": "s1", "timestamp": "2026-03-01T09:00:00Z", "cwd": hostile.Cwd})
	parent := any(nil)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range 6 {
		user := fmt.Sprintf("%s-u%d", hostile.ID, i)
		line(map[string]any{"type": "message", "id": user, "parentId": parent, "timestamp": at.Format(time.RFC3339),
			"message": map[string]any{"role": "user", "content": hostile.Preview}})
		asst := fmt.Sprintf("%s-a%d", hostile.ID, i)
		call := fmt.Sprintf("call%d", i)
		line(map[string]any{"type": "message", "id": asst, "parentId": user, "timestamp": at.Add(time.Minute).Format(time.RFC3339),
			"message": map[string]any{"role": "assistant", "provider": hostile.Role, "model": []string{hostile.Title, hostile.Model}[i%2],
				"content": []any{map[string]any{"type": "toolCall", "id": call, "name": []string{hostile.Label, hostile.Foot}[i%2],
					"arguments": map[string]any{"path": hostile.Preview, "command": hostile.Title}}},
				"usage": map[string]any{"input": 100 * (i + 1), "output": 50, "cacheRead": 1000 * i, "cacheWrite": 10,
					"cost": map[string]any{"total": 0.01 * float64(i+1)}}}})
		result := fmt.Sprintf("%s-r%d", hostile.ID, i)
		line(map[string]any{"type": "message", "id": result, "parentId": asst, "timestamp": at.Add(2 * time.Minute).Format(time.RFC3339),
			"message": map[string]any{"role": "toolResult", "toolCallId": call, "toolName": hostile.Label, "isError": i == 3,
				"content": []any{map[string]any{"type": "text", "text": strings.Repeat(hostile.Foot, i+1)}}}})
		parent = result
		// An hour's pause after every other turn: the timeline's breaks.
		at = at.Add(time.Duration(3+57*(i%2)) * time.Minute)
	}
	line(map[string]any{"type": "compaction", "id": hostile.Label, "parentId": parent, "timestamp": at.Format(time.RFC3339),
		"summary": "s", "firstKeptEntryId": parent, "tokensBefore": 5000})
	s, err := session.Read(strings.NewReader(b.String()), "hostile.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHostileNames renders the charts of a session whose names are markup:
// each SVG stays well-formed XML with only the elements and attributes
// the charts write, and no name appears unescaped.
func TestHostileNames(t *testing.T) {
	s := hostileSession(t)
	sec := leafSection(t, s)
	if sec == nil || len(sec.Charts) < 4 {
		t.Fatalf("want the context, tokens, tools and timeline charts, got %+v", sec)
	}
	allowedElements := map[string]bool{"svg": true, "title": true, "desc": true, "line": true, "path": true, "text": true,
		"a": true, "g": true, "circle": true, "rect": true}
	allowedAttrs := map[string]bool{"xmlns": true, "class": true, "viewBox": true, "role": true, "aria-labelledby": true,
		"aria-describedby": true, "id": true, "x1": true, "y1": true, "x2": true, "y2": true, "d": true, "x": true, "y": true,
		"text-anchor": true, "href": true, "cx": true, "cy": true, "r": true, "width": true, "height": true}
	for _, c := range sec.Charts {
		svg := execute(t, "svg", c)
		elements, attrs := checkXML(t, svg)
		for e := range elements {
			if !allowedElements[e] {
				t.Errorf("%s: element <%s> in the SVG", c.ID, e)
			}
		}
		for a := range attrs {
			if !allowedAttrs[a] {
				t.Errorf("%s: attribute %s in the SVG", c.ID, a)
			}
		}
	}
	// The whole section as a browser reads it: only our own elements,
	// no event handler, links only within the page; the names shown as
	// text.
	doc, err := html.Parse(strings.NewReader(execute(t, "insights", sec)))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for n := range doc.Descendants() {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
		case html.ElementNode:
			if n.Data == "script" || n.Data == "img" || n.Data == "b" {
				t.Errorf("element <%s> in the insights", n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s %s=%q> in the insights", n.Data, a.Key, a.Val)
				}
				if a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
					t.Errorf("<%s href=%q> leads out of the page", n.Data, a.Val)
				}
			}
		}
	}
	for _, want := range []string{hostile.Label, hostile.Foot, "window.__xss=1", hostile.Title} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the insights do not show %q as text", want)
		}
	}
}
