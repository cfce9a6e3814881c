package session

import (
	"bufio"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

const hdr = `{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/u/p"}`

func user(id, parent, text string, sec int) string {
	p := "null"
	if parent != "" {
		p = fmt.Sprintf("%q", parent)
	}
	return fmt.Sprintf(`{"type":"message","id":%q,"parentId":%s,"timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"user","content":[{"type":"text","text":%q}]}}`, id, p, sec, text)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func load(t *testing.T, content string) *Session {
	t.Helper()
	s, err := Read(strings.NewReader(content), "f.jsonl")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return s
}

// wantWarning asserts that a warning at line mentions every fragment.
func wantWarning(t *testing.T, s *Session, line int, fragments ...string) {
	t.Helper()
	for _, w := range s.Warnings {
		if w.Line != line {
			continue
		}
		ok := true
		for _, f := range fragments {
			ok = ok && strings.Contains(w.String(), f)
		}
		if ok {
			if !strings.HasPrefix(w.String(), fmt.Sprintf("f.jsonl:%d: ", line)) && line > 0 {
				t.Errorf("warning %q does not start with the file and line", w)
			}
			return
		}
	}
	t.Errorf("no warning at line %d with %q; got %v", line, fragments, s.Warnings)
}

func texts(s *Session) []string {
	var out []string
	for _, e := range s.Entries {
		if e.Message != nil {
			out = append(out, e.Message.Text())
		} else {
			out = append(out, e.Type)
		}
	}
	return out
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name    string
		content string
		check   func(t *testing.T, s *Session)
	}{
		{"bom", "\xef\xbb\xbf" + lines(hdr, user("a", "", "hi", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 1, "byte order mark")
			if s.Header == nil || s.Header.ID != "s1" || len(s.Entries) != 1 {
				t.Errorf("header %+v, %d entries", s.Header, len(s.Entries))
			}
		}},
		{"crlf", strings.ReplaceAll(lines(hdr, user("a", "", "hi", 1), user("b", "a", "there", 2)), "\n", "\r\n"), func(t *testing.T, s *Session) {
			wantWarning(t, s, 1, "CRLF")
			if got := texts(s); len(got) != 2 || got[1] != "there" {
				t.Errorf("entries %q", got)
			}
		}},
		{"blank lines", lines(hdr, "", "   ", user("a", "", "hi", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "blank line")
			wantWarning(t, s, 3, "blank line")
			if s.Entries[0].Line != 4 {
				t.Errorf("entry at line %d, want 4", s.Entries[0].Line)
			}
		}},
		{"last entry without an id (GJC version 4)", lines(`{"type":"session","version":4,"id":"g1","timestamp":"2026-01-01T00:00:00Z","cwd":"/home/u/p"}`,
			user("a", "", "one", 1), user("b", "a", "two", 2), `{"type":"custom","customType":"gjc-state","timestamp":"2026-01-01T00:00:03Z","data":{}}`), func(t *testing.T, s *Session) {
			wantWarning(t, s, 4, "custom entry has no id")
			if s.Leaf == nil || s.Leaf.ID != "b" {
				t.Errorf("leaf %v, want b: the last entry with an id", s.Leaf)
			}
			if last := s.Entries[2]; last.Parent != nil || len(s.Roots) != 2 || s.Roots[1] != last {
				t.Errorf("the entry without an id is not shown as a root of its own: roots %v", s.Roots)
			}
		}},
		{"malformed line", lines(hdr, user("a", "", "one", 1), `{"type":"message","id":"b",`+"\x01", user("c", "a", "three", 3)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 3, "not valid JSON", "skipped")
			if got := texts(s); strings.Join(got, ",") != "one,three" {
				t.Errorf("entries %q", got)
			}
		}},
		{"bad escape as in masked files", lines(hdr, user("a", "", "one", 1), `{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"x\*y"}}`, user("c", "b", "three", 3)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 3, "not valid JSON")
			wantWarning(t, s, 4, `parent "b" is not in the file`, "root")
			if len(s.Roots) != 2 || s.Roots[1].Line != 4 {
				t.Errorf("roots %v", s.Roots)
			}
		}},
		{"truncated last line", lines(hdr, user("a", "", "one", 1)) + `{"type":"message","id":"b","parentId":"a","message":{"role":"user","cont`, func(t *testing.T, s *Session) {
			wantWarning(t, s, 3, "cut short", "everything before it is kept")
			if len(s.Entries) != 1 || s.Leaf.FileID != "a" {
				t.Errorf("entries %q, leaf %v", texts(s), s.Leaf)
			}
		}},
		{"several objects on one line", lines(hdr, user("a", "", "one", 1)+user("b", "a", "two", 2)+user("c", "b", "three", 3), user("d", "c", "four", 4)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "3 JSON objects")
			if got := texts(s); strings.Join(got, ",") != "one,two,three,four" {
				t.Errorf("entries %q", got)
			}
			if e := s.Entries[2]; e.Line != 2 || e.Part != 3 || e.Where() != "line 2 (object 3)" {
				t.Errorf("third object: line %d part %d", e.Line, e.Part)
			}
			if got := len(s.Path(s.Leaf)); got != 4 {
				t.Errorf("path of %d entries, want 4", got)
			}
		}},
		{"object then garbage", lines(hdr, user("a", "", "one", 1)+`}{"x`, user("b", "a", "two", 2)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "not valid JSON", "rest of the line")
			if got := texts(s); strings.Join(got, ",") != "one,two" {
				t.Errorf("entries %q", got)
			}
		}},
		{"invalid utf-8", lines(hdr, strings.Replace(user("a", "", "CAFE ok", 1), "CAFE", "caf\xe9", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "not valid UTF-8")
			if got := s.Entries[0].Message.Text(); got != "caf\uFFFD ok" {
				t.Errorf("text %q", got)
			}
		}},
		{"json but not objects", lines(hdr, `[1,2]`, `"text"`, `42`, user("a", "", "hi", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "not an object", "array")
			wantWarning(t, s, 3, "not an object", "string")
			wantWarning(t, s, 4, "not an object", "number")
			if len(s.Entries) != 1 {
				t.Errorf("%d entries", len(s.Entries))
			}
		}},
		{"no header", lines(user("a", "", "one", 1), user("b", "a", "two", 2)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 0, "no session header")
			if s.Header != nil || len(s.Entries) != 2 || s.Entries[1].Parent != s.Entries[0] {
				t.Errorf("header %v, entries %q", s.Header, texts(s))
			}
		}},
		{"versionless header with ids keeps the file's links", lines(`{"type":"session","id":"s"}`, user("a", "", "root", 1), user("b", "a", "left", 2), user("c", "a", "right", 3)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 1, "no version", "own parent links")
			if len(s.Entries[0].Children) != 2 || s.Header.Version != 3 {
				t.Errorf("root has %d children, version %d", len(s.Entries[0].Children), s.Header.Version)
			}
		}},
		{"newer version", lines(`{"type":"session","version":7,"id":"s"}`, user("a", "", "hi", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 1, "version 7 is newer")
			if s.Header.Version != 7 || len(s.Entries) != 1 {
				t.Errorf("version %d", s.Header.Version)
			}
		}},
		{"duplicate ids", lines(hdr, user("a", "", "first", 1), user("b", "a", "child of first", 2), user("a", "b", "second a", 3), user("c", "a", "child of second", 4)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 4, `id "a" was already used at line 2`, "a~L4")
			second := s.Entry("a~L4")
			if second == nil || second.Message.Text() != "second a" {
				t.Fatalf("the repeated id is not addressable: %v", second)
			}
			if s.Entry("c").Parent != second || s.Entry("b").Parent != s.Entry("a") {
				t.Errorf("children attached to the wrong entry")
			}
			if n := len(s.Flatten()); n != 4 {
				t.Errorf("flattened tree has %d nodes, want 4 (no subtree twice)", n)
			}
		}},
		{"cycle", lines(hdr, user("a", "", "root", 1), user("b", "d", "b", 2), user("c", "b", "c", 3), user("d", "c", "d", 4)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 3, "form a cycle", "line 3, line 4, line 5")
			if len(s.Roots) != 2 || s.Roots[1].FileID != "b" {
				t.Errorf("roots %v", s.Roots)
			}
			if n := len(s.Flatten()); n != 4 {
				t.Errorf("%d entries visible, want 4", n)
			}
			if p := s.Path(s.Entry("d")); len(p) != 3 {
				t.Errorf("path of d has %d entries", len(p))
			}
		}},
		{"self parent", lines(hdr, user("a", "a", "me", 1)), func(t *testing.T, s *Session) {
			wantWarning(t, s, 2, "itself as its parent")
			if len(s.Roots) != 1 || len(s.Path(s.Leaf)) != 1 {
				t.Errorf("roots %v", s.Roots)
			}
		}},
		{"unknown type, role and block kept", lines(hdr, `{"type":"future_thing","id":"x","parentId":null,"payload":{"k":1}}`,
			`{"type":"message","id":"y","parentId":"x","message":{"role":"oracle","content":"?"}}`,
			`{"type":"message","id":"z","parentId":"y","message":{"role":"user","content":[{"type":"hologram","beam":3},{"type":"text","text":"t"}]}}`,
			`{"type":"message","id":"w","parentId":"z","message":{"role":"user","content":{"odd":true}}}`), func(t *testing.T, s *Session) {
			if len(s.Entries) != 4 {
				t.Fatalf("%d entries, want 4", len(s.Entries))
			}
			if !strings.Contains(string(s.Entries[0].Raw), `"payload":{"k":1}`) {
				t.Errorf("unknown type lost its JSON: %s", s.Entries[0].Raw)
			}
			if s.Entries[1].Role() != "oracle" || s.Entries[1].Raw == nil {
				t.Errorf("unknown role not kept raw")
			}
			if b := s.Entries[2].Message.Content[0]; b.Type != "hologram" || !strings.Contains(string(b.Raw), `"beam":3`) {
				t.Errorf("unknown block %+v", b)
			}
			// Content of odd shape: the message is kept, its content shown
			// as raw JSON.
			if e := s.Entries[3]; e.Role() != "user" || len(e.BadFields) != 1 || e.BadFields[0].Path != "message.content" ||
				string(e.BadFields[0].Raw) != `{"odd":true}` {
				t.Errorf("a message of odd content must keep the content as raw JSON: %+v", e)
			}
			wantWarning(t, s, 5, "message.content", "an object where a string or an array of blocks belongs", "raw JSON")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, load(t, tc.content))
		})
	}
}

