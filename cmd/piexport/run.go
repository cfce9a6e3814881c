package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/term"

	"github.com/piexport/piexport/gfm"
	"github.com/piexport/piexport/internal/atomicfile"
	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/render"
	"github.com/piexport/piexport/session"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "devel"

// options are the parsed command line.
type options struct {
	format string
	output string
	theme  string
	leaf   string
	serve  bool
	addr   string
	open   bool
	quiet  bool
	// verbose lists every warning of an archive's sessions.
	verbose bool
	// embedJSONL makes pages carry their session file for download.
	embedJSONL bool
	// allowHosts are the --allow-host names.
	allowHosts []string
	redact     redactFlags
	files      []string
	// usage asks for the usage report, grouped by by, from since on (a
	// date as --since takes it), as JSON under json.
	usage bool
	since string
	by    string
	json  bool
	// cacheDir and noCache say where the cache goes: see cache.
	cacheDir string
	noCache  bool

	// sharing holds --encrypt, --share, --shares and --unshare.
	sharing shareFlags
	// docs shapes Markdown for a site, and cuts excerpts.
	docs docFlags
	// team holds --push, --catalog, --init and --visibility.
	team teamFlags

	// redactor masks each session as redact asks; nil for none.
	redactor *redact.Redactor

	// export is a single export's progress (on the ui's line).
	export *exportProgress
}

// run is piexport as a test runs it: it writes to stdout and stderr,
// asks nothing and leaves the process as it is (see runUI). stderr is a
// terminal (the type) to have progress drawn on it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runUI(ctx, args, &ui{out: stdout, err: stderr})
}

// runUI is piexport: it parses args and does the work, speaking through
// u. main only turns its error into an exit status.
func runUI(ctx context.Context, args []string, u *ui) error {
	opt, err := parseFlags(args, u.out)
	if err != nil || opt == nil {
		return err
	}
	if u.quiet = opt.quiet; !u.quiet {
		u.line, u.err = progressOn(u.err)
	}
	// The line is gone before main says why the run failed.
	defer u.line.Clear()
	if opt.redactor, err = opt.redact.newRedactor(); err != nil {
		return err
	}
	if !opt.serve {
		if err := refuseInputStreams(fileguard.NewInputs(opt.files...), u); err != nil {
			return err
		}
	}
	switch {
	case opt.team.init:
		return runInit(ctx, opt, u.out)
	case opt.team.push != "":
		return runPush(ctx, opt, u)
	case opt.usage:
		return runUsage(ctx, opt, u)
	case opt.redact.report:
		return writeReports(opt, u)
	case opt.serve:
		return runServe(ctx, opt, u)
	case opt.sharing.list:
		return runShares(opt, u)
	case opt.sharing.unshare != "":
		return runUnshare(ctx, opt, u)
	case opt.sharing.share:
		return runShare(ctx, opt, u)
	case opt.format == "tree" || opt.format == "tree-json":
		return writeTrees(ctx, opt, u)
	}
	many, err := isArchive(opt.files)
	if err != nil {
		return err
	}
	if many {
		return runArchive(ctx, opt, u)
	}
	return writeHTML(ctx, opt, u)
}

// writeTrees prints each session's tree as text or as canonical JSON: to
// standard output, or with -o to a file, under the page's rules (see
// outputFile): settled before anything is read, never an input, written
// whole through a temporary file.
func writeTrees(ctx context.Context, opt *options, u *ui) error {
	if opt.leaf != "" && len(opt.files) > 1 {
		return usagef("--leaf names an entry of one session; give one session file with it")
	}
	out := "-"
	switch {
	case isDevNull(opt.output):
		out = os.DevNull
	case opt.output != "" && opt.output != "-":
		target, err := checkedOutput(opt.output, fileguard.NewInputs(opt.files...))
		if err != nil {
			return err
		}
		out = target
	}
	var all bytes.Buffer // the trees for the file, written once all are made
	for _, file := range opt.files {
		s, err := session.LoadContext(ctx, file)
		if err != nil {
			return inputError(file, err)
		}
		u.warn(s.Warnings...)
		leaf, err := findLeaf(s, opt.leaf) // by the id as the file has it
		if err != nil {
			return err
		}
		ends, err := opt.docs.ends(s) // by the ids as the file has them
		if err != nil {
			return err
		}
		if opt.redactor != nil {
			// Masked with its family, as its page is.
			if _, _, err := maskFamily(opt, s, file, u); err != nil {
				return err
			}
		}
		if s, _, err = opt.docs.excerpt(s, ends, nil); err != nil {
			return err
		}
		if ends != nil {
			leaf = s.Leaf
		}
		w, width := io.Writer(&all), 0
		if out == "-" {
			w, width = u.out, terminalWidth(u.out)
		}
		if opt.format == "tree-json" {
			err = s.WriteCanonicalJSONAt(w, leaf)
		} else {
			err = s.WriteTreeAt(w, width, leaf)
		}
		if err != nil {
			return fmt.Errorf("writing the tree of %s: %w", file, err)
		}
	}
	if out == "-" || out == os.DevNull {
		return nil
	}
	if err := atomicfile.WriteFile(out, all.Bytes()); err != nil {
		return outputError(out, err)
	}
	printf(u.out, "%s", opt.output)
	return nil
}

