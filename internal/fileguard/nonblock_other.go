//go:build !unix

package fileguard

// nonblock is 0 where opening a file cannot block on a named pipe's
// writer.
const nonblock = 0
