// Command piexport turns pi coding agent session files into readable,
// shareable HTML.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/internal/termsafe"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() {
		// The first Ctrl-C asks piexport to stop; a second one kills it.
		<-ctx.Done()
		stop()
	}()
	err := runUI(ctx, os.Args[1:], processUI())
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// usageError marks an error in how piexport was called (exit status 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitCode prints err as one sentence and says how to exit: 0 on success,
// 2 for a usage error, 130 when stopped by Ctrl-C (as a shell reports
// SIGINT), 1 for any other failure.
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if errors.Is(err, context.Canceled) {
		printf(stderr, "piexport: interrupted")
		return 130
	}
	printf(stderr, "piexport: %v", err)
	var u usageError
	if errors.As(err, &u) {
		fmt.Fprintln(stderr, "Run 'piexport --help' for usage.")
		return 2
	}
	return 1
}

// printf writes one line to w, a terminal or a log: the line is escaped
// (see termsafe), since file names and session text in it are untrusted.
func printf(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, termsafe.Escape(fmt.Sprintf(format, args...)))
}