// writeHTML exports one session as one self-contained HTML page, or as
// Markdown.
func writeHTML(ctx context.Context, opt *options, u *ui) error {
	if len(opt.files) != 1 {
		return usagef("give one session file to export (got %d)", len(opt.files))
	}
	file := opt.files[0]
	// Where the output goes is settled before anything is read.
	out, err := outputFile(opt, file)
	if err != nil {
		return err
	}
	// With --embed-jsonl the page carries the file: it is read once, so
	// that the page shows what it carries even while pi appends to the
	// file, and through fileguard, as the loader reads.
	var raw []byte
	if opt.embedJSONL {
		if raw, err = fileguard.ReadInput(ctx, file); err != nil {
			return inputError(file, err)
		}
	}
	// A page is rendered from a session loaded lean, its text read from
	// the file entry by entry as the page is written, so that exporting
	// takes the memory of the tree, not of the session. Masking and the
	// Markdown read all of the text, loaded whole.
	lean := opt.format == "html" && opt.redactor == nil
	pass, err := readPassphrase(opt, u)
	if err != nil {
		return err
	}
	if out != "-" && out != os.DevNull {
		opt.export = newExportProgress(u.line, file, outputName(opt, file))
	} else {
		opt.export = newExportProgress(u.line, file, "the page")
	}
	s, agents, _, err := loadForExport(ctx, opt, file, raw, lean, u)
	if err != nil {
		return err
	}
	defer s.Close()
	dest := out
	if out == "-" || out == os.DevNull {
		dest = ""
	}
	render, err := exportWriter(ctx, opt, opt.format, s, agents, file, raw, pass, dest, u)
	if err != nil {
		return err
	}
	if out == os.DevNull {
		// Rendered in full and dropped, as a benchmark wants it.
		return render(io.Discard)
	}
	if out == "-" {
		// Output goes to standard output whole or not at all.
		var buf bytes.Buffer
		if err := render(&buf); err != nil {
			return err
		}
		_, err = buf.WriteTo(u.out)
		return err
	}
	if err := atomicfile.Write(out, render); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return outputError(out, err)
	}
	u.line.Clear()
	printf(u.out, "%s", outputName(opt, file))
	return nil
}

