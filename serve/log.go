package serve

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/piexport/piexport/internal/termsafe"
)

// logger writes the server's log: one line per call, escaped (see
// termsafe) since file names, errors and request details in it are
// untrusted, and a run of the same line written once.
type logger struct {
	mu sync.Mutex
	w  io.Writer // nil discards
	// quiet keeps only the lines that start with "error:" (Options.Quiet).
	quiet bool
	last  string
}

func (l *logger) printf(format string, args ...any) {
	if l.w == nil || l.quiet && !strings.HasPrefix(format, "error:") {
		return
	}
	l.write(fmt.Sprintf(format, args...))
}

// always writes a line however quiet the log is.
func (l *logger) always(format string, args ...any) {
	if l.w != nil {
		l.write(fmt.Sprintf(format, args...))
	}
}

func (l *logger) write(line string) {
	line = termsafe.Escape(line)
	l.mu.Lock()
	defer l.mu.Unlock()
	if line == l.last {
		return
	}
	l.last = line
	fmt.Fprintln(l.w, line)
}

// Write takes the lines of net/http's error log (log.Logger writes one
// message per call).
func (l *logger) Write(p []byte) (int, error) {
	l.printf("%s", bytes.TrimSuffix(p, []byte("\n")))
	return len(p), nil
}
