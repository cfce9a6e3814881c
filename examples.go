package piexport

import (
	"embed"
	"io/fs"
)

// examples holds a few real sessions, copied from testdata/corpus (its
// SOURCES.md says where each comes from), so that a first run of the server
// has something to show on a machine without sessions of its own.
//
//go:embed examples/*.jsonl
var examples embed.FS

// Examples returns the bundled example sessions: a flat directory of .jsonl
// files at the root of the returned file system.
func Examples() fs.FS {
	f, err := fs.Sub(examples, "examples")
	if err != nil {
		// fs.Sub fails only on an invalid path, and this one is a constant.
		panic(err)
	}
	return f
}