// exportWriter returns what writes s, loaded from file by loadForExport
// with agents, in format ("md" or "html"): the Markdown, or the page,
// built now (Ctrl-C stops the building), plain or, with --encrypt,
// sealed with pass, and carrying raw with --embed-jsonl. Ctrl-C stops the
// writing too: the next write fails, and nothing is written (a temporary
// file is removed). The page's warnings (an entry it could not render)
// go to u.err once it is written. out is the file the Markdown goes to,
// beside which its images are kept ("": none, they are named instead).
func exportWriter(ctx context.Context, opt *options, format string, s *session.Session, agents []*session.SubAgent, file string, raw []byte, pass, out string, u *ui) (func(io.Writer) error, error) {
	home, _ := os.UserHomeDir()
	write := func(w io.Writer) error {
		mo := opt.docs.markdownOptions(opt, home, agents, out)
		mo.Leaf, mo.Progress = opt.leaf, opt.export.writing
		return gfm.WriteMarkdown(w, s, mo)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if format == "html" {
		// The sessions stay as they are until the page is written, and
		// are dropped with the process.
		s.Compact()
		// One page renders each output the session repeats once by
		// itself (page's repeats); the code cache then only catches code
		// quoted again nearby, and 2 MiB of it does as well as 8: on the
		// 50 MB code session, the same CPU time and 13 MB less at the peak.
		if u.ownsProcess {
			render.SetCodeCacheLimit(2 << 20)
			paceCollector()
		}
		po := page.Options{Theme: opt.theme, Leaf: opt.leaf, Home: home, Generator: generator(), SubAgents: agents,
			ParentPath: localParent(s, file, home, opt.redactor), Embed: opt.docs.embed, EmbedLink: opt.docs.embedLink}
		if opt.embedJSONL {
			po.JSONL, po.JSONLName = raw, filepath.Base(file)
		}
		opt.export.stage("making the page of " + file + ": " + figure(len(s.Entries), "entry", "entries"))
		p, err := interruptible(ctx, func() (*page.Page, error) { return page.NewPage(s, po) })
		if err != nil {
			return nil, err
		}
		p.Tell(opt.export.writing)
		write = func(w io.Writer) error {
			write := p.Write
			if opt.sharing.encrypt {
				write = func(w io.Writer) error { return p.WriteEncrypted(w, pass) }
			}
			if err := write(w); err != nil {
				return err
			}
			u.warn(p.Warnings()...)
			// An entry the lean session could not read again would be
			// missing from the page: the file changed meanwhile.
			return s.Err()
		}
	}
	return func(w io.Writer) error { return write(ctxWriter{ctx, opt.export.counting(w)}) }, nil
}

// loadForExport loads one session file for an export: lean or whole
// (see session.LoadOptions), from raw when the file was read already;
// warns about what could not be read; masks it and its omp sub-agents'
// transcripts, which it loads too, as opt asks, and returns the reports of
// what it masked.
func loadForExport(ctx context.Context, opt *options, file string, raw []byte, lean bool, u *ui) (*session.Session, []*session.SubAgent, groupReports, error) {
	var s *session.Session
	var err error
	switch {
	case lean && raw != nil:
		s, err = session.ReadLean(ctx, bytes.NewReader(raw), int64(len(raw)), file)
	case raw != nil:
		s, err = session.ReadContext(ctx, bytes.NewReader(raw), file)
	default:
		s, err = session.LoadWith(ctx, file, session.LoadOptions{Lean: lean, Progress: opt.export.reading})
	}
	if err != nil {
		return nil, nil, nil, inputError(file, err)
	}
	u.warn(s.Warnings...)
	if len(s.Entries) == 0 {
		printf(u.err, "%s: the session has no entries (it was opened and closed without a turn)", file)
	}
	var leaf *session.Entry
	if opt.leaf != "" {
		// By the id as the file has it; the page and the Markdown take
		// the entry's whole id, as masked.
		if leaf, err = findLeaf(s, opt.leaf); err != nil {
			s.Close()
			return nil, nil, nil, err
		}
	}
	ends, err := opt.docs.ends(s) // likewise
	if err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	// omp keeps sub-agent transcripts beside the session; the page and
	// the Markdown carry them, masked with the session as one group.
	if opt.redactor != nil {
		opt.export.stage("masking " + file)
	}
	agents, reports, err := maskFamily(opt, s, file, u)
	if err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	for _, as := range agentSessions(agents) {
		as.Compact()
	}
	if leaf != nil {
		opt.leaf = leaf.ID
	}
	// An excerpt is a session of its own, which every format takes.
	part, agents, err := opt.docs.excerpt(s, ends, agents)
	if err != nil {
		s.Close()
		return nil, nil, nil, err
	}
	return part, agents, reports, nil
}

// localParent names the session s came from by its path on this
// machine, when it is here: the path s's header names, or, for an omp
// sub-agent's transcript whose header names a path from another machine,
// the session file it lies beside (session.SubAgentParent). "" when
// neither is here: the page then names the file alone. The path is
// masked as --redact asks.
func localParent(s *session.Session, file, home string, red *redact.Redactor) string {
	if s.Header == nil || s.Header.ParentSession == "" {
		return ""
	}
	p := s.Header.ParentSession
	if !session.IsFile(p) {
		abs, err := filepath.Abs(file)
		if err != nil {
			return ""
		}
		var ok bool
		if p, ok = session.SubAgentParent(abs, session.IsFile); !ok {
			return ""
		}
	}
	p = session.ShortenHome(p, home)
	if red != nil {
		p = red.Text(p)
	}
	return p
}

// findLeaf is the entry --leaf names in s (its id, or the start of one
// entry's id), or the session's leaf when it names none. An id that
// names no entry, or several, is a usage error.
func findLeaf(s *session.Session, id string) (*session.Entry, error) {
	if id == "" {
		return s.Leaf, nil
	}
	e, err := s.FindEntry(id)
	if err != nil {
		return nil, usageError{err}
	}
	return e, nil
}

// interruptible returns what f returns, or ctx's error as soon as ctx is
// done (Ctrl-C): rendering a page takes seconds on a large session and
// reads no context of its own. f must write nothing; what it was doing
// is dropped, with the process.
func interruptible[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// ctxWriter fails every write once ctx is done.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// outputName is the output as the user named it, or its default name:
// ./NAME.html (or NAME.md) for NAME.jsonl.
func outputName(opt *options, file string) string {
	if opt.output != "" {
		return opt.output
	}
	ext := ".html"
	if opt.format == "md" {
		ext = ".md"
	}
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)) + ext
}

