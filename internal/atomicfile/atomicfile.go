// Package atomicfile writes files so that no reader, and no interrupted
// run, ever sees half of one: the data goes to a temporary file in the
// same directory, which is then renamed over the target.
package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/piexport/piexport/internal/fileguard"
)

// TempSuffix ends the names of the temporary files, so that a directory
// can be cleaned of those an interrupted run left behind.
const TempSuffix = ".piexport-tmp"

// Write creates or replaces path with what write writes. It replaces
// only a regular file: the rename would put a file in the place of a
// device, a named pipe or a symbolic link (not through the link), which
// is never what was meant.
func Write(path string, write func(io.Writer) error) error {
	// What piexport writes is for reading.
	return writeMode(path, 0o644, write)
}

// WritePrivate is WriteFile for a file only its owner may read (mode
// 0600): the temporary file is private from the start, so no other user
// can read it at any moment.
func WritePrivate(path string, data []byte) error {
	return writeMode(path, 0o600, func(w io.Writer) error {
		_, err := bytes.NewReader(data).WriteTo(w)
		return err
	})
}

func writeMode(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return &fileguard.NotRegularError{Path: path, Mode: fi.Mode()}
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+tempStem(filepath.Base(path))+".*"+TempSuffix)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	// CreateTemp makes the file private.
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// maxTempStem bounds the part of a temporary file's name taken from the
// target's: with the dot, the random number (up to 10 digits) and
// TempSuffix, the name stays within the 255 bytes file systems allow,
// even for a target whose own name is 255 bytes long.
const maxTempStem = 200

// tempStem is name, cut to at most maxTempStem bytes on a character
// boundary.
func tempStem(name string) string {
	if len(name) <= maxTempStem {
		return name
	}
	cut := maxTempStem
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut]
}

// WriteFile creates or replaces path with data.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := bytes.NewReader(data).WriteTo(w)
		return err
	})
}
