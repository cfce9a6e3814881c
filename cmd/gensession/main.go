// Command gensession writes synthetic pi session files for benchmarks.
//
//	gensession [--seed N] [--size 50MB] [--profile mixed|chat|code|tools|linear]
//	           [--branches] [--images] [--compactions] [--labels] -o FILE
//	gensession --chain N -o FILE
//	gensession --sessions N --dir DIR [--seed N]
//
// The same flags always give the same bytes. With -o -, the session goes to
// standard output. A summary (bytes, time, MB/s) goes to standard error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/internal/sessiongen"
)

func main() {
	os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr), os.Stderr))
}

// usageError is a mistake in the command line; it exits with status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "gensession:", err)
	if errors.As(err, new(usageError)) {
		fmt.Fprintln(stderr, "Run 'gensession --help' for usage.")
		return 2
	}
	return 1
}

// run does the work of main; ctx is there for callers that cancel, though
// generation is quick enough that nothing here waits on it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("gensession", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		opt      sessiongen.Options
		size     = fs.String("size", "10MB", "stop once the file is at least this big (KB, MB, GB = 1000^n; KiB, MiB, GiB = 1024^n)")
		out      = fs.StringP("output", "o", "", "file to write, - for standard output")
		sessions = fs.Int("sessions", 0, "write this many small sessions under --dir in pi's layout instead of one file")
		dir      = fs.String("dir", "", "root directory for --sessions")
		profile  = fs.String("profile", "mixed", "the session's shape: mixed (tool output, prose and some code), chat (mostly talk), code (fenced code in every answer, reads, edits, long build output), tools (many tool calls, little talk) or linear (one long path of code-heavy tool output, as most real sessions are)")
	)
	fs.Int64Var(&opt.Seed, "seed", 1, "seed; the same seed gives the same bytes")
	fs.BoolVar(&opt.Branches, "branches", false, "branch back to earlier user messages with branch summaries")
	fs.BoolVar(&opt.Images, "images", false, "add base64 PNG images")
	fs.BoolVar(&opt.Compactions, "compactions", false, "add compaction entries")
	fs.BoolVar(&opt.Labels, "labels", false, "add labels and a session name")
	fs.IntVar(&opt.Chain, "chain", 0, "write one linear chain of exactly N entries (ignores --size)")
	fs.StringVar(&opt.Cwd, "cwd", "", "the session's working directory (default /home/dev/projects/demo)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: gensession [flags] -o FILE\n       gensession --sessions N --dir DIR [--seed N]\n\nflags:")
		fs.PrintDefaults()
	}
	err := fs.Parse(args)
	if err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if opt.Chain < 0 || *sessions < 0 {
		return usagef("--chain and --sessions must not be negative")
	}
	if opt.Profile, err = sessiongen.ParseProfile(*profile); err != nil {
		return usagef("--profile: %v", err)
	}
	start := time.Now()

	if *sessions > 0 {
		if *dir == "" {
			return usagef("--sessions needs --dir")
		}
		paths, err := sessiongen.Sessions(*dir, *sessions, opt.Seed)
		if err != nil {
			return err
		}
		var total int64
		for _, p := range paths {
			if fi, err := os.Stat(p); err == nil {
				total += fi.Size()
			}
		}
		report(stderr, fmt.Sprintf("%d sessions under %s", len(paths), *dir), total, time.Since(start))
		return nil
	}

	if *out == "" {
		return usagef("-o FILE is required")
	}
	n, err := sessiongen.ParseSize(*size)
	if err != nil {
		return usagef("--size: %v", err)
	}
	opt.TargetBytes = n
	if *out == "-" {
		cw := &countingWriter{w: stdout}
		if err := sessiongen.Write(cw, opt); err != nil {
			return err
		}
		report(stderr, "standard output", cw.n, time.Since(start))
		return nil
	}
	if err := sessiongen.WriteFile(*out, opt); err != nil {
		return err
	}
	fi, err := os.Stat(*out)
	if err != nil {
		return err
	}
	report(stderr, *out, fi.Size(), time.Since(start))
	return nil
}

func report(w io.Writer, what string, n int64, d time.Duration) {
	fmt.Fprintf(w, "wrote %s: %d bytes in %.2fs (%.0f MB/s)\n", what, n, d.Seconds(), float64(n)/1e6/max(d.Seconds(), 1e-9))
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
