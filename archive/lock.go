package archive

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// LockName is the name of the lock file in the archive directory.
const LockName = ".piexport-lock"

// ErrBusy reports an archive directory that another run is writing.
var ErrBusy = errors.New("another piexport run is writing this archive")

// lockWait is how long a build waits for another one writing the same
// directory to finish before it gives up.
var lockWait = 3 * time.Second

// errLocked is what acquireLock returns when the lock is held.
var errLocked = errors.New("locked")

// lockDir takes dir's lock for one build, waiting up to lockWait for
// another build to release it: two builds at once would each write an
// index listing the other's pages as missing, or remove what the other
// just wrote. The lock file is never written.
func lockDir(ctx context.Context, dir string) (unlock func(), err error) {
	path := filepath.Join(dir, LockName)
	deadline := time.Now().Add(lockWait)
	for {
		unlock, err := acquireLock(path)
		if err == nil {
			return unlock, nil
		}
		if !errors.Is(err, errLocked) {
			return nil, fmt.Errorf("locking %s: %w", dir, err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: %w; try again when it is done", dir, ErrBusy)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
