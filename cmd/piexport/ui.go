package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/piexport/piexport/internal/progressline"
	"github.com/piexport/piexport/session"
)

// ui is where a run speaks, and what it may do beyond its own work. A
// run's functions take it instead of two writers, so that -q, the
// terminal and the process are said once, here, and not found out from
// the writers' types.
type ui struct {
	// out takes what was asked for: a page, a report, a list, a path.
	out io.Writer
	// err takes warnings, notes, progress and questions; it clears the
	// progress line before each write when one is drawn.
	err io.Writer
	// quiet is -q: no warnings, notes or progress. Errors (main prints
	// them) and questions still reach standard error.
	quiet bool
	// line is the terminal's progress line: nil when standard error is
	// no terminal, or under -q.
	line *progressline.Line
	// canAsk says that standard input is a terminal: a passphrase may be
	// asked for there.
	canAsk bool
	// ownsProcess says that the run is the whole process (main's): it
	// may size the process's caches and collector for one export.
	ownsProcess bool
}

// processUI is the ui of piexport itself: standard output, standard
// error (a terminal when it is one), and standard input to ask on.
func processUI() *ui {
	return &ui{
		out:         os.Stdout,
		err:         standardError(),
		canAsk:      term.IsTerminal(int(os.Stdin.Fd())),
		ownsProcess: true,
	}
}

// warn prints each warning on a line of its own, unless quiet.
func (u *ui) warn(warnings ...session.Warning) {
	if u.quiet {
		return
	}
	for _, w := range warnings {
		printf(u.err, "warning: %s", w)
	}
}