func TestNotASession(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"empty", "", "the file is empty"},
		{"blank", "\n\n  \n", "none of its 3 lines is a JSON object"},
		{"binary", "\x00\x01\x02PK\x03\x04\x00\n\x89PNG\x00", "none of its 2 lines"},
		{"event stream", lines(hdr, `{"type":"agent_start"}`, `{"type":"turn_start"}`, `{"type":"message_end","message":{"role":"user"}}`), "event streams"},
		{"one unknown line", lines(`{"type":"agent_start"}`), "no session entries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.content), "f.jsonl")
			if !errors.Is(err, ErrNotSession) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "f.jsonl") {
				t.Errorf("err = %v, want ErrNotSession naming the file with %q", err, tc.want)
			}
		})
	}
}

func TestMigrations(t *testing.T) {
	t.Run("v1 ids from lines, compaction index", func(t *testing.T) {
		s := load(t, lines(`{"type":"session","id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/tmp"}`,
			`{"type":"message","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}`,
			`{"type":"message","timestamp":"2025-01-01T00:00:02Z","message":{"role":"hookMessage","customType":"x","content":"h"}}`,
			`{"type":"compaction","timestamp":"2025-01-01T00:00:03Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":1000}`))
		if s.Header.Version != 3 || s.Header.FileVersion != 0 {
			t.Errorf("version %d (file %d)", s.Header.Version, s.Header.FileVersion)
		}
		ids := []string{s.Entries[0].ID, s.Entries[1].ID, s.Entries[2].ID}
		if strings.Join(ids, ",") != "L2,L3,L4" || s.Entries[2].Parent != s.Entries[1] {
			t.Errorf("ids %v", ids)
		}
		if got := s.Entries[2].FirstKeptEntryID; got != "L3" {
			t.Errorf("firstKeptEntryId %q, want L3 (index 2 counts the header as 0)", got)
		}
		if s.Entries[1].Role() != "custom" {
			t.Errorf("hookMessage not migrated: %q", s.Entries[1].Role())
		}
		if got := strings.Join(s.ContextRoles(s.Leaf), ","); got != "compactionSummary,custom" {
			t.Errorf("context %s", got)
		}
	})
	t.Run("omp model string", func(t *testing.T) {
		s := load(t, lines(hdr, `{"type":"model_change","id":"m","parentId":null,"model":"openrouter/~anthropic/claude-x","role":"default"}`))
		if e := s.Entries[0]; e.Provider != "openrouter" || e.ModelID != "~anthropic/claude-x" || e.ModelRole != "default" {
			t.Errorf("provider %q model %q role %q", e.Provider, e.ModelID, e.ModelRole)
		}
	})
}

