package progressline

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// clock is a Line's time in a test: it moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newLine(w *bytes.Buffer, width int, c *clock) *Line {
	l := New(w, width)
	l.now = c.now
	return l
}

// The line is drawn over itself with a carriage return, at most every
// Every for one stage, at once for a new stage and after a warning,
// which clears it first; Clear leaves nothing of it.
func TestLine(t *testing.T) {
	var out bytes.Buffer
	c := &clock{time.Unix(1000, 0)}
	l := newLine(&out, 80, c)
	l.Show("read", "reading 1 of 50 MB")
	l.Show("read", "reading 2 of 50 MB") // too soon: not drawn
	c.advance(Every)
	l.Show("read", "reading 3 of 50 MB")
	l.Show("write", "writing 0 of 9 entries") // a new stage: drawn at once
	fmt.Fprintln(l, "warning: s.jsonl:3: a bad line")
	l.Show("write", "writing 1 of 9 entries") // after a warning: drawn at once
	l.Clear()
	l.Clear() // nothing to clear
	want := "\rreading 1 of 50 MB\x1b[K" +
		"\rreading 3 of 50 MB\x1b[K" +
		"\rwriting 0 of 9 entries\x1b[K" +
		"\r\x1b[Kwarning: s.jsonl:3: a bad line\n" +
		"\rwriting 1 of 9 entries\x1b[K" +
		"\r\x1b[K"
	if got := out.String(); got != want {
		t.Errorf("the terminal got\n%q\nwant\n%q", got, want)
	}
	// A line written with no progress drawn is written as it is.
	out.Reset()
	fmt.Fprintln(l, "warning: alone")
	if got := out.String(); got != "warning: alone\n" {
		t.Errorf("a warning with no line drawn: %q", got)
	}
}

// A line never wraps, whatever its text: it is cut to the terminal's
// width (wide characters counted as two columns), and what a terminal
// would obey in a file name is escaped.
func TestLineFits(t *testing.T) {
	var out bytes.Buffer
	c := &clock{time.Unix(1000, 0)}
	l := newLine(&out, 20, c)
	l.Show("a", "reading "+strings.Repeat("長", 30)+".jsonl")
	l.Show("b", "x\x1b]0;pwned\x07")
	got := strings.Split(out.String(), "\x1b[K")
	if got[0] != "\rreading 長長長長長…" {
		t.Errorf("a long line is drawn as %q", got[0])
	}
	if got[1] != "\r"+`x\x1b]0;pwned\x07` {
		t.Errorf("a file name's escape is drawn as %q", got[1])
	}
	if strings.Count(out.String(), "\x1b") != 2 {
		t.Errorf("the terminal got a raw escape: %q", out.String())
	}
}

// The nil Line draws nothing.
func TestNilLine(t *testing.T) {
	var l *Line
	l.Show("a", "b")
	l.Clear()
}

func TestLeft(t *testing.T) {
	for _, tc := range []struct {
		done, total float64
		elapsed     time.Duration
		want        string
	}{
		{10, 50, 500 * time.Millisecond, ""}, // too soon to tell
		{0, 50, 3 * time.Second, ""},
		{50, 50, 3 * time.Second, ""},
		{10, 50, 2 * time.Second, "about 8s left"},
		{49.9, 50, 10 * time.Second, "about 1s left"},
		{1, 50, 10 * time.Second, "about 8m 10s left"},
	} {
		if got := Left(tc.done, tc.total, tc.elapsed); got != tc.want {
			t.Errorf("Left(%v, %v, %v) = %q, want %q", tc.done, tc.total, tc.elapsed, got, tc.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 999: "999 bytes", 3693: "4 KB", 999_499: "999 KB", 999_500: "1.0 MB",
		2_460_000: "2.5 MB", 9_949_999: "9.9 MB", 9_950_000: "10 MB", 50_000_325: "50 MB", 1_204_000_000: "1,204 MB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
