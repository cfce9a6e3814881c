//go:build unix

package archive

import (
	"errors"
	"os"
	"syscall"

	"github.com/piexport/piexport/internal/fileguard"
)

// acquireLock takes an exclusive flock on the file at path, creating it,
// without waiting, and removes the file on release. The system releases
// the lock when the process ends, however it ends, so a killed build
// leaves no stale lock (only the empty file, which the next build
// takes). The file is opened read-only (flock needs no more), without
// following a symbolic link or blocking on a named pipe.
func acquireLock(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &fileguard.NotRegularError{Path: path, Mode: fi.Mode()}
	}
	for err == nil {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		err = errLocked
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	// The holder before us removes the file before it lets go: if we
	// locked a file that is no longer at path, another build may hold
	// the one that is. Try again.
	if now, err := os.Lstat(path); err != nil || !os.SameFile(fi, now) {
		f.Close()
		return nil, errLocked
	}
	return func() {
		os.Remove(path)
		f.Close() // releases the lock
	}, nil
}