func TestTree(t *testing.T) {
	s := load(t, lines(hdr,
		user("r", "", "root", 1),
		user("late", "r", "late", 9),
		user("early", "r", "early", 5),
		user("tie1", "r", "tie one", 5),
		`{"type":"label","id":"l1","parentId":"late","targetId":"early","label":"keep"}`,
		`{"type":"label","id":"l2","parentId":"l1","targetId":"late","label":"gone"}`,
		`{"type":"label","id":"l3","parentId":"l2","targetId":"late","label":""}`,
		`{"type":"session_info","id":"n1","parentId":"l3","name":"  Old  "}`,
		`{"type":"session_info","id":"n2","parentId":"n1","name":"  New name "}`,
	))
	var kids []string
	for _, c := range s.Entry("r").Children {
		kids = append(kids, c.FileID)
	}
	if got := strings.Join(kids, ","); got != "early,tie1,late" {
		t.Errorf("children %s: want timestamp order, ties in file order", got)
	}
	if s.Entry("early").Label != "keep" || s.Entry("late").Label != "" {
		t.Errorf("labels: early %q late %q", s.Entry("early").Label, s.Entry("late").Label)
	}
	if s.Name != "New name" {
		t.Errorf("name %q", s.Name)
	}
	if s.Leaf.FileID != "n2" {
		t.Errorf("leaf %s", s.Leaf.FileID)
	}
}

