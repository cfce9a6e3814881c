package sessiongen

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Data      string          `json:"data"`
	MimeType  string          `json:"mimeType"`
}

type message struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	ToolCallID   string          `json:"toolCallId"`
	ToolName     string          `json:"toolName"`
	IsError      *bool           `json:"isError"`
	Details      json.RawMessage `json:"details"`
	StopReason   string          `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	API          string          `json:"api"`
	Usage        *struct {
		TotalTokens int `json:"totalTokens"`
		Cost        struct {
			Total float64 `json:"total"`
		} `json:"cost"`
	} `json:"usage"`
	Timestamp int64  `json:"timestamp"`
	Command   string `json:"command"`
	Output    string `json:"output"`
	Cancelled *bool  `json:"cancelled"`
}

type entry struct {
	Type             string          `json:"type"`
	Version          int             `json:"version"`
	ID               string          `json:"id"`
	Parent           json.RawMessage `json:"parentId"`
	ParentID         *string         `json:"-"`
	Timestamp        string          `json:"timestamp"`
	Cwd              string          `json:"cwd"`
	Message          *message        `json:"message"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	TokensBefore     int             `json:"tokensBefore"`
	Summary          string          `json:"summary"`
	FromID           string          `json:"fromId"`
	TargetID         string          `json:"targetId"`
	Label            *string         `json:"label"`
	Name             string          `json:"name"`
	Display          *bool           `json:"display"`
	Content          json.RawMessage `json:"content"`
	Details          json.RawMessage `json:"details"`
}

func (e *entry) blocks(t *testing.T) []block {
	t.Helper()
	var bs []block
	if e.Message == nil || len(e.Message.Content) == 0 {
		return nil
	}
	if err := json.Unmarshal(e.Message.Content, &bs); err != nil {
		t.Fatalf("entry %s: content is not an array of blocks: %v", e.ID, err)
	}
	return bs
}

