package sessiongen

import (
	"bytes"
	"sync"
)

var samples = struct {
	sync.Mutex
	bySize map[int64][]byte
}{bySize: map[int64][]byte{}}

// Sample returns a session of about size bytes with everything the
// generator writes (branches, images, compactions, labels), from seed 1:
// the one tests and benchmarks of several packages share. Each size is
// generated once per process; callers must not modify the bytes.
func Sample(size int64) []byte {
	samples.Lock()
	defer samples.Unlock()
	if data, ok := samples.bySize[size]; ok {
		return data
	}
	var buf bytes.Buffer
	opt := Options{Seed: 1, TargetBytes: size, Branches: true, Images: true, Compactions: true, Labels: true}
	if err := Write(&buf, opt); err != nil {
		// Writing to memory fails only if the generator has a bug.
		panic(err)
	}
	samples.bySize[size] = buf.Bytes()
	return buf.Bytes()
}
