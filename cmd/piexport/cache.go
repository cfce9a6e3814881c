package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
)

// cache returns the directory the catalog and rendered pages are kept
// in: --cache-dir, else $PIEXPORT_CACHE_DIR, else piexport in the user's
// cache directory. It returns "" under --no-cache, and when the system has
// no cache directory (the catalog then lives in memory).
func (opt *options) cache() string {
	switch {
	case opt.noCache:
		return ""
	case opt.cacheDir != "":
		return opt.cacheDir
	case os.Getenv("PIEXPORT_CACHE_DIR") != "":
		return os.Getenv("PIEXPORT_CACHE_DIR")
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "piexport")
}

// buildInfo is the build's information, nil when it has none.
func buildInfo() *debug.BuildInfo {
	bi, _ := debug.ReadBuildInfo()
	return bi
}

// versionOf is the program's version: the one set at build time, else
// the module's (a release's tag when installed at one, or the pseudo-version
// Go derives from the commit when built in a clone).
func versionOf(bi *debug.BuildInfo) string {
	if version == "devel" && bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// generator names piexport in what it writes (a page's footer, a
// document's last line) as --version does.
func generator() string { return "piexport " + versionOf(buildInfo()) }

// versionLine is what --version prints: the version and the commit it was
// built from, with whether the tree had changes, so that two builds of
// "devel" can be told apart.
func versionLine(bi *debug.BuildInfo) string {
	v := versionOf(bi)
	var rev, at string
	modified := false
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev == "" {
		return "piexport " + v + " (commit unknown: built without version control information)"
	}
	line := "piexport " + v + " (commit " + rev[:min(12, len(rev))]
	if at != "" {
		line += " of " + at
	}
	if modified {
		line += ", with local changes"
	}
	return line + ")"
}
