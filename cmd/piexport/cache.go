package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/piexport/piexport/catalog"
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

// readProgress reports how far the catalog is in reading the sessions:
// one line redrawn on a terminal, a line every few seconds otherwise, and
// a last line when it is done.
func readProgress(w io.Writer) func(catalog.Progress) {
	if _, quiet := w.(quietWriter); quiet {
		return nil
	}
	terminal := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			terminal = true
		}
	}
	var last time.Time
	return func(p catalog.Progress) {
		if p.Files == 0 {
			return
		}
		secs := time.Since(p.Started).Seconds()
		rate := float64(p.BytesDone) / 1e6 / max(secs, 1e-3)
		line := fmt.Sprintf("reading sessions: %d of %d, %s of %s MB, %.0f MB/s",
			p.Done, p.Files, mb(p.BytesDone), mb(p.Bytes), rate)
		switch {
		case !p.Running:
			line = fmt.Sprintf("read %s (%s MB) in %.1f s, %.0f MB/s", count(p.Done, "session", "sessions"), mb(p.BytesDone), secs, rate)
			if terminal {
				fmt.Fprintf(w, "\r%-78s\n", line)
			} else {
				fmt.Fprintln(w, line)
			}
		case terminal:
			fmt.Fprintf(w, "\r%-78s", line)
		case time.Since(last) >= 5*time.Second:
			last = time.Now()
			fmt.Fprintln(w, line)
		}
	}
}

func mb(n int64) string {
	s := fmt.Sprintf("%d", (n+500_000)/1_000_000)
	// Thousands separated, as people read them.
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
