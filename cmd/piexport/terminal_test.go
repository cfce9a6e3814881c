package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The escape sequences a hostile session would send a terminal: OSC 0 sets
// the window title, OSC 52 writes the clipboard, CSI 2J clears the
// screen, SGR 8 hides text; C1 CSI and a right-to-left override.
const (
	osc0   = "\x1b]0;pwned\x07"
	osc52  = "\x1b]52;c;cm0gLXJmIH4K\x07"
	csi2J  = "\x1b[2J"
	sgr8   = "\x1b[8m"
	c1CSI  = "\u009b2J"
	rlo    = "\u202e"
	hostil = osc0 + osc52 + csi2J + sgr8 + c1CSI + rlo
)

// assertClean fails if out holds a byte or character a terminal would act
// on, other than the newlines that end lines.
func assertClean(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\r"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s holds a raw %q: %q", what, bad, out)
		}
	}
}

func writeSession(t *testing.T, path string, lines ...string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hostileSession holds the sequences in a message, a label, the session's
// name, a custom type, a model name and a tool call.
func hostileSession(t *testing.T, path string) {
	t.Helper()
	q := jsonString
	writeSession(t, path,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"model_change","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","provider":"x","modelId":`+q("gpt"+osc0)+`}`,
		`{"type":"message","id":"u1","parentId":"m1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":`+q("hi "+hostil+"\nline two")+`}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":`+q("bash"+csi2J)+`,"arguments":{"command":`+q("ls "+sgr8)+`}}]}}`,
		`{"type":"custom_message","id":"c1","parentId":"a1","timestamp":"2026-01-01T00:00:04Z","customType":`+q("ext"+osc52)+`,"content":"x","display":true}`,
		`{"type":"label","id":"l1","parentId":"c1","timestamp":"2026-01-01T00:00:05Z","targetId":"u1","label":`+q("lbl"+osc0)+`}`,
		`{"type":"session_info","id":"i1","parentId":"l1","timestamp":"2026-01-01T00:00:06Z","name":`+q("name"+csi2J+c1CSI+rlo)+`}`,
	)
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r < 0x20:
			b.WriteString(`\u00` + "0123456789abcdef"[r>>4:r>>4+1] + "0123456789abcdef"[r&15:r&15+1])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestTreeEscapesTerminalSequences(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hostile.jsonl")
	hostileSession(t, file)
	out, errOut, code := runCLI(t, "--format", "tree", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	assertClean(t, "the tree", out)
	for _, want := range []string{
		// Previews fold controls to spaces; what is left (the override)
		// is escaped, and labels, names and types are escaped whole.
		`user: hi ]0;pwned ]52;c;cm0gLXJmIH4K [2J [8m 2J\u202e line two`,
		`[lbl\x1b]0;pwned\x07] user:`,
		`[title: name [2J 2J\u202e]`,
		`[model: gpt\x1b]0;pwned\x07]`,
		`[ext\x1b]52;c;cm0gLXJmIH4K\x07]: x`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the tree lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 6 {
		t.Errorf("the tree has %d lines, want one per entry (6):\n%s", n, out)
	}

	out, _, code = runCLI(t, "--format", "tree-json", file)
	if code != 0 {
		t.Fatalf("tree-json: exit %d", code)
	}
	assertClean(t, "tree-json", out)
	if !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u009b`) {
		t.Errorf("tree-json lost the escaped characters:\n%s", out)
	}
}

// A file name is untrusted too: with ESC or a newline in it, it must not
// reach standard error raw, in a warning, an error or archive progress.
func TestFileNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "evil"+osc0+"\nwarning: forged"+csi2J+".jsonl")
	writeSession(t, name,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`not json`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":"hi"}}`,
	)
	broken := filepath.Join(dir, "broken"+sgr8+".jsonl")
	writeSession(t, broken, "not json")

	_, errOut, code := runCLI(t, "-o", filepath.Join(dir, "out.html"), name)
	if code != 0 || !strings.Contains(errOut, `evil\x1b]0;pwned\x07\nwarning: forged\x1b[2J.jsonl:2: the line is not valid JSON`) {
		t.Errorf("warning: exit %d, stderr %q", code, errOut)
	}
	assertClean(t, "the warning", errOut)
	if strings.Count(errOut, "\n") != 1 {
		t.Errorf("one warning took %d lines: %q", strings.Count(errOut, "\n"), errOut)
	}

	_, errOut, code = runCLI(t, "-o", filepath.Join(dir, "b.html"), broken)
	if code != 1 || !strings.Contains(errOut, `broken\x1b[8m.jsonl: not a pi session file`) {
		t.Errorf("error: exit %d, stderr %q", code, errOut)
	}
	assertClean(t, "the error", errOut)

	out, errOut, code := runCLI(t, "-o", filepath.Join(dir, "site"), name, broken)
	if code != 1 {
		t.Errorf("archive: exit %d, want 1 (one session failed)", code)
	}
	assertClean(t, "archive messages", errOut)
	assertClean(t, "archive output", out)
	if !strings.Contains(errOut, `evil\x1b]0;pwned\x07\nwarning: forged\x1b[2J.jsonl`) {
		t.Errorf("the archive's messages do not name the files escaped: %q", errOut)
	}
	// On a terminal, the progress line names the file escaped too: the
	// only escape the terminal gets is the line's own clearing.
	_, screen, code := runOnTerminal(t, "-o", filepath.Join(dir, "t.html"), name)
	if code != 0 || !strings.Contains(screen, `reading `+dir+`/evil\x1b]0;pwned\x07\nwarning: forged`) {
		t.Errorf("the progress line: exit %d, %q", code, screen)
	}
	assertClean(t, "the progress line", strings.NewReplacer("\x1b[K", "", "\r", "").Replace(screen))
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		if strings.HasPrefix(line, "warning: forged") {
			t.Errorf("a file name forged a line: %q", errOut)
		}
	}
}

// The usage report's table and JSON name models and projects from the
// sessions, the redaction report names the file, entries and previews,
// and an empty session's notice names the file: each reached the
// terminal raw.
func TestReportsEscaped(t *testing.T) {
	dir := t.TempDir()
	q := jsonString
	name := filepath.Join(dir, "r"+csi2J+".jsonl")
	writeSession(t, name,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":`+q("/p"+osc0+rlo)+`}`,
		`{"type":"message","id":`+q("u"+osc52)+`,"parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":`+q("key "+sgr8+" AKIAIOSFODNN7EXAMPLE"+c1CSI)+`}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","provider":`+q("p"+csi2J)+`,"model":`+q("m"+osc0+c1CSI)+`,"content":[{"type":"text","text":"ok"}],"usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.01}}}}`,
	)
	cache := t.TempDir()
	for _, by := range []string{"model", "project"} {
		for _, args := range [][]string{{"--usage", "--by", by}, {"--usage", "--json", "--by", by}} {
			out, errOut, code := runCLI(t, append(args, "--cache-dir", cache, name)...)
			if code != 0 {
				t.Fatalf("%q: exit %d: %s", args, code, errOut)
			}
			assertClean(t, strings.Join(args, " "), out+errOut)
			if want := map[string]string{"model": `m\x1b]0;pwned\x07`, "project": `/p\x1b]0;pwned\x07`}[by]; !strings.Contains(out, want) && !strings.Contains(out, `\u001b]0;pwned\u0007`) {
				t.Errorf("%q: the name is not shown escaped:\n%s", args, out)
			}
		}
	}

	out, errOut, code := runCLI(t, "--redact-report", "--redact-literal", "AKIAIOSFODNN7EXAMPLE", name)
	if code != 0 {
		t.Fatalf("--redact-report: exit %d: %s", code, errOut)
	}
	assertClean(t, "the redaction report", out+errOut)
	if !strings.Contains(out, `r\x1b[2J.jsonl:2`+"\t"+`entry u\x1b]52;c;cm0gLXJmIH4K\x07`) {
		t.Errorf("the redaction report does not name the place escaped:\n%s", out)
	}

	empty := filepath.Join(dir, "e"+osc0+".jsonl")
	writeSession(t, empty, `{"type":"session","version":3,"id":"s2","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`)
	_, errOut, code = runCLI(t, "-o", filepath.Join(dir, "e.html"), empty)
	if code != 0 || !strings.Contains(errOut, `e\x1b]0;pwned\x07.jsonl: the session has no entries`) {
		t.Errorf("an empty session: exit %d, stderr %q", code, errOut)
	}
	assertClean(t, "the empty session's notice", errOut)
}
