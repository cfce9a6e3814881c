package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/fileguard"
)

// zeros is an endless stream of NUL bytes, as /dev/zero gives.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// A line without end (a file of zeros) costs at most the line limit: it
// is skipped with a warning, and the lines after it load.
func TestLineLimit(t *testing.T) {
	in := io.MultiReader(
		strings.NewReader(hdr+"\n"+user("a", "", "before", 1)+"\n"),
		io.LimitReader(zeros{}, 64<<20),
		strings.NewReader("\n"+user("b", "a", "after", 2)+"\n"),
	)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := loader{s: &Session{File: "f.jsonl"}, kinds: map[string]int{}, maxLine: 4 << 20}
	err := l.readLines(bufioReader(in))
	if err == nil {
		err = l.finish()
	}
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	s := l.s
	if got := texts(s); len(got) != 2 || got[0] != "before" || got[1] != "after" {
		t.Errorf("entries %q, want the lines around the long one", got)
	}
	wantWarning(t, s, 3, "the line is longer than 4 MiB, piexport's limit for one line; skipped")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 24<<20 {
		t.Errorf("reading a 64 MiB line allocated %d MiB; the limit is 4 MiB", alloc>>20)
	}
}

// Real lines of tens of megabytes load whole.
func TestLongLineLoads(t *testing.T) {
	big := strings.Repeat("tool output line\n", 40<<20/17)
	s := load(t, lines(hdr, user("a", "", big, 1)))
	if got := texts(s); len(got) != 1 || got[0] != big {
		t.Fatalf("the 40 MB message did not load whole")
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings: %v", s.Warnings)
	}
}

// /dev/zero, /dev/urandom, a directory and a named pipe are refused at
// once, in one sentence, without reading.
func TestLoadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/s.jsonl"
	if err := mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/dev/zero":    "/dev/zero is a character device, not a session file: piexport reads only regular files",
		"/dev/urandom": "/dev/urandom is a character device, not a session file: piexport reads only regular files",
		fifo:           fifo + " is a named pipe (FIFO), not a session file: piexport reads only regular files",
		dir:            dir + " is a directory, not a session file",
	} {
		timer := time.AfterFunc(10*time.Second, func() {
			// A test that merely failed would leave the read running.
			panic("Load(" + path + ") has not returned")
		})
		_, err := Load(path)
		timer.Stop()
		if err == nil || err.Error() != want || !errors.Is(err, fileguard.ErrNotRegular) {
			t.Errorf("Load(%s): %v", path, err)
		}
	}
	if _, err := Load(dir + "/nope.jsonl"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}

// endlessSession is a session file that never ends: a header, then user
// messages for ever. It calls atBytes once, after about that many bytes.
type endlessSession struct {
	n, at   int
	atBytes func()
	pending []byte
}

func (e *endlessSession) Read(p []byte) (int, error) {
	if len(e.pending) == 0 {
		if e.n == 0 {
			e.pending = []byte(hdr + "\n")
		} else {
			e.pending = []byte(user(fmt.Sprint("u", e.n), "", "another message in a long session", 0) + "\n")
		}
		e.n++
	}
	k := copy(p, e.pending)
	e.pending = e.pending[k:]
	if e.at -= k; e.at <= 0 && e.atBytes != nil {
		e.atBytes()
		e.atBytes = nil
	}
	return k, nil
}

// Reading stops when its context is done, in the middle of a file (a
// Ctrl-C on a session of a gigabyte used to wait for the whole file).
func TestReadCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &endlessSession{at: 2 << 20, atBytes: cancel}
	timer := time.AfterFunc(30*time.Second, func() { panic("ReadContext did not stop when cancelled") })
	defer timer.Stop()
	_, err := ReadContext(ctx, r, "f.jsonl")
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "f.jsonl:") {
		t.Errorf("ReadContext: %v, want the file, the line and context.Canceled", err)
	}
}
