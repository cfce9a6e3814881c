package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"

	"github.com/piexport/piexport/archive"
	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/serve"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/teamcatalog"
)

// isArchive says whether files asks for an archive: several files, a
// directory, or none (pi's and omp's session directories, with -o).
func isArchive(files []string) (bool, error) {
	if len(files) != 1 {
		return true, nil
	}
	info, err := os.Stat(files[0])
	if err != nil {
		return false, inputError(files[0], err)
	}
	return info.IsDir(), nil
}

// defaultRoots returns pi's and omp's session directories (catalog.
// DefaultRoots), warning on u.err about settings it could not follow.
func defaultRoots(u *ui) []string {
	roots, warnings := catalog.DefaultRoots()
	for _, w := range warnings {
		u.warn(session.Warning{Text: w})
	}
	return roots
}

// runArchive writes the sessions under opt.files (by default, pi's and
// omp's session directories) as a static archive.
func runArchive(ctx context.Context, opt *options, u *ui) error {
	switch {
	case opt.output == "" || opt.output == "-":
		return usagef("an archive of several sessions needs a directory: -o DIR")
	case opt.leaf != "":
		return usagef("--leaf names an entry of one session; it does not go with an archive")
	case opt.sharing.encrypt:
		return usagef("--encrypt writes one page of one session; it does not go with an archive")
	case opt.docs.from != "" || opt.docs.to != "":
		return usagef("--from and --to name a part of one session; they do not go with an archive")
	case opt.docs.embed:
		return usagef("--embed makes one session's page for an iframe; it does not go with an archive")
	case opt.docs.bodyOnly || opt.docs.headingOffset != 0:
		return usagef("--body-only and --heading-offset shape one document to include in a page; they do not go with an archive")
	}
	paths := opt.files
	if len(paths) == 0 {
		if paths = defaultRoots(u); len(paths) == 0 {
			return fmt.Errorf("no pi sessions in %s; name the session files or directories to archive", catalog.DefaultRootsHelp)
		}
	}
	files, err := catalog.Find(paths)
	if err != nil {
		return pathsError(paths, err)
	}
	if len(files) == 0 {
		return noSessionFiles(paths)
	}
	inputs := fileguard.NewInputs(files...)
	if err := refuseInputStreams(inputs, u); err != nil {
		return err
	}
	if fi, err := os.Stat(opt.output); err == nil {
		if name, ok := inputs.Find(fi); ok {
			return usageError{&fileguard.InputError{Output: opt.output, Input: name}}
		}
		if !fi.IsDir() {
			return usagef("%s is %s; an archive of several sessions is written into a directory", opt.output, fileguard.Kind(fi.Mode()))
		}
	}
	home, _ := os.UserHomeDir()
	aopt := archive.Options{
		Theme: opt.theme, Home: home, Generator: generator(),
		Format: opt.format, Progress: archiveProgress(u.line, opt.output), EmbedJSONL: opt.embedJSONL,
		MarkdownTarget: opt.docs.target, FrontMatter: opt.docs.frontMatter,
		Shared: newShareLinks().related,
	}
	if dir := opt.cache(); dir != "" && opt.redactor == nil {
		// The server's page cache: a page made before is copied, not
		// rendered again. Not under --redact, whose pages stay out of the
		// cache (see serve.Options.Prepare).
		pages, err := catalog.OpenPages(dir, catalog.PagesBytes)
		if err != nil {
			// Pages are then made without it: the cache only saves
			// making them again.
			u.warn(session.Warning{Text: err.Error() + "; pages are made without it"})
		}
		aopt.Pages = pages
	}
	reports := newReportLog(opt, u)
	if red := opt.redactor; red != nil {
		aopt.Mask, aopt.Masked = red, reports.addSession
		if opt.redact.masks() {
			aopt.Notice = "Secrets are masked: every page of this archive was redacted (--redact)."
		}
	}
	res, err := archive.Build(ctx, opt.output, files, aopt)
	u.line.Clear()
	if fileguard.IsOutputError(err) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	reports.done()
	for _, f := range res.Failed {
		printf(u.err, "piexport: %v", f.Err)
	}
	printf(u.out, "%s", res.Index)
	if !u.quiet {
		printArchiveWarnings(u.err, res.Warned, opt.verbose)
		fmt.Fprintln(u.err, archiveSummary(res))
	}
	if len(res.Failed) > 0 {
		return fmt.Errorf("%s; the index lists them", couldNotRead(len(res.Failed), len(files)))
	}
	return nil
}

// archiveSummary says what a build did, in one line whose figures add
// up, its sessions and sub-agents counted as the index counts them: "28
// sessions and 3 sub-agents: 1 written, 30 unchanged; 2 old pages
// removed". The files that could not be read are said apart (see
// couldNotRead).
func archiveSummary(res archive.Result) string {
	read := len(res.Rendered) + res.Unchanged
	line := humanize.Sessions(read-res.SubAgents, res.SubAgents) + ": " +
		fmt.Sprintf("%d written, %d unchanged", len(res.Rendered), res.Unchanged)
	if len(res.Removed) > 0 {
		line += "; " + count(len(res.Removed), "old page", "old pages") + " removed"
	}
	return line
}

// printArchiveWarnings says which sessions loaded with warnings: each
// warning under verbose, else a count per session.
func printArchiveWarnings(w io.Writer, warned []archive.Warned, verbose bool) {
	for _, s := range warned {
		if verbose {
			for _, text := range s.Warnings {
				printf(w, "warning: %s", text)
			}
			continue
		}
		printf(w, "warning: %s: %s (-v lists them)", s.Path, count(len(s.Warnings), "warning", "warnings"))
	}
}

// runServe serves the sessions under opt.files (or the default session
// directories) until ctx ends.
func runServe(ctx context.Context, opt *options, u *ui) error {
	home, _ := os.UserHomeDir()
	// The server holds a few sessions and pages at a time, whatever the
	// history's size; a soft limit keeps the collector from letting the
	// heap grow to twice what is live.
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(serveMemoryLimit)
	}
	sopt := serve.Options{
		Addr: opt.addr, Paths: opt.files, Theme: opt.theme, Home: home,
		Generator: generator(), Log: u.err, Quiet: opt.quiet, AllowHosts: opt.allowHosts,
		CacheDir: opt.cache(), Progress: readProgress(u),
		Shared: newShareLinks().related,
		Ready: func(url string) {
			fmt.Fprintf(u.out, "piexport: serving on %s (Ctrl-C to stop)\n", url)
			if opt.open {
				if err := openBrowser(url); err != nil {
					printf(u.err, "piexport: could not open a browser: %v", err)
				}
			}
		},
	}
	if red := opt.redactor; red != nil {
		sopt.Mask, sopt.Redacting = red, opt.redact.masks()
	}
	if opt.team.catalog != "" {
		shared, err := teamcatalog.Open(ctx, opt.team.catalog)
		if err != nil {
			return err
		}
		sopt.Source, sopt.Shared = shared, nil
	}
	err := serve.Run(ctx, sopt)
	var oe *net.OpError
	switch {
	case errors.Is(err, context.Canceled):
		return nil
	case errors.As(err, &oe) && oe.Op == "listen":
		return listenError(opt.addr, err)
	}
	return pathsError(opt.files, err)
}

// serveMemoryLimit is the server's soft memory limit.
const serveMemoryLimit = 200 << 20

// openBrowser opens url with the system's way of opening links.
func openBrowser(url string) error {
	name := "xdg-open"
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		return exec.Command("rundll32", "url.dll,FileProtocolHandler", url).Start()
	}
	return exec.Command(name, url).Start()
}
