package archive

import (
	"errors"
	"syscall"
)

// errorSharingViolation is ERROR_SHARING_VIOLATION: the file is open
// elsewhere without sharing.
const errorSharingViolation syscall.Errno = 32

// The DELETE access right and FILE_FLAG_DELETE_ON_CLOSE.
const (
	accessDelete      = 0x00010000
	flagDeleteOnClose = 0x04000000
)

// acquireLock opens the file at path, creating it, with no sharing: while
// it is open, no other process can open it. Windows closes it when the
// process ends, however it ends, so a killed build leaves no stale lock,
// and deletes it when it is closed.
func acquireLock(path string) (release func(), err error) {
	name, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(name, syscall.GENERIC_READ|accessDelete, 0, nil, syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL|flagDeleteOnClose, 0)
	if errors.Is(err, errorSharingViolation) {
		return nil, errLocked
	}
	if err != nil {
		return nil, err
	}
	return func() { syscall.CloseHandle(h) }, nil
}
