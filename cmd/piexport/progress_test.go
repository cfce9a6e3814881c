package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rivo/uniseg"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/progressline"
	"github.com/piexport/piexport/internal/sessiongen"
)

// width is the fake terminal's, in columns.
const width = 100

// runOnTerminal runs piexport with standard error on a terminal width
// columns wide, and returns what its standard output got, what the
// terminal got, and the exit status.
func runOnTerminal(t *testing.T, args ...string) (stdout, screen string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, &out, terminal{&errOut, width})
	code = exitCode(err, &errOut)
	return out.String(), errOut.String(), code
}

// drawn lists the progress lines a terminal was sent: each is written
// after a carriage return and ends by clearing the rest of the line.
func drawn(screen string) []string {
	var out []string
	for _, m := range regexp.MustCompile("\r([^\r\n\x1b]+)\x1b\\[K").FindAllStringSubmatch(screen, -1) {
		out = append(out, m[1])
	}
	return out
}

// checkScreen checks what any run shows on a terminal: lines that fit it,
// cleared at the end, and every other line (a warning, a summary)
// written on a line of its own, never after a progress line's text.
func checkScreen(t *testing.T, screen string) {
	t.Helper()
	for _, l := range drawn(screen) {
		if w := uniseg.StringWidth(l); w >= width {
			t.Errorf("a line %d columns wide on a terminal of %d: %q", w, width, l)
		}
	}
	rest := regexp.MustCompile("\r[^\r\n\x1b]*\x1b\\[K").ReplaceAllString(screen, "\x00")
	// What is left between the lines drawn and cleared are whole lines.
	for _, part := range strings.Split(rest, "\x00") {
		if part != "" && !strings.HasSuffix(part, "\n") {
			t.Errorf("%q is written where a progress line is drawn", part)
		}
	}
	if last := strings.LastIndex(screen, "\r"); last >= 0 && !strings.HasPrefix(screen[last:], "\r\x1b[K") {
		t.Errorf("the last progress line is not cleared: %q", screen[last:])
	}
}

// A single export draws how far it is on a terminal: reading the file
// (bytes and entries), making the page, then writing it (entries, bytes),
// and clears the line before it names the page. A warning clears the
// line first. With -q, or when standard error is no terminal, nothing is
// drawn.
func TestProgressOfAnExport(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	if err := sessiongen.WriteFile(in, sessiongen.Options{Seed: 3, TargetBytes: 3 << 20}); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(in, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "not json")
	f.Close()
	fi, _ := os.Stat(in)
	size := progressline.Bytes(fi.Size())
	for _, format := range []string{"html", "md"} {
		t.Run(format, func(t *testing.T) {
			out := filepath.Join(dir, "big."+format)
			stdout, screen, code := runOnTerminal(t, "--format", format, "-o", out, in)
			if code != 0 || stdout != out+"\n" {
				t.Fatalf("exit %d, stdout %q: %s", code, stdout, screen)
			}
			checkScreen(t, screen)
			lines := drawn(screen)
			var read, making, writing []string
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "reading "+in+": "):
					read = append(read, l)
				case strings.HasPrefix(l, "making the page of "+in+": "):
					making = append(making, l)
				case strings.HasPrefix(l, "writing "+out+": "):
					writing = append(writing, l)
				default:
					t.Errorf("a line of what? %q", l)
				}
			}
			if len(read) == 0 || !strings.Contains(read[len(read)-1], " of "+size+", ") || !strings.Contains(read[len(read)-1], " entries") {
				t.Errorf("reading the %s file draws %q", size, read)
			}
			if (format == "html") != (len(making) == 1) {
				t.Errorf("making the page draws %q", making)
			}
			first := regexp.MustCompile(`^writing .*: 0 of ([\d,]+) entries$`).FindStringSubmatch(writing[0])
			if first == nil {
				t.Fatalf("writing starts with %q", writing[0])
			}
			if n, _ := strconv.Atoi(strings.ReplaceAll(first[1], ",", "")); n < 100 {
				t.Errorf("writing counts %d entries", n)
			}
			if !strings.Contains(screen, "\r\x1b[Kwarning: "+in+":") {
				t.Errorf("the warning about the bad line is not written on a line cleared for it:\n%q", screen)
			}
		})
	}
	t.Run("quiet", func(t *testing.T) {
		if _, screen, code := runOnTerminal(t, "-q", "-o", filepath.Join(dir, "q.html"), in); code != 0 || screen != "" {
			t.Errorf("-q: exit %d, the terminal got %q", code, screen)
		}
	})
	t.Run("no terminal", func(t *testing.T) {
		_, errOut, code := runCLI(t, "-o", filepath.Join(dir, "p.html"), in)
		if code != 0 || strings.ContainsAny(errOut, "\r\x1b") || !strings.HasPrefix(errOut, "warning: ") {
			t.Errorf("exit %d, standard error %q", code, errOut)
		}
	})
}

// An archive counts its session files as one, sessions and sub-agents'
// transcripts alike, from the first to the last, and their bytes.
func TestProgressOfAnArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	copyOMPFamily(t, dir)
	if err := sessiongen.WriteFile(filepath.Join(dir, "big.jsonl"), sessiongen.Options{Seed: 4, TargetBytes: 2 << 20}); err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site")
	stdout, screen, code := runOnTerminal(t, "--no-cache", "-o", site, dir)
	if code != 0 || stdout != filepath.Join(site, "index.html")+"\n" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, screen)
	}
	checkScreen(t, screen)
	count := regexp.MustCompile(`^` + regexp.QuoteMeta(site) + `: (\d+) of 6 session files, [\d.,]+ (bytes|KB|MB) of [\d.,]+ MB`)
	done, lines := -1, 0
	for _, l := range drawn(screen) {
		if strings.Contains(l, "making again the pages") {
			continue
		}
		m := count.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("a line of the archive says %q, not how many of its 6 session files are read", l)
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if n < done || lines == 0 && n != 0 {
			t.Errorf("the count goes from %d to %d: %q", done, n, l)
		}
		done = n
		lines++
	}
	if lines == 0 {
		t.Error("the archive draws no progress")
	}
}

// The catalog's reading (for the server and --usage) is told in bytes as
// they are read, a large file before it is stored, then said in a line
// that stays.
func TestProgressOfReading(t *testing.T) {
	var screen bytes.Buffer
	line := progressline.New(&screen, width)
	tell := readProgress(&ui{err: line, line: line})
	started := time.Now().Add(-2 * time.Second)
	tell(catalog.Progress{Files: 2, Bytes: 50e6, BytesRead: 20e6, Running: true, Started: started})
	fmt.Fprintln(line, "warning: a.jsonl: a bad line")
	tell(catalog.Progress{Files: 2, Done: 2, Bytes: 50e6, BytesDone: 50e6, BytesRead: 50e6, Started: started})
	got := screen.String()
	checkScreen(t, got)
	if lines := drawn(got); len(lines) != 1 || !regexp.MustCompile(`^reading sessions: 20 MB of 50 MB, 0 of 2 files stored, 10 MB/s, about \d+s left$`).MatchString(lines[0]) {
		t.Errorf("reading draws %q", lines)
	}
	if !strings.Contains(got, "\r\x1b[Kwarning: a.jsonl: a bad line\n") || !regexp.MustCompile(`\nread 2 session files \(50 MB\) in 2\.\d s, 2\d MB/s\n$`).MatchString(got) {
		t.Errorf("the terminal got %q", got)
	}
}
