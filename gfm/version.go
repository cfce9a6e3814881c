package gfm

import "strconv"

// version counts the changes to the Markdown this package writes for the
// same session and options. Archives kept in Markdown are written again
// whole when it changes, and only then. TestVersion holds the golden
// documents' digest as of this version, and fails when they change
// without it; go test ./gfm -update rewrites both.
const version = 5

// versionGoldens is the digest of the golden documents (testdata/golden)
// at version.
const versionGoldens = "247627710b92dc44"

// Version names the Markdown WriteMarkdown writes (see version).
func Version() string { return strconv.Itoa(version) }
