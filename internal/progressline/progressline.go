// Package progressline draws how far long work is on one line of a
// terminal: the line is written over with a carriage return as the work
// goes on, a few times a second at most, and cleared when the work ends.
// Whatever else is written to the terminal meanwhile (a warning, a log
// line) goes through the Line, which clears itself first, so that the
// two never share a line.
//
// Whether standard error is a terminal is the caller's to say: a Line is
// made only for one.
package progressline

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rivo/uniseg"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/termsafe"
)

// Every is how often a Line is drawn again at most while its stage stays
// the same.
const Every = 250 * time.Millisecond

// Line is one line of progress on a terminal. The nil Line draws nothing
// and passes nothing on: a caller with no terminal keeps a nil one. Its
// methods are safe to call from several goroutines.
type Line struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	now   func() time.Time
	// stage is what the line last told of, and drawn when it was drawn;
	// shown says a line is on the terminal.
	stage string
	drawn time.Time
	shown bool
}

// New returns a Line on the terminal w, width columns wide (0 when that
// is not known: 80 is taken).
func New(w io.Writer, width int) *Line {
	if width <= 0 {
		width = 80
	}
	return &Line{w: w, width: width, now: time.Now}
}

// Show draws text as the line, in place of the one drawn before. Text
// about another stage of the work than the last is drawn at once; about
// the same stage, only once Every has passed since it was last drawn, so
// that a caller can tell it of every step. The text is made safe for the
// terminal (it can hold file names) and cut to the terminal's width, so
// that the line never wraps and the carriage return finds its start.
func (l *Line) Show(stage, text string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.shown && stage == l.stage && now.Sub(l.drawn) < Every {
		return
	}
	l.stage, l.drawn, l.shown = stage, now, true
	io.WriteString(l.w, "\r"+fit(termsafe.Escape(text), l.width-1)+"\x1b[K")
}

// Clear removes the line from the terminal; the next Show draws it again
// at once.
func (l *Line) Clear() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clear()
}

func (l *Line) clear() {
	if l.shown {
		io.WriteString(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// Write writes p, whole lines, to the terminal below the work's progress:
// the line is cleared first and drawn again by the next Show. Warnings
// and logs reach the terminal through it.
func (l *Line) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clear()
	return l.w.Write(p)
}

// fit cuts s to at most width columns, ending it with "…" when cut.
func fit(s string, width int) string {
	if uniseg.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	state := -1
	for rest := s; rest != ""; {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if used+w > width-1 {
			break
		}
		b.WriteString(cluster)
		used += w
	}
	return b.String() + "…"
}

// Rate says how fast work went: done units in elapsed, per second.
func Rate(done float64, elapsed time.Duration) float64 {
	return done / max(elapsed.Seconds(), 1e-3)
}

// Left says how long the rest of the work should take when done of total
// took elapsed, at the same pace: "about 12s left", "about 2m 5s left".
// It says nothing ("") in the work's first second, whose pace says
// little, nor before anything is done, nor once all is.
func Left(done, total float64, elapsed time.Duration) string {
	if elapsed < time.Second || done <= 0 || done >= total {
		return ""
	}
	rest := time.Duration(float64(elapsed) * (total - done) / done)
	// Up to the next second: "about 0s left" is said by no one.
	rest = max(time.Second, (rest + time.Second - 1).Truncate(time.Second))
	return "about " + humanize.Duration(rest) + " left"
}

// Bytes writes n bytes as the progress lines count them, in decimal
// units: "950 bytes", "12 KB", "2.5 MB", "1,204 MB" (megabytes to a tenth
// under ten, then whole, their thousands separated).
func Bytes(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 999_500:
		return strconv.FormatInt((n+500)/1000, 10) + " KB"
	case n < 9_950_000:
		tenths := (n + 50_000) / 100_000
		return strconv.FormatInt(tenths/10, 10) + "." + strconv.FormatInt(tenths%10, 10) + " MB"
	}
	return Count((n+500_000)/1_000_000) + " MB"
}

// Count writes n with its thousands separated: 11,801.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && c != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
