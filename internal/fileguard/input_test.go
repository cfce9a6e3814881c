package fileguard

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// ReadInput reads a regular file whole, refuses a named pipe at once
// (without waiting for a writer), and gives up when its context is done.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	want := bytes.Repeat([]byte("{\"type\":\"x\"}\n"), 1<<19) // 6.5 MB: more than one piece
	if err := os.WriteFile(file, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadInput(context.Background(), file); err != nil || !bytes.Equal(got, want) {
		t.Errorf("ReadInput: %d bytes, %v; want %d bytes", len(got), err, len(want))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadInput(ctx, file); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadInput after cancel: %v", err)
	}

	fifo := filepath.Join(dir, "p.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ReadInput(context.Background(), fifo)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadInput(a named pipe): %v, want ErrNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("ReadInput waits on a named pipe")
	}
}
