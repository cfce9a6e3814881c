//go:build linux || solaris || illumos || aix || openbsd || dragonfly

package testtool

import (
	"io/fs"
	"syscall"
)

// changeTime is fi's change time, and whether the system keeps one.
func changeTime(fi fs.FileInfo) (int64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Ctim.Nano(), true
}
