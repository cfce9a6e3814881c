//go:build unix

package catalog

import (
	"io/fs"
	"syscall"
)

// sysStamp returns the change time and the inode of a file on systems that
// keep them.
func sysStamp(fi fs.FileInfo) (ctime int64, inode uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return ctimeOf(st), uint64(st.Ino)
}
