// Package recovered describes a panic that was recovered, for a warning
// or a log line: what it said and where it happened. A server that
// recovers from a panic in one entry or one file keeps serving; the line
// it logs is what a maintainer gets to find the fault.
package recovered

import (
	"fmt"
	"path"
	"runtime"
	"strings"
)

// Describe says what the panic v said and, when it can tell, the file and
// line that panicked: "runtime error: index out of range [3] with length
// 3 (at render/ansi.go:212)". It must be called from the deferred
// function that recovered v, while the panicking frames are still on the
// stack.
func Describe(v any) string {
	msg := fmt.Sprint(v)
	if site := panicSite(); site != "" {
		msg += " (at " + site + ")"
	}
	return msg
}

// panicSite is the first frame below runtime.gopanic that is not the
// runtime's own: the function that panicked, as a directory and file
// name and a line.
func panicSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case f.Function == "runtime.gopanic":
			panicking = true
		case panicking && !strings.HasPrefix(f.Function, "runtime."):
			return path.Join(path.Base(path.Dir(f.File)), path.Base(f.File)) + fmt.Sprintf(":%d", f.Line)
		}
		if !more {
			return ""
		}
	}
}