func generate(t testing.TB, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// parse checks that every line is one JSON object in valid UTF-8 and decodes
// the lines; the header is entries[0].
func parse(t *testing.T, data []byte) []entry {
	t.Helper()
	var out []entry
	r := bufio.NewReader(bytes.NewReader(data))
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if err == io.EOF {
			if len(line) > 0 {
				t.Fatalf("line %d: no final newline", n)
			}
			break
		}
		if !utf8.Valid(line) {
			t.Fatalf("line %d: invalid UTF-8", n)
		}
		var obj map[string]any
		if err := json.Unmarshal(line, &obj); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		var e entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		// ParentID is nil when the field is missing, "" when it is null.
		if e.Parent != nil {
			var p *string
			if err := json.Unmarshal(e.Parent, &p); err != nil {
				t.Fatalf("line %d: parentId: %v", n, err)
			}
			if p == nil {
				p = new(string)
			}
			e.ParentID = p
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		t.Fatal("empty output")
	}
	return out
}

var (
	allOpts   = Options{Seed: 42, TargetBytes: 10_000_000, Branches: true, Images: true, Compactions: true, Labels: true}
	allOnce   sync.Once
	allData   []byte
	allParsed []entry
)

// everything returns one mid-sized session with every option on, shared by
// the tests that look for features.
func everything(t *testing.T) ([]byte, []entry) {
	t.Helper()
	allOnce.Do(func() {
		allData = generate(t, allOpts)
		allParsed = parse(t, allData)
	})
	if allParsed == nil {
		t.Fatal("generation failed in an earlier test")
	}
	return allData, allParsed
}

func TestSameSeedSameBytes(t *testing.T) {
	for _, opt := range []Options{
		{Seed: 7, TargetBytes: 400_000},
		{Seed: 7, TargetBytes: 400_000, Branches: true, Images: true, Compactions: true, Labels: true},
		{Seed: 7, Chain: 500},
	} {
		a, b := generate(t, opt), generate(t, opt)
		if !bytes.Equal(a, b) {
			t.Errorf("%+v: two runs differ", opt)
		}
		opt.Seed++
		if c := generate(t, opt); bytes.Equal(a, c) {
			t.Errorf("%+v: seeds %d and %d give the same bytes", opt, opt.Seed-1, opt.Seed)
		}
	}
}

func TestHeader(t *testing.T) {
	es := parse(t, generate(t, Options{Seed: 1, TargetBytes: 50_000, Cwd: "/tmp/x"}))
	h := es[0]
	if h.Type != "session" || h.Version != 3 || h.Cwd != "/tmp/x" {
		t.Errorf("header = %+v", h)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(h.ID) {
		t.Errorf("header id %q is not a UUIDv7", h.ID)
	}
	if _, err := time.Parse(time.RFC3339Nano, h.Timestamp); err != nil {
		t.Errorf("header timestamp: %v", err)
	}
	if es[1].Type != "model_change" || es[2].Type != "thinking_level_change" {
		t.Errorf("entries 1 and 2 are %s and %s, want model_change and thinking_level_change", es[1].Type, es[2].Type)
	}
	if d := parse(t, generate(t, Options{Seed: 1, TargetBytes: 50_000}))[0].Cwd; d != defaultCwd {
		t.Errorf("default cwd = %q", d)
	}
}

var idRE = regexp.MustCompile(`^[0-9a-f]{8}$`)

// checkTree checks ids, parent links, timestamps and the references between
// entries, and returns the number of children of each id.
func checkTree(t *testing.T, es []entry) map[string]int {
	t.Helper()
	byID := map[string]*entry{}
	children := map[string]int{}
	var last time.Time
	for i := range es[1:] {
		e := &es[i+1]
		if !idRE.MatchString(e.ID) {
			t.Fatalf("entry %d: id %q is not 8 hex digits", i+1, e.ID)
		}
		if byID[e.ID] != nil {
			t.Fatalf("entry %d: duplicate id %s", i+1, e.ID)
		}
		if e.ParentID == nil {
			t.Fatalf("entry %s has no parentId field", e.ID)
		}
		if p := *e.ParentID; p != "" {
			if byID[p] == nil {
				t.Fatalf("entry %s: parent %s is not an earlier entry", e.ID, p)
			}
			children[p]++
		}
		ts, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		if err != nil {
			t.Fatalf("entry %s: %v", e.ID, err)
		}
		if !ts.After(last) {
			t.Fatalf("entry %s: timestamp %s not after %s", e.ID, ts, last)
		}
		last = ts
		byID[e.ID] = e
	}
	ancestor := func(a, of string) bool {
		for p := of; p != ""; p = *byID[p].ParentID {
			if p == a {
				return true
			}
		}
		return false
	}
	for i := range es[1:] {
		e := &es[i+1]
		switch e.Type {
		case "compaction":
			if !ancestor(e.FirstKeptEntryID, e.ID) {
				t.Errorf("compaction %s: firstKeptEntryId %s is not on its path", e.ID, e.FirstKeptEntryID)
			}
		case "label":
			if byID[e.TargetID] == nil {
				t.Errorf("label %s: target %s does not exist", e.ID, e.TargetID)
			}
		case "branch_summary":
			if e.FromID != "root" && byID[e.FromID] == nil {
				t.Errorf("branch_summary %s: fromId %s does not exist", e.ID, e.FromID)
			}
		case "message":
			if e.Message.Role != "toolResult" {
				continue
			}
			// The call must be in the nearest assistant message above.
			p := *e.ParentID
			for byID[p].Message == nil || byID[p].Message.Role != "assistant" {
				p = *byID[p].ParentID
			}
			found := false
			for _, b := range byID[p].blocks(t) {
				found = found || b.Type == "toolCall" && b.ID == e.Message.ToolCallID && b.Name == e.Message.ToolName
			}
			if !found {
				t.Errorf("toolResult %s: call %s (%s) not in assistant %s", e.ID, e.Message.ToolCallID, e.Message.ToolName, p)
			}
		}
	}
	return children
}

func TestTree(t *testing.T) {
	for _, opt := range []Options{
		{Seed: 3, TargetBytes: 1_000_000},
		{Seed: 4, TargetBytes: 1_000_000, Labels: true, Compactions: true},
		allOpts,
	} {
		var es []entry
		if opt == allOpts {
			_, es = everything(t)
		} else {
			es = parse(t, generate(t, opt))
		}
		children := checkTree(t, es)
		branched := false
		for _, n := range children {
			branched = branched || n > 1
		}
		if branched != opt.Branches {
			t.Errorf("%+v: some entry has two children = %v", opt, branched)
		}
	}
}

func TestChain(t *testing.T) {
	for _, n := range []int{1, 2, 9, 5000} {
		es := parse(t, generate(t, Options{Seed: 5, Chain: n, TargetBytes: 1, Branches: true, Compactions: true}))
		if got := len(es) - 1; got != n {
			t.Fatalf("Chain %d: %d entries", n, got)
		}
		checkTree(t, es)
		prev := ""
		for i, e := range es[1:] {
			if *e.ParentID != prev {
				t.Fatalf("Chain %d: entry %d's parent is %q, want %q", n, i, *e.ParentID, prev)
			}
			want := []string{"user", "assistant"}[i%2]
			if e.Type != "message" || e.Message.Role != want {
				t.Fatalf("Chain %d: entry %d is %s/%v, want message/%s", n, i, e.Type, e.Message, want)
			}
			prev = e.ID
		}
	}
}

func TestTargetBytes(t *testing.T) {
	for _, target := range []int64{20_000, 100_000, 500_000, 3_000_000} {
		for _, opt := range []Options{
			{Seed: 11},
			{Seed: 12, Branches: true, Images: true, Compactions: true, Labels: true},
			{Seed: 13, Images: true},
		} {
			opt.TargetBytes = target
			n := int64(len(generate(t, opt)))
			if n < target || n > target+target/10 {
				t.Errorf("%+v: %d bytes, want %d to %d", opt, n, target, target+target/10)
			}
		}
	}
}

func TestFeatures(t *testing.T) {
	_, es := everything(t)
	seen := map[string]int{}
	see := func(k string) { seen[k]++ }
	for i := range es {
		e := &es[i]
		see("entry:" + e.Type)
		switch e.Type {
		case "custom_message":
			see("custom_message display=" + map[bool]string{true: "true", false: "false"}[*e.Display])
		case "label":
			if e.Label == nil {
				see("label cleared")
			}
		case "session_info":
			if strings.TrimSpace(e.Name) == "" {
				t.Errorf("session_info %s has an empty name", e.ID)
			}
		case "compaction", "branch_summary":
			if !strings.HasPrefix(e.Summary, "## Goal\n") {
				t.Errorf("%s %s: summary does not start with ## Goal", e.Type, e.ID)
			}
			if e.Type == "compaction" {
				var d struct{ ReadFiles, ModifiedFiles []string }
				if err := json.Unmarshal(e.Details, &d); err != nil || d.ReadFiles == nil || d.ModifiedFiles == nil {
					t.Errorf("compaction %s: details %s: %v", e.ID, e.Details, err)
				}
				if e.TokensBefore <= 0 {
					t.Errorf("compaction %s: tokensBefore %d", e.ID, e.TokensBefore)
				}
			}
		}
		if e.Message == nil {
			continue
		}
		m := e.Message
		see("role:" + m.Role)
		switch m.Role {
		case "assistant":
			see("stop:" + m.StopReason)
			if m.Usage == nil || m.API == "" {
				t.Errorf("assistant %s lacks usage or api", e.ID)
			}
			bs := e.blocks(t)
			if m.StopReason == "error" && (len(bs) != 0 || m.ErrorMessage == "") {
				t.Errorf("error message %s: %d blocks, errorMessage %q", e.ID, len(bs), m.ErrorMessage)
			}
			if m.StopReason == "aborted" && m.ErrorMessage == "" {
				t.Errorf("aborted message %s has no errorMessage", e.ID)
			}
			for _, b := range bs {
				see("block:" + b.Type)
				if b.Type == "toolCall" {
					see("tool:" + b.Name)
				}
				for _, l := range regexp.MustCompile("(?m)^```([a-z]+)$").FindAllStringSubmatch(b.Text, -1) {
					see("fence:" + l[1])
				}
				for _, md := range []string{"\n## ", "\n| ", "\n- ", "](https://", "`"} {
					if strings.Contains(b.Text, md) {
						see("markdown:" + md)
					}
				}
			}
		case "user":
			for _, b := range e.blocks(t) {
				see("user block:" + b.Type)
			}
		case "toolResult":
			text := ""
			for _, b := range e.blocks(t) {
				if b.Type == "image" {
					see("result image")
				}
				text += b.Text
			}
			if strings.Contains(text, "\x1b[") {
				see("ansi")
			}
			if n := strings.Count(text, "\n"); n >= 1000 {
				see("long output")
			}
			if *m.IsError {
				see("isError")
			}
			if m.ToolName == "edit" && !*m.IsError {
				checkEdit(t, e)
			}
		case "bashExecution":
			if *m.Cancelled {
				see("bash cancelled")
			}
		}
	}
	want := []string{
		"entry:model_change", "entry:thinking_level_change", "entry:compaction", "entry:branch_summary",
		"entry:label", "entry:session_info", "entry:custom_message", "entry:custom",
		"custom_message display=true", "custom_message display=false", "label cleared",
		"role:user", "role:assistant", "role:toolResult", "role:bashExecution", "bash cancelled",
		"stop:toolUse", "stop:stop", "stop:aborted", "stop:error",
		"block:thinking", "block:text", "block:toolCall", "user block:image", "result image",
		"ansi", "long output", "isError",
	}
	for _, tool := range []string{"read", "write", "edit", "bash", "grep", "find", "ls", "web_search", "fetch_url"} {
		want = append(want, "tool:"+tool)
	}
	for _, l := range []string{"go", "python", "typescript", "rust", "bash", "json", "sql", "yaml"} {
		want = append(want, "fence:"+l)
	}
	for _, md := range []string{"\n## ", "\n| ", "\n- ", "](https://", "`"} {
		want = append(want, "markdown:"+md)
	}
	for _, k := range want {
		if seen[k] == 0 {
			t.Errorf("no %q in a %d-byte session with every option", k, allOpts.TargetBytes)
		}
	}
}

var diffLine = regexp.MustCompile(`^([ +-] *\d+ .*| +\.\.\.)$`)

// checkEdit checks an edit result's details against pi's diff format and the
// call's arguments.
func checkEdit(t *testing.T, e *entry) {
	t.Helper()
	var d struct {
		Diff             string `json:"diff"`
		FirstChangedLine int    `json:"firstChangedLine"`
	}
	if err := json.Unmarshal(e.Message.Details, &d); err != nil || d.Diff == "" || d.FirstChangedLine < 1 {
		t.Errorf("edit %s: details %s: %v", e.ID, e.Message.Details, err)
		return
	}
	var removed []string
	for _, l := range strings.Split(d.Diff, "\n") {
		if !diffLine.MatchString(l) {
			t.Errorf("edit %s: diff line %q is not in pi's format", e.ID, l)
		}
		if strings.HasPrefix(l, "-") {
			removed = append(removed, strings.SplitN(strings.TrimLeft(l[1:], " "), " ", 2)[1])
		}
	}
	if len(removed) == 0 {
		t.Errorf("edit %s: diff removes nothing", e.ID)
	}
}

func TestImagesArePNGs(t *testing.T) {
	_, es := everything(t)
	n := 0
	for i := range es {
		for _, b := range es[i].blocks(t) {
			if b.Type != "image" {
				continue
			}
			n++
			raw, err := base64.StdEncoding.DecodeString(b.Data)
			if err != nil {
				t.Fatalf("entry %s: %v", es[i].ID, err)
			}
			if len(raw) < 5<<10 || len(raw) > 81<<10 {
				t.Errorf("entry %s: PNG of %d bytes, want 5 to 80 KB", es[i].ID, len(raw))
			}
			if b.MimeType != "image/png" {
				t.Errorf("entry %s: mimeType %q", es[i].ID, b.MimeType)
			}
			if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
				t.Errorf("entry %s: %v", es[i].ID, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no images")
	}
	if none := generate(t, Options{Seed: 42, TargetBytes: 2_000_000}); bytes.Contains(none, []byte(`"type":"image"`)) {
		t.Error("images without Options.Images")
	}
}

// TestByteMix checks that the bytes are spread over kinds of content about
// as in real sessions: mostly tool output, then assistant prose, then fenced
// code, then JSON structure.
func TestByteMix(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		data := generate(t, Options{Seed: seed, TargetBytes: 8_000_000})
		var tool, text, code int
		size := func(s string) int { return len(appendEscaped(nil, s)) }
		fence := regexp.MustCompile("(?s)```[a-z]*\n.*?```")
		for _, e := range parse(t, data) {
			if e.Message == nil {
				continue
			}
			switch e.Message.Role {
			case "toolResult":
				for _, b := range e.blocks(t) {
					tool += size(b.Text)
				}
				var d struct {
					Diff       string
					Truncation struct{ Content string }
				}
				json.Unmarshal(e.Message.Details, &d)
				tool += size(d.Diff) + size(d.Truncation.Content)
			case "bashExecution":
				tool += size(e.Message.Output)
			case "assistant":
				for _, b := range e.blocks(t) {
					c := 0
					for _, f := range fence.FindAllString(b.Text, -1) {
						c += size(f)
					}
					code += c
					text += size(b.Text) - c + size(b.Thinking)
				}
			}
		}
		pct := func(n int) float64 { return 100 * float64(n) / float64(len(data)) }
		t.Logf("seed %d: tool output %.1f%%, assistant text %.1f%%, fenced code %.1f%%, rest %.1f%%",
			seed, pct(tool), pct(text), pct(code), 100-pct(tool+text+code))
		if p := pct(tool); p < 48 || p > 72 {
			t.Errorf("seed %d: tool output is %.1f%% of the bytes, want about 60%%", seed, p)
		}
		if p := pct(text); p < 12 || p > 28 {
			t.Errorf("seed %d: assistant text is %.1f%% of the bytes, want about 20%%", seed, p)
		}
		if p := pct(code); p < 5 || p > 16 {
			t.Errorf("seed %d: fenced code is %.1f%% of the bytes, want about 10%%", seed, p)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	opt := Options{Seed: 9, TargetBytes: 100_000, Labels: true}
	if err := WriteFile(p, opt); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, generate(t, opt)) {
		t.Error("WriteFile and Write differ")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the directory, want only the session", len(ents))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "s.jsonl"), opt); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
}

func TestSessionDir(t *testing.T) {
	for _, c := range []struct{ cwd, want string }{
		{"/Users/badlogic/workspaces/pi-mono", "--Users-badlogic-workspaces-pi-mono--"},
		{"/home/dev/projects/docs site", "--home-dev-projects-docs site--"},
		{`C:\Users\dev\src\tooling`, "--C--Users-dev-src-tooling--"},
	} {
		if got := SessionDir(c.cwd); got != c.want {
			t.Errorf("SessionDir(%q) = %q, want %q", c.cwd, got, c.want)
		}
	}
}

func TestSessions(t *testing.T) {
	dir := t.TempDir()
	const n = 40
	paths, err := Sessions(dir, n, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != n {
		t.Fatalf("%d paths, want %d", len(paths), n)
	}
	var files int
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return err
	})
	if files != n {
		t.Errorf("%d files under the directory, want %d", files, n)
	}
	name := regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)_([0-9a-f-]{36})\.jsonl$`)
	cwds := map[string]bool{}
	var sizes []int
	for _, p := range paths {
		rel, _ := filepath.Rel(dir, p)
		sub, base := filepath.Split(rel)
		m := name.FindStringSubmatch(base)
		if m == nil {
			t.Fatalf("%s: name not in pi's <timestamp>_<uuid>.jsonl form", rel)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(data))
		es := parse(t, data)
		checkTree(t, es)
		h := es[0]
		if h.ID != m[2] {
			t.Errorf("%s: header id %s", rel, h.ID)
		}
		if ts := strings.NewReplacer(":", "-", ".", "-").Replace(h.Timestamp); ts != m[1] {
			t.Errorf("%s: header timestamp %s", rel, h.Timestamp)
		}
		if want := SessionDir(h.Cwd) + string(filepath.Separator); sub != want {
			t.Errorf("%s: in %q, want %q", rel, sub, want)
		}
		cwds[h.Cwd] = true
	}
	if len(cwds) < 4 {
		t.Errorf("only %d cwds", len(cwds))
	}
	again, err := Sessions(t.TempDir(), 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range again {
		a, _ := os.ReadFile(paths[i])
		b, _ := os.ReadFile(again[i])
		if !bytes.Equal(a, b) || filepath.Base(paths[i]) != filepath.Base(again[i]) {
			t.Errorf("session %d differs between runs with the same seed", i)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1000", 1000, true},
		{"50MB", 50_000_000, true},
		{"50mb", 50_000_000, true},
		{"1.5GB", 1_500_000_000, true},
		{"512KB", 512_000, true},
		{"512KiB", 512 << 10, true},
		{"2MiB", 2 << 20, true},
		{"10M", 10_000_000, true},
		{"7B", 7, true},
		{"", 0, false},
		{"MB", 0, false},
		{"-1MB", 0, false},
		{"ten", 0, false},
	} {
		got, err := ParseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// BenchmarkWrite measures generation speed for a 20 MB session with every
// option on; MB/s is what a benchmark script pays to make its inputs.
func BenchmarkWrite(b *testing.B) {
	opt := Options{Seed: 1, TargetBytes: 20_000_000, Branches: true, Images: true, Compactions: true, Labels: true}
	var w countingWriter
	if err := Write(&w, opt); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(w.n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Write(io.Discard, opt); err != nil {
			b.Fatal(err)
		}
	}
}
