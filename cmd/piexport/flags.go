package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

const usageHead = `piexport turns pi coding agent session files into readable HTML.

Usage:
  piexport [flags] SESSION.jsonl
  piexport --format tree SESSION.jsonl

Flags:
`

// parseFlags parses args. It returns nil options and no error when it has
// answered --help or --version itself.
func parseFlags(args []string, stdout io.Writer) (*options, error) {
	fs := pflag.NewFlagSet("piexport", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	opt := &options{}
	fs.StringVarP(&opt.output, "output", "o", "", "write to `PATH` (default ./NAME.html, or NAME.md, for SESSION NAME.jsonl; - for standard output)")
	fs.StringVar(&opt.format, "format", "html", "output `format`: html, md (GitHub-flavoured Markdown of the path), tree (the entry tree as text), tree-json (canonical tree JSON)")
	fs.StringVar(&opt.theme, "theme", "auto", "page `theme`: auto (follow the reader's system), light or dark")
	fs.StringVar(&opt.leaf, "leaf", "", "open the page at the path to the entry with this `ID` (default: the session's leaf)")
	help := fs.BoolP("help", "h", false, "show this help")
	showVersion := fs.Bool("version", false, "print the version")
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err}
	}
	if *help {
		fmt.Fprint(stdout, usageHead+fs.FlagUsages())
		return nil, nil
	}
	if *showVersion {
		fmt.Fprintf(stdout, "piexport %s\n", version)
		return nil, nil
	}
	switch opt.format {
	case "html", "md", "tree", "tree-json":
	default:
		return nil, usagef("--format must be html, md, tree or tree-json, not %q", opt.format)
	}
	switch opt.theme {
	case "auto", "light", "dark":
	default:
		return nil, usagef("--theme must be auto, light or dark, not %q", opt.theme)
	}
	opt.files = fs.Args()
	if len(opt.files) == 0 {
		return nil, usagef("no session file given")
	}
	return opt, nil
}
