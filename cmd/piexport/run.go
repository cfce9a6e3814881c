package main

import (
	"context"
	"fmt"
	"io"

	"github.com/piexport/piexport/session"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "devel"

// options are the parsed command line.
type options struct {
	format string
	files  []string
}

// run is piexport: it parses args, does the work, and writes to stdout and
// stderr. main only turns its error into an exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opt, err := parseFlags(args, stdout)
	if err != nil || opt == nil {
		return err
	}
	switch opt.format {
	case "tree", "tree-json":
		return writeTrees(opt, stdout, stderr)
	}
	return usagef("unknown --format %q", opt.format)
}

// writeTrees prints each session's tree as text or as canonical JSON.
func writeTrees(opt *options, stdout, stderr io.Writer) error {
	for _, file := range opt.files {
		s, err := session.Load(file)
		if err != nil {
			return err
		}
		printWarnings(stderr, s.Warnings)
		if opt.format == "tree-json" {
			err = s.WriteCanonicalJSON(stdout)
		} else {
			err = s.WriteTree(stdout)
		}
		if err != nil {
			return fmt.Errorf("writing the tree of %s: %w", file, err)
		}
	}
	return nil
}

func printWarnings(w io.Writer, warnings []session.Warning) {
	for _, warn := range warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}
