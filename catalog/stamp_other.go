//go:build !unix

package catalog

import "io/fs"

// sysStamp returns zeros where the system keeps no change time or inode:
// size and modification time are all a catalog can compare there.
func sysStamp(fs.FileInfo) (ctime int64, inode uint64) { return 0, 0 }
