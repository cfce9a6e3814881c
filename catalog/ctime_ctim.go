//go:build linux || solaris || illumos || aix || openbsd || dragonfly

package catalog

import "syscall"

func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
