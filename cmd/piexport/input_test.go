package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/sessiongen"
)

// runWithin runs piexport and stops the whole test binary if it has not
// returned within d: the inputs here used to hang it or grow its memory
// without end, which a test that merely failed would leave running.
func runWithin(t *testing.T, d time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	timer := time.AfterFunc(d, func() {
		panic(fmt.Sprintf("piexport %q has not returned after %v", args, d))
	})
	defer timer.Stop()
	return runCLI(t, args...)
}

// Devices and named pipes are refused at once, in one sentence, by the
// export, the tree and the archive.
func TestNonRegularInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "live.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.jsonl")
	copyCorpus(t, tiny, good)
	out := filepath.Join(dir, "out.html")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", out, "/dev/zero"}, "/dev/zero is a character device, not a session file: piexport reads only regular files"},
		{[]string{"-o", out, "/dev/urandom"}, "/dev/urandom is a character device, not a session file"},
		{[]string{"--format", "tree", "/dev/zero"}, "/dev/zero is a character device"},
		{[]string{"-o", out, fifo}, fifo + " is a named pipe (FIFO), not a session file"},
		{[]string{"--format", "tree", fifo}, "named pipe"},
		{[]string{"--format", "tree-json", fifo}, "named pipe"},
		{[]string{"-o", filepath.Join(dir, "site"), good, fifo}, fifo + " is a named pipe (FIFO), not a session file"},
		{[]string{"-o", filepath.Join(dir, "site"), good, "/dev/zero"}, "/dev/zero is a character device"},
	} {
		_, errOut, code := runWithin(t, 10*time.Second, tc.args...)
		if code != 1 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused input left an output")
	}

	// In a directory, a named pipe is passed over and the rest written.
	stdout, errOut, code := runWithin(t, 10*time.Second, "-o", filepath.Join(dir, "site"), dir)
	if code != 0 || !strings.Contains(stdout, "index.html") || !strings.Contains(errOut, "1 session: 1 written") {
		t.Errorf("a directory holding a named pipe: exit %d, %q %q", code, stdout, errOut)
	}
}

// Ctrl-C (a cancelled context) stops an export, a tree and an archive
// run: one line, exit status 130, nothing written.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "s.jsonl")
	copyCorpus(t, tiny, in)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"-o", filepath.Join(dir, "out.html"), in},
		{"--format", "tree", in},
		{"-o", filepath.Join(dir, "site"), in, in},
	} {
		var out, errOut bytes.Buffer
		code := exitCode(run(ctx, args, &out, &errOut), &errOut)
		// Progress may have named the file being read when it stopped.
		if code != 130 || !strings.HasSuffix(errOut.String(), "\npiexport: interrupted\n") && errOut.String() != "piexport: interrupted\n" || out.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out.String(), errOut.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.html")); err == nil {
		t.Error("an interrupted export wrote its page")
	}
	if _, err := os.Stat(filepath.Join(dir, "site", "index.html")); err == nil {
		t.Error("an interrupted archive wrote its index")
	}
}

// A JSON line nested deeper than 10,000 levels is reported as nested too
// deep and its text stays visible, on the page and in the Markdown.
func TestNestedTooDeepVisible(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "deep.jsonl")
	deep := strings.Repeat("[", 10001) + `"deep-marker"` + strings.Repeat("]", 10001)
	writeSession(t, in,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hello"}}`,
		`{"type":"message","id":"d1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"toolResult","toolCallId":"t","content":"x","details":`+deep+`}}`,
	)
	for _, format := range []string{"html", "md"} {
		out := filepath.Join(dir, "out."+format)
		_, errOut, code := runCLI(t, "--format", format, "-o", out, in)
		if code != 0 || !strings.Contains(errOut, "deep.jsonl:3: the JSON is nested too deep (more than 10000 levels) to read; its text is kept as raw JSON") {
			t.Fatalf("%s: exit %d, stderr %q", format, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), strings.Repeat("[", 100)+"&#34;deep-marker") && !strings.Contains(string(b), strings.Repeat("[", 100)+`"deep-marker`) {
			t.Errorf("%s: the line's raw text is not shown", format)
		}
	}
}