func TestDeepChain(t *testing.T) {
	const n = 100_000
	var b strings.Builder
	b.WriteString(hdr + "\n")
	for i := 0; i < n; i++ {
		parent := ""
		if i > 0 {
			parent = fmt.Sprintf("e%d", i-1)
		}
		b.WriteString(user(fmt.Sprintf("e%d", i), parent, "x", i%60) + "\n")
	}
	s := load(t, b.String())
	if got := len(s.Path(s.Leaf)); got != n {
		t.Fatalf("path of %d entries, want %d", got, n)
	}
	if got := s.Flatten(); len(got) != n || got[n-1].Depth != 0 {
		t.Fatalf("flatten: %d nodes", len(got))
	}
}

func TestToolResultIndex(t *testing.T) {
	s := load(t, lines(hdr,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"/home/u/p/f.go","offset":10,"limit":50}}]}}`,
		`{"type":"message","id":"r","parentId":"a","message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"code"}]}}`,
	))
	a, r := s.Entry("a"), s.Entry("r")
	if got := s.ToolResult(a, "t1"); got != r {
		t.Errorf("ToolResult = %v", got)
	}
	if got := s.Preview(r, "/home/u").Text; got != "[read: ~/p/f.go:10-59]" {
		t.Errorf("preview %q", got)
	}
}

// Reading a session of a few lines allocates little: a search reads one
// line of a file for each hit's snippet. (Every read used to take a
// batch buffer it never gave back, a megabyte, and the arena began with a
// megabyte block.)
func TestReadFewLinesAllocatesLittle(t *testing.T) {
	if raceDetector {
		t.Skip("under -race, sync.Pool drops at random what is put back; the run without -race counts")
	}
	text := `{"type":"session","version":3,"id":"s1","timestamp":"2026-03-01T09:00:00Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2026-03-01T09:00:01Z","message":{"role":"user","content":"` +
		strings.Repeat("a word ", 200) + `"}}` + "\n"
	br := bufio.NewReaderSize(nil, 1<<20) // as the catalog reuses one
	read := func() {
		t.Helper()
		br.Reset(strings.NewReader(text))
		s, err := Read(br, "few.jsonl")
		if err != nil || len(s.Entries) != 1 {
			t.Fatalf("read: %v, %d entries", err, len(s.Entries))
		}
	}
	read()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 40
	for range n {
		read()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 256<<10 {
		t.Errorf("reading two lines allocates %d KB, want under 256 KB", per>>10)
	}
}
