package fileguard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular marks an input that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// CheckInput refuses, in one sentence naming the file, an input that is
// not a regular file: a named pipe hangs the reader, /dev/zero and
// /dev/urandom never end. The error wraps ErrNotRegular.
func CheckInput(name string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &notRegularInput{name, fi.Mode()}
}

type notRegularInput struct {
	name string
	mode fs.FileMode
}

func (e *notRegularInput) Error() string {
	if e.mode.IsDir() {
		return fmt.Sprintf("%s is a directory, not a session file", e.name)
	}
	return fmt.Sprintf("%s is %s, not a session file: piexport reads only regular files", e.name, Kind(e.mode))
}

func (e *notRegularInput) Unwrap() error { return ErrNotRegular }

// OpenInput opens the file at path for reading. It is opened read-only
// (never written, truncated or locked) and without blocking, so that a
// named pipe, even one swapped in for the file since it was looked at,
// cannot hang the open; what was opened is then checked on the open file
// itself (fstat), so that nothing can slip in between the check and the
// read. Anything but a regular file is refused (see CheckInput).
func OpenInput(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	return checkOpened(f, path)
}

// OpenInputIn is OpenInput for the file rel below root; name names it in
// errors.
func OpenInputIn(root *os.Root, rel, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	return checkOpened(f, name)
}

func checkOpened(f *os.File, name string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err == nil {
		err = CheckInput(name, fi)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadInput reads the file at path whole, opened as OpenInput opens it,
// a few megabytes at a time until ctx is done.
func ReadInput(ctx context.Context, path string) ([]byte, error) {
	f, fi, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, fi.Size()+bytes.MinRead)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):min(cap(data), len(data)+4<<20)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