// A usage with huge numbers was shown as "$-92233720368547758.-8" and
// "-223372036854775.-7k in": on the page, in the Markdown and in the
// archive's index, every figure now saturates.
func TestHugeFigures(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "huge.jsonl")
	usage := `{"input":1e30,"output":9223372036854775807,"cacheRead":9.3e18,"cacheWrite":0,"cost":{"total":1e308}}`
	writeSession(t, in,
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"ok"}],"usage":`+usage+`}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"assistant","provider":"p","model":"m","content":[{"type":"text","text":"again"}],"usage":`+usage+`}}`,
	)
	outputs := map[string][]string{
		"page":     {"-o", filepath.Join(dir, "p.html"), in},
		"markdown": {"--format", "md", "-o", filepath.Join(dir, "p.md"), in},
		"index":    {"-o", filepath.Join(dir, "site"), in, in},
		"md index": {"--format", "md", "-o", filepath.Join(dir, "mdsite"), in, in},
	}
	files := map[string]string{"page": "p.html", "markdown": "p.md", "index": "site/index.html", "md index": "mdsite/index.md"}
	for name, args := range outputs {
		if _, errOut, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		b, err := os.ReadFile(filepath.Join(dir, files[name]))
		if err != nil {
			t.Fatal(err)
		}
		out := string(b)
		for _, bad := range []string{"$-", ".-", "-9223372036854775808", "-223372036854775"} {
			if strings.Contains(out, bad) {
				i := strings.Index(out, bad)
				t.Errorf("%s holds %q: %q", name, bad, out[max(0, i-60):min(len(out), i+20)])
			}
		}
		if !strings.Contains(out, "$1.80e") || !strings.Contains(out, "9223372037B") && !strings.HasSuffix(name, "index") {
			t.Errorf("%s does not show the saturated figures ($1.80e+308, 9223372037B)", name)
		}
	}
}

// Ctrl-C in the middle of an export stops it: exit status 130, no page
// and no temporary file, however far rendering had gone. The export is
// timed whole first, then stopped a third of the way in (while it
// renders: reading takes a small part of it), and once its temporary
// file appears (while it writes).
func TestInterruptedWhileRendering(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	if err := sessiongen.WriteFile(in, sessiongen.Options{Seed: 7, TargetBytes: 6 << 20}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "big.html")
	// export runs one export, stopped by stop; late says the export had
	// ended before stop came to cancel it.
	export := func(stop func(cancel func())) (code int, errOut string, late bool) {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var cancelled atomic.Bool
		go stop(func() { cancelled.Store(true); cancel() })
		var stdout, stderr bytes.Buffer
		code = exitCode(run(ctx, []string{"-o", out, in}, &stdout, &stderr), &stderr)
		return code, stderr.String(), !cancelled.Load()
	}
	left := func() []string {
		var names []string
		for _, e := range mustReadDir(t, dir) {
			if e.Name() != "big.jsonl" {
				names = append(names, e.Name())
			}
		}
		return names
	}
	start := time.Now()
	if code, errOut, _ := export(func(func()) {}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	whole := time.Since(start)
	os.Remove(out)

	// On a busy machine the timed export can take longer than the next:
	// a stop that finds it ended is tried again sooner.
	for delay := whole / 3; ; delay /= 2 {
		code, errOut, late := export(func(cancel func()) { time.Sleep(delay); cancel() })
		if late && delay > 10*time.Millisecond {
			os.Remove(out)
			continue
		}
		if code != 130 || errOut != "piexport: interrupted\n" || len(left()) != 0 {
			t.Errorf("stopped %v into an export that took %v before: exit %d, %q, left %q", delay, whole, code, errOut, left())
		}
		break
	}
	os.Remove(out)

	code, errOut, _ := export(func(cancel func()) {
		for deadline := time.Now().Add(2 * whole); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if tmp, _ := filepath.Glob(filepath.Join(dir, "*.piexport-tmp")); len(tmp) > 0 {
				break
			}
		}
		cancel()
	})
	switch names := left(); {
	case code == 130 && len(names) == 0:
	case code == 0 && len(names) == 1 && names[0] == "big.html":
		t.Logf("the page was written before the stop reached it (%v in all)", whole)
	default:
		t.Errorf("stopped while writing: exit %d, %q, left %q", code, errOut, names)
	}
}

// Ctrl-C during an archive run stops it after the pages in progress:
// exit status 130, the pages written so far whole, no index (the
// previous one would stay), no temporary file.
func TestInterruptedArchive(t *testing.T) {
	src := t.TempDir()
	for i := range 6 {
		if err := sessiongen.WriteFile(filepath.Join(src, fmt.Sprintf("s%d.jsonl", i)), sessiongen.Options{Seed: int64(i), TargetBytes: 2 << 20}); err != nil {
			t.Fatal(err)
		}
	}
	site := filepath.Join(t.TempDir(), "site")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if pages, _ := filepath.Glob(filepath.Join(site, "*.html")); len(pages) > 0 {
				break
			}
		}
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	code := exitCode(run(ctx, []string{"--no-cache", "-q", "-o", site, src}, &stdout, &stderr), &stderr)
	pages, _ := filepath.Glob(filepath.Join(site, "*.html"))
	temps, _ := filepath.Glob(filepath.Join(site, "*.piexport-tmp"))
	if code != 130 || len(pages) == 0 || len(pages) == 6 || len(temps) > 0 {
		t.Errorf("exit %d, %d pages of 6, temporary files %q; stderr %q", code, len(pages), temps, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(site, "index.html")); err == nil {
		t.Error("an interrupted archive wrote its index")
	}
}
