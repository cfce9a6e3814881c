//go:build !(linux || solaris || illumos || aix || openbsd || dragonfly || darwin || freebsd || netbsd)

package testtool

import "io/fs"

// changeTime is fi's change time, and whether the system keeps one.
func changeTime(fs.FileInfo) (int64, bool) { return 0, false }