// outputFile says where one session's export is written: "-" for standard
// output, else the file to replace atomically, which for a symbolic link
// is the file the link leads to (the link stays). It refuses, as a usage
// error, an output that is the input (by identity, whatever the names),
// and one that is a directory, a device (but the null device), a named
// pipe or any other file that is not regular.
func outputFile(opt *options, file string) (string, error) {
	if opt.output == "-" {
		return "-", nil
	}
	if isDevNull(opt.output) {
		return os.DevNull, nil
	}
	out := outputName(opt, file)
	target, err := checkedOutput(out, fileguard.NewInputs(file))
	var ie *fileguard.InputError
	if opt.output == "" && errors.As(err, &ie) {
		return "", usagef("the default output %s would be written over the input %s; name another with -o", out, file)
	}
	return target, err
}

// checkedOutput is out as fileguard.Output settles it against inputs;
// an output it refuses is a usage error.
func checkedOutput(out string, inputs *fileguard.Inputs) (string, error) {
	target, err := fileguard.Output(out, inputs)
	switch {
	case fileguard.IsOutputError(err):
		return "", usageError{err}
	case err != nil:
		return "", fmt.Errorf("checking the output %s: %w", out, err)
	}
	return target, nil
}

// isDevNull says whether name is the null device (os.DevNull, or a link
// to it): the one device piexport writes to, which keeps nothing.
func isDevNull(name string) bool {
	fi, err := os.Stat(name)
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}

// refuseInputStreams refuses a run whose standard output or error is one
// of its inputs (piexport -o - s.jsonl >> s.jsonl): writing them would
// write the input.
func refuseInputStreams(in *fileguard.Inputs, u *ui) error {
	for i, w := range []io.Writer{u.out, u.err} {
		if t, ok := w.(terminal); ok {
			w = t.Writer
		}
		f, ok := w.(*os.File)
		if !ok {
			continue
		}
		fi, err := f.Stat()
		if err != nil {
			continue
		}
		if name, ok := in.Find(fi); ok {
			stream := [...]string{"standard output", "standard error"}[min(i, 1)]
			return usagef("%s is the input %s; piexport never writes over its input", stream, name)
		}
	}
	return nil
}

// paceCollector sizes the collector's headroom for one export. By
// default the heap may grow to twice what is live before the collector
// runs; here what is live is mostly the loaded sessions, which stay put
// until the page is written and leave the collector nothing to do, while
// the headroom only has to hold what rendering makes and drops. So the
// headroom is half what is live (at least 48 MiB) rather than all of it:
// a third less memory at the peak, for a few more, cheap collections
// (the sessions' text is in packed blocks the collector does not scan;
// see Session.Compact). Masking's rule set and rewritten text are live
// too, so they are counted. A GOGC or GOMEMLIMIT the user sets wins.
func paceCollector() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	live := max(heapAfterGC(), 1)
	headroom := max(48<<20, live/2)
	debug.SetGCPercent(int(min(100, 100*headroom/live)))
}

// terminalWidth is the width of the terminal w writes to, or 0 when w is
// not a terminal: then lines are written whole, for a file or a pipe.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// heapAfterGC returns the bytes in use on the heap once it is collected.
func heapAfterGC() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
