package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/term"

	"github.com/piexport/piexport/archive"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/progressline"
)

// Long work shows how far it is on one line of standard error, when that
// is a terminal and -q does not ask for quiet: a single export (reading
// the file, then writing the page, in bytes and entries), an archive (its
// session files, sessions and sub-agents' transcripts alike, and their
// bytes) and the catalog's reading of the sessions for the server and
// --usage (in bytes, a large file as it is read). Each line says how
// fast the work goes and, once that can be told, how long the rest should
// take. Written to anything but a terminal, nothing is drawn: a log gets
// the summary lines alone.

// terminal is standard error when it is a terminal, with its width in
// columns: main finds whether it is one, and hands run a terminal only
// then; a test hands run one to see what a terminal would.
type terminal struct {
	io.Writer
	width int
}

// standardError is os.Stderr as run takes it: a terminal when it is one.
func standardError() io.Writer {
	fd := int(os.Stderr.Fd())
	if !term.IsTerminal(fd) {
		return os.Stderr
	}
	width, _, err := term.GetSize(fd)
	if err != nil {
		width = 0
	}
	return terminal{os.Stderr, width}
}

// progressOn returns the line a run draws its progress on, and the
// standard error it writes everything else through, which clears that
// line first: for a terminal not quieted by -q. Otherwise the line is nil
// (it draws nothing) and stderr is as given.
func progressOn(stderr io.Writer) (*progressline.Line, io.Writer) {
	t, ok := stderr.(terminal)
	if !ok {
		return nil, stderr
	}
	line := progressline.New(t.Writer, t.width)
	return line, line
}

// figure is n with its noun, its thousands separated: "11,801 entries".
func figure(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return progressline.Count(int64(n)) + " " + many
}

// perSecond writes the rate of done units in elapsed: "1,290 entries/s",
// "48 MB/s"; nothing in the work's first second, whose rate says little.
func perSecond(done float64, elapsed time.Duration, unit string) string {
	if elapsed < time.Second {
		return ""
	}
	return progressline.Count(int64(progressline.Rate(done, elapsed)+0.5)) + " " + unit + "/s"
}

// joinFigures joins the figures of a progress line with commas, leaving
// out the empty ones.
func joinFigures(figures ...string) string {
	var kept []string
	for _, f := range figures {
		if f != "" {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, ", ")
}

// exportProgress draws a single export's progress: reading the session
// file (bytes and entries), making the page, writing it (entries and
// bytes).
type exportProgress struct {
	line    *progressline.Line
	in, out string // the file read and the file written, as named
	started time.Time
	written atomic.Int64 // bytes of the output written
}

func newExportProgress(line *progressline.Line, in, out string) *exportProgress {
	return &exportProgress{line: line, in: in, out: out}
}

// reading tells how far the session file is read (session.LoadOptions.
// Progress).
func (p *exportProgress) reading(read, size int64, lines int) {
	if p == nil || p.line == nil {
		return
	}
	if p.started.IsZero() {
		p.started = time.Now()
	}
	elapsed := time.Since(p.started)
	p.line.Show("read", "reading "+p.in+": "+joinFigures(
		progressline.Bytes(read)+" of "+progressline.Bytes(size),
		figure(lines, "entry", "entries"),
		perSecond(float64(read)/1e6, elapsed, "MB"),
		progressline.Left(float64(read), float64(size), elapsed)))
}

// stage tells of a step that counts nothing: masking, making the page.
func (p *exportProgress) stage(text string) {
	if p == nil || p.line == nil {
		return
	}
	p.line.Show(text, text)
}

// writing tells how many of the entries the output carries are written
// (page.Page.Tell, gfm.Options.Progress).
func (p *exportProgress) writing(done, total int) {
	if p == nil || p.line == nil {
		return
	}
	if done == 0 {
		p.started = time.Now()
		p.written.Store(0)
	}
	elapsed := time.Since(p.started)
	p.line.Show("write", "writing "+p.out+": "+joinFigures(
		progressline.Count(int64(done))+" of "+figure(total, "entry", "entries"),
		p.writtenSoFar(),
		perSecond(float64(done), elapsed, "entries"),
		progressline.Left(float64(done), float64(total), elapsed)))
}

// writtenSoFar says how much of the output is written, "" before
// anything is.
func (p *exportProgress) writtenSoFar() string {
	if n := p.written.Load(); n > 0 {
		return progressline.Bytes(n)
	}
	return ""
}

// counting counts the bytes written to w as the output's.
func (p *exportProgress) counting(w io.Writer) io.Writer {
	if p == nil || p.line == nil {
		return w
	}
	return countingWriter{w, &p.written}
}

type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n.Add(int64(n))
	return n, err
}

// archiveProgress draws an archive's progress (archive.Options.Progress).
func archiveProgress(line *progressline.Line, dir string) func(archive.Progress) {
	if line == nil {
		return nil
	}
	return func(p archive.Progress) {
		elapsed := time.Since(p.Started)
		text := dir + ": " + joinFigures(
			progressline.Count(int64(p.Done))+" of "+figure(p.Files, "session file", "session files"),
			progressline.Bytes(p.BytesDone)+" of "+progressline.Bytes(p.Bytes),
			perSecond(float64(p.BytesDone)/1e6, elapsed, "MB"),
			progressline.Left(float64(p.BytesDone), float64(p.Bytes), elapsed))
		stage := "build"
		if p.Relinks > 0 {
			stage = "relink"
			text = dir + ": " + figure(p.Files, "session file", "session files") + " read; making again the pages that link new titles: " +
				progressline.Count(int64(p.Relinked)) + " of " + progressline.Count(int64(p.Relinks))
		}
		line.Show(stage, text)
	}
}

// readProgress draws how far the catalog is in reading the sessions, in
// bytes as they are read; done says when it is over, in a line that
// stays, written to w however quiet the line is (for a log too), unless
// -q asked for quiet.
func readProgress(u *ui) func(catalog.Progress) {
	if u.quiet {
		return nil
	}
	line, w := u.line, u.err
	return func(p catalog.Progress) {
		if p.Files == 0 {
			return
		}
		elapsed := time.Since(p.Started)
		read := min(p.BytesRead, p.Bytes)
		if !p.Running {
			line.Clear()
			fmt.Fprintln(w, "read "+joinFigures(count(p.Done, "session file", "session files")+" ("+progressline.Bytes(p.BytesDone)+
				") in "+fmt.Sprintf("%.1f s", elapsed.Seconds()), perSecond(float64(p.BytesDone)/1e6, elapsed, "MB")))
			return
		}
		// Reading a file and storing what it holds take about as long
		// as each other: the time left is told from both.
		work := float64(read+p.BytesDone) / 2
		text := "reading sessions: " + joinFigures(
			progressline.Bytes(read)+" of "+progressline.Bytes(p.Bytes),
			progressline.Count(int64(p.Done))+" of "+figure(p.Files, "file", "files")+" stored",
			perSecond(float64(read)/1e6, elapsed, "MB"),
			progressline.Left(work, float64(p.Bytes), elapsed))
		if p.Paused {
			text += " (waiting for a search)"
		}
		line.Show("read", text)
	}
}
