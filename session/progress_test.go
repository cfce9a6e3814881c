package session

import (
	"context"
	"os"
	"testing"
)

// A load tells how far reading is as it goes, lean or whole: the bytes
// read, of the file's size, only ever more, and the lines among them,
// up to the whole file.
func TestLoadProgress(t *testing.T) {
	const file = "../testdata/corpus/pi-v3-paradocs-research.jsonl"
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, lean := range []bool{false, true} {
		var calls int
		var last int64
		var lines int
		s, err := LoadWith(context.Background(), file, LoadOptions{Lean: lean, Progress: func(read, size int64, n int) {
			if size != fi.Size() || read < last || read > size || n < lines {
				t.Errorf("lean %v: told %d of %d bytes and %d lines after %d bytes and %d lines", lean, read, size, n, last, lines)
			}
			calls++
			last, lines = read, n
		}})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if calls < 2 || last != fi.Size() || lines < len(s.Entries) {
			t.Errorf("lean %v: %d calls, ending at %d of %d bytes and %d lines for %d entries", lean, calls, last, fi.Size(), lines, len(s.Entries))
		}
	}
}
