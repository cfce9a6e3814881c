package main

import (
	"fmt"
	"io"
	"net/netip"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/page"
)

const usageHead = `piexport turns pi coding agent session files into readable HTML.

Usage:
  piexport [flags] SESSION.jsonl         one page: ./SESSION.html
  piexport -o DIR [flags] [PATH...]      an archive: DIR/index.html and a page
                                         per session (PATH: files, or
                                         directories searched for *.jsonl;
                                         default: pi's and omp's session
                                         directories)
  piexport --serve [flags] [PATH...]     browse sessions on a local server
                                         (default: the same)
  piexport --format tree SESSION.jsonl   the entry tree in the terminal
  piexport --redact SESSION.jsonl        the page with secrets masked, to share
                                         (--redact-report: only say what)
  piexport --encrypt SESSION.jsonl       a page that opens only with a passphrase
  piexport --share SESSION.jsonl         publish it, masked, as a secret GitHub
                                         gist (--shares lists, --unshare deletes)
  piexport --usage [flags] [PATH...]     tokens and cost of every session, per
                                         day, week, month, project or model
  piexport --push URL [PATH...]          send the sessions, masked, to a team's
                                         shared catalog on PostgreSQL
  piexport --serve --catalog URL         browse and search the shared catalog

Flags:
`

// parseFlags parses args. It returns nil options and no error when it has
// answered --help or --version itself.
func parseFlags(args []string, stdout io.Writer) (*options, error) {
	fs := pflag.NewFlagSet("piexport", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	opt := &options{}
	fs.StringVarP(&opt.output, "output", "o", "", "write to `PATH` (default ./NAME.html, or NAME.md, for SESSION NAME.jsonl, and standard output for the tree formats; - for standard output)")
	fs.StringVar(&opt.format, "format", "html", "output `format`: html, md (Markdown of the path, for GitHub or a documentation site: see --md-target), tree (the entry tree as text), tree-json (canonical tree JSON)")
	fs.StringVar(&opt.theme, "theme", "auto", "page `theme`: auto (follow the reader's system), light or dark")
	fs.StringVar(&opt.leaf, "leaf", "", "open the page (or the tree) at the path to the entry with this `ID`, or the start of one; --format tree lists them (default: the session's leaf)")
	opt.docs.define(fs)
	fs.BoolVar(&opt.embedJSONL, "embed-jsonl", false, "let the page's reader download the session file, which the page then carries (as it is: up to twice the page)")
	opt.redact.define(fs)
	opt.sharing.define(fs)
	opt.team.define(fs)
	fs.BoolVar(&opt.serve, "serve", false, "serve the sessions under PATH (or the default session directories) on a local web server")
	fs.StringVar(&opt.addr, "addr", "127.0.0.1:8080", "with --serve: the `address` to listen on (port 0 picks a free one)")
	fs.StringArrayVar(&opt.allowHosts, "allow-host", nil, "with --serve: also answer requests addressed to the host `NAME` (repeatable; localhost, this machine's name and its addresses are always answered)")
	fs.BoolVar(&opt.open, "open", false, "with --serve: open the index in the web browser")
	fs.BoolVar(&opt.usage, "usage", false, "print the tokens and cost of the sessions under PATH (or the default session directories), with totals")
	fs.StringVar(&opt.since, "since", "", "with --usage: count the work from `DATE` on (2026-03-01, 2026-03 or 2026; days are UTC)")
	fs.StringVar(&opt.by, "by", "month", "with --usage: group by `GROUP`: day, week, month, project, model, or person (with --catalog)")
	fs.BoolVar(&opt.json, "json", false, "with --usage or --shares: print JSON")
	fs.StringVar(&opt.cacheDir, "cache-dir", "", "keep the catalog of sessions and the rendered pages in `DIR` (default $PIEXPORT_CACHE_DIR, else piexport in the user's cache directory)")
	fs.BoolVar(&opt.noCache, "no-cache", false, "keep no cache: read every session at every start")
	fs.BoolVarP(&opt.quiet, "quiet", "q", false, "print no progress and no warnings, only errors")
	fs.BoolVarP(&opt.verbose, "verbose", "v", false, "in an archive, list every warning about the sessions, not a count per session")
	help := fs.BoolP("help", "h", false, "show this help")
	showVersion := fs.Bool("version", false, "print the version and the commit it was built from")
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err}
	}
	if *help {
		fmt.Fprint(stdout, usageHead+fs.FlagUsages())
		return nil, nil
	}
	if *showVersion {
		fmt.Fprintln(stdout, versionLine(buildInfo()))
		return nil, nil
	}
	switch opt.format {
	case "html", "md", "tree", "tree-json":
	default:
		return nil, usagef("--format must be html, md, tree or tree-json, not %q", opt.format)
	}
	if !slices.Contains(page.Themes, opt.theme) {
		return nil, usagef("--theme must be auto, light or dark, not %q", opt.theme)
	}
	opt.files = fs.Args()
	if err := opt.checkUsage(fs); err != nil {
		return nil, err
	}
	if err := opt.checkSharing(fs); err != nil {
		return nil, err
	}
	if err := opt.docs.check(fs, opt); err != nil {
		return nil, err
	}
	if err := opt.team.check(fs, opt); err != nil {
		return nil, err
	}
	switch {
	case opt.usage, opt.sharing.listing(), opt.sharing.share, opt.team.push != "", opt.team.init:
	case opt.serve:
		if opt.output != "" || opt.leaf != "" || opt.format != "html" {
			return nil, usagef("--serve takes no -o, --leaf or --format")
		}
	case len(opt.files) == 0 && !archiveOfDefaults(opt):
		return nil, usagef("no session file given")
	case fs.Changed("addr") || opt.open || len(opt.allowHosts) > 0:
		return nil, usagef("--addr, --allow-host and --open go with --serve")
	}
	for _, h := range opt.allowHosts {
		if !validHostName(h) {
			return nil, usagef("--allow-host takes a host name or an IP address, not %q", h)
		}
	}
	switch {
	case opt.embedJSONL && opt.redact.on():
		return nil, usagef("--embed-jsonl carries the session file as it is, which --redact and --no-images would undo; use one or the other")
	case opt.embedJSONL && (opt.serve || (opt.format != "html")):
		return nil, usagef("--embed-jsonl goes with HTML pages, not --serve or --format %s", opt.format)
	}
	if opt.redact.report && (opt.serve || opt.output != "") {
		return nil, usagef("--redact-report prints a report and writes nothing; it takes no -o or --serve")
	}
	if opt.noCache && opt.cacheDir != "" {
		return nil, usagef("--no-cache and --cache-dir do not go together")
	}
	return opt, nil
}

// archiveOfDefaults says whether options without a file ask for an
// archive of pi's and omp's session directories: -o names a directory
// (not a page), and nothing asks for one session.
func archiveOfDefaults(opt *options) bool {
	switch {
	case opt.output == "" || opt.output == "-", opt.leaf != "", opt.redact.report, opt.docs.from != "" || opt.docs.to != "":
		return false
	case opt.format != "html" && opt.format != "md":
		return false
	}
	ext := strings.ToLower(filepath.Ext(opt.output))
	return ext != ".html" && ext != ".htm" && ext != ".md"
}

// validHostName reports whether s can be a Host header's name: letters,
// digits, '-', '_' and '.' (a name), or an IP address, without a port.
func validHostName(s string) bool {
	if _, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return true
	}
	if s == "" || len(s) > 253 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
