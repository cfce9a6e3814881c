//go:build unix

package fileguard

import "syscall"

// nonblock opens a named pipe without waiting for a writer; it changes
// nothing for a regular file.
const nonblock = syscall.O_NONBLOCK
