package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestABadValueCostsOnlyItsField (issue 21, item 12): one value of an odd
// type ("NaN" or 1e400 for a count, a number for a text) no longer turns
// its whole entry into raw JSON without an id, which split the tree: the
// entry keeps its id, parent and text, only the value is set aside, and
// the warning names the field and the line.
func TestABadValueCostsOnlyItsField(t *testing.T) {
	asst := func(id, parent, usage, content string) string {
		return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-01-01T00:00:09Z","message":{"role":"assistant","content":%s,"model":"m1","usage":%s}}`, id, parent, content, usage)
	}
	const text = `[{"type":"text","text":"the answer"}]`
	for _, tc := range []struct {
		name, line, path, raw string
	}{
		{"NaN", asst("a1", "u1", `{"input":"NaN","output":5}`, text), "message.usage.input", `"NaN"`},
		{"out of range", asst("a1", "u1", `{"input":1e400,"output":5}`, text), "message.usage.input", `1e400`},
		{"cost", asst("a1", "u1", `{"input":3,"output":5,"cost":{"total":"free"}}`, text), "message.usage.cost.total", `"free"`},
		{"a block's text", asst("a1", "u1", `{"input":3,"output":5}`, `[{"type":"text","text":"the answer"},{"type":"text","text":5}]`), "message.content[1].text", `5`},
		{"an entry's own field", `{"type":"compaction","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:09Z","summary":"the answer","tokensBefore":"many","firstKeptEntryId":"u1"}`, "tokensBefore", `"many"`},
		{"a field of pi 1.5", `{"type":"compaction","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:09Z","summary":"the answer","firstKeptEntryId":"u1","usage":{"input":"NaN","output":1}}`, "usage.input", `"NaN"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := load(t, lines(hdr, user("u1", "", "the first question", 1), tc.line, user("u2", "a1", "the next question", 10)))
			if len(s.Roots) != 1 || s.Roots[0].ID != "u1" {
				t.Errorf("roots %v, want u1 alone: the tree is split", ids(s.Roots))
			}
			path := s.Path(s.Leaf)
			if got := ids(path); strings.Join(got, " ") != "u1 a1 u2" {
				t.Errorf("the path is %v, want u1 a1 u2", got)
			}
			a := s.Entry("a1")
			if a == nil || a.Raw != nil {
				t.Fatalf("a1 is kept whole as raw JSON, not read: %+v", a)
			}
			if !strings.Contains(a.Message.textOr(a.Summary), "the answer") {
				t.Errorf("a1 lost its text")
			}
			if len(a.BadFields) != 1 || a.BadFields[0].Path != tc.path || string(a.BadFields[0].Raw) != tc.raw {
				t.Errorf("bad fields %+v, want %s = %s", a.BadFields, tc.path, tc.raw)
			}
			wantWarning(t, s, 3, tc.path, "raw JSON", "the rest of the entry is kept")
			for _, w := range s.Warnings {
				if strings.Contains(w.Text, "no id") {
					t.Errorf("warning %q", w)
				}
			}
		})
	}
}

// textOr is the message's text, or alt for an entry without a message.
func (m *Message) textOr(alt string) string {
	if m == nil {
		return alt
	}
	return m.Text()
}

func ids(es []*Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

// TestBadValuesLoseNothingElse: over the test corpus, putting a string
// where a number belongs into every message's usage changes nothing of
// the tree, the path or the text: the loaded session is the one without
// those values.
func TestBadValuesLoseNothingElse(t *testing.T) {
	usage := regexp.MustCompile(`"usage":\{"input":\d+`)
	corpus := corpusFiles(t)
	changed := 0
	for _, file := range corpus {
		raw := readFile(t, file)
		bad := usage.ReplaceAll(raw, []byte(`"usage":{"input":"NaN"`))
		if bytes.Equal(bad, raw) {
			continue
		}
		changed++
		clean := usage.ReplaceAll(raw, []byte(`"usage":{"input":0`))
		want, err := Read(bytes.NewReader(clean), file)
		if err != nil {
			continue // not a session (an event stream)
		}
		got, err := Read(bytes.NewReader(bad), file)
		if err != nil {
			t.Fatal(err)
		}
		var w, g bytes.Buffer
		if err := want.WriteCanonicalJSON(&w); err != nil {
			t.Fatal(err)
		}
		if err := got.WriteCanonicalJSON(&g); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(withoutWarnings(t, w.Bytes()), withoutWarnings(t, g.Bytes())); diff != "" {
			t.Errorf("%s: the tree differs from the file's without the bad values (-without +with):\n%s", file, diff)
		}
		if n := len(got.Warnings) - len(want.Warnings); n <= 0 {
			t.Errorf("%s: no warning for the bad values", file)
		}
	}
	if changed < 5 {
		t.Fatalf("only %d corpus files have usage to spoil", changed)
	}
}

// withoutWarnings is canonical tree JSON without its warnings.
func withoutWarnings(t *testing.T, canonical []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(canonical, &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "warnings")
	return v
}

func corpusFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/corpus/*.jsonl")
	if err != nil || len(files) < 25 {
		t.Fatalf("corpus missing: %d files, %v", len(files), err)
	}
	return files
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
