package catalog

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// endlessFS holds one session file, big.jsonl, that never ends; it calls
// atBytes once, after about that many bytes were read.
type endlessFS struct {
	at      int
	atBytes func()
}

func (e *endlessFS) Open(name string) (fs.File, error) {
	if name != "big.jsonl" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &endlessFile{fsys: e, r: strings.NewReader(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}` + "\n")}, nil
}

type endlessFile struct {
	fsys *endlessFS
	r    io.Reader
}

const endlessLine = `{"type":"message","id":"x","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"again"}}` + "\n"

func (f *endlessFile) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		f.r = strings.NewReader(strings.Repeat(endlessLine, 1000))
		n, err = f.r.Read(p)
	}
	if f.fsys.at -= n; f.fsys.at <= 0 && f.fsys.atBytes != nil {
		f.fsys.atBytes()
		f.fsys.atBytes = nil
	}
	return n, err
}

func (f *endlessFile) Stat() (fs.FileInfo, error) { return endlessInfo{}, nil }
func (f *endlessFile) Close() error               { return nil }

type endlessInfo struct{}

func (endlessInfo) Name() string       { return "big.jsonl" }
func (endlessInfo) Size() int64        { return 1 << 40 }
func (endlessInfo) Mode() fs.FileMode  { return 0o444 }
func (endlessInfo) ModTime() time.Time { return time.Time{} }
func (endlessInfo) IsDir() bool        { return false }
func (endlessInfo) Sys() any           { return nil }

// Cataloguing stops in the middle of a file when its context is done:
// Ctrl-C used to wait until the file being read was read whole.
func TestNewCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	fsys := &endlessFS{at: 4 << 20, atBytes: cancel}
	timer := time.AfterFunc(30*time.Second, func() { panic("New did not stop when cancelled") })
	defer timer.Stop()
	c, err := New(ctx, []string{"big.jsonl"}, Options{FS: fsys})
	if !errors.Is(err, context.Canceled) || c != nil {
		t.Errorf("New: %v, want context.Canceled", err)
	}
}

// An update tells how far it is in bytes as they are read: a file being
// read counts before it is stored (the server's first reading looked
// stuck on one large file).
func TestProgressCountsBytesAsRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fsys := &endlessFS{at: 3 << 20}
	c, err := Open(ctx, []string{"big.jsonl"}, Options{FS: fsys})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var mid Progress
	fsys.atBytes = func() {
		mid = c.Progress()
		cancel()
	}
	timer := time.AfterFunc(30*time.Second, func() { panic("Update did not stop when cancelled") })
	defer timer.Stop()
	if _, err := c.Update(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Update: %v, want context.Canceled", err)
	}
	if !mid.Running || mid.Files != 1 || mid.Done != 0 || mid.BytesDone != 0 || mid.BytesRead < 2<<20 || mid.BytesRead > 4<<20 {
		t.Errorf("3 MB into the file, the progress is %+v; want about 3 MB read and nothing stored", mid)
	}
}
