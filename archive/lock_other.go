//go:build !unix && !windows

package archive

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// staleLock is the age after which a lock file is taken as left by a
// build that was killed.
const staleLock = time.Hour

// acquireLock creates the file at path exclusively, where the system has
// no file locks: the lock is the file's existence, removed on release.
func acquireLock(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		f.Close()
		return func() { os.Remove(path) }, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil && time.Since(fi.ModTime()) > staleLock {
		os.Remove(path)
	}
	return nil, errLocked
}
