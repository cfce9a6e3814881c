package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// Sharing: --encrypt (a page that opens with a passphrase), --share (a
// secret gist, through GitHub's own command-line tool gh, masked),
// --shares and --unshare (the record of what was shared; shares.go).
// piexport never handles a GitHub token: gh does, with the user's own
// login.

// shareFlags are the flags of sharing.
type shareFlags struct {
	encrypt      bool   // --encrypt
	passwordFile string // --password-file
	share        bool   // --share
	list         bool   // --shares
	unshare      string // --unshare
}

func (f *shareFlags) define(fs *pflag.FlagSet) {
	fs.BoolVar(&f.encrypt, "encrypt", false, "encrypt the page: it opens in a browser only with the passphrase, from --password-file, $PIEXPORT_PASSWORD or asked on the terminal (never a flag)")
	fs.StringVar(&f.passwordFile, "password-file", "", "with --encrypt: read the passphrase from the first line of `FILE`")
	fs.BoolVar(&f.share, "share", false, "publish the session, masked as --redact masks it, as a secret GitHub gist through gh (the Markdown and the page; with --encrypt the encrypted page only); prints its URL")
	fs.BoolVar(&f.list, "shares", false, "list the sessions shared with --share, newest first")
	fs.StringVar(&f.unshare, "unshare", "", "delete the gist of a share (its `ID`, or the start of one, or its URL, as --shares lists them) and mark it deleted in the record")
}

// listing says whether the run only reads or changes the record.
func (f *shareFlags) listing() bool { return f.list || f.unshare != "" }

// checkSharing checks the flags of sharing against the others.
func (opt *options) checkSharing(fs *pflag.FlagSet) error {
	f := &opt.sharing
	modes := 0
	for _, on := range []bool{f.share, f.list, f.unshare != "", opt.serve, opt.usage, opt.redact.report} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usagef("--share, --shares, --unshare, --serve, --usage and --redact-report each do a job of their own; give one")
	}
	switch {
	case f.passwordFile != "" && !f.encrypt:
		return usagef("--password-file gives the passphrase of --encrypt")
	case f.listing() && len(opt.files) > 0:
		return usagef("--shares and --unshare read the record of shares; they take no session file")
	case f.listing() && (opt.output != "" || fs.Changed("format") || opt.leaf != "" || f.encrypt || opt.redact.on() || opt.embedJSONL):
		return usagef("--shares and --unshare take no -o, --format, --leaf, --encrypt, --embed-jsonl or redaction flags")
	case f.share && (opt.output != "" || fs.Changed("format")):
		return usagef("--share uploads the Markdown and the page itself; it takes no -o or --format")
	case f.share && opt.embedJSONL:
		return usagef("--embed-jsonl carries the session file unmasked, and --share always masks it; use one or the other")
	case f.encrypt && (opt.serve || opt.usage || opt.redact.report):
		return usagef("--encrypt writes one page; it does not go with --serve, --usage or --redact-report")
	case f.encrypt && opt.format != "html":
		return usagef("--encrypt encrypts an HTML page, not --format %s", opt.format)
	}
	if f.share {
		// A share is always masked.
		opt.redact.redact = true
	}
	return nil
}

// gistFileLimit is the largest file a gist takes: GitHub refuses any file
// over 100 MiB in a repository, and a gist is one. A page over it is
// refused before anything is uploaded, never cut.
const gistFileLimit = 100 << 20

// fitGist refuses files of which one is over limit bytes, naming it and
// the session file it was made from.
func fitGist(files []string, limit int64, session string) error {
	for _, name := range files {
		fi, err := os.Stat(name)
		if err != nil {
			return err
		}
		if fi.Size() > limit {
			return fmt.Errorf("%s would be %s, over the %s a gist file can hold, so nothing was uploaded; piexport --encrypt -o PAGE.html %s writes a page to share another way",
				filepath.Base(name), humanize.Bytes(fi.Size()), humanize.Bytes(limit), session)
		}
	}
	return nil
}

// runShare publishes one session as a secret gist: the redaction report
// goes to standard error, the gist's URL to standard output, and the
// share into the record.
func runShare(ctx context.Context, opt *options, u *ui) error {
	if len(opt.files) != 1 {
		return usagef("give one session file to share (got %d)", len(opt.files))
	}
	file := opt.files[0]
	if fi, err := os.Stat(file); err != nil {
		return inputError(file, err)
	} else if fi.IsDir() {
		return usagef("--share shares one session file, and %s is a directory", file)
	}
	gh, err := checkGH(ctx)
	if err != nil {
		return err
	}
	pass, err := readPassphrase(opt, u)
	if err != nil {
		return err
	}
	s, agents, reports, err := loadForExport(ctx, opt, file, nil, false, u)
	if err != nil {
		return err
	}
	defer s.Close()

	dir, err := os.MkdirTemp("", "piexport-share-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	// GitHub lists a gist's files by name and shows the first: the
	// Markdown (".md") before the page (".page.html").
	stem := "pi-session"
	if id := fileNamePart(sessionID(s)); id != "" {
		stem += "-" + id
	}
	var files []string
	if !opt.sharing.encrypt {
		md := filepath.Join(dir, stem+".md")
		write, err := exportWriter(ctx, opt, "md", s, agents, file, nil, pass, "", u)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		if err := os.WriteFile(md, buf.Bytes(), 0o600); err != nil {
			return err
		}
		files = append(files, md)
	}
	htmlName := stem + ".page.html"
	if opt.sharing.encrypt {
		htmlName = stem + ".encrypted.html"
	}
	write, err := exportWriter(ctx, opt, "html", s, agents, file, nil, pass, "", u)
	if err != nil {
		return err
	}
	htmlPath := filepath.Join(dir, htmlName)
	f, err := os.OpenFile(htmlPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err = errors.Join(write(f), f.Close()); err != nil {
		return fmt.Errorf("writing the page to share: %w", err)
	}
	files = append(files, htmlPath)
	if err := fitGist(files, gistFileLimit, file); err != nil {
		return err
	}

	sum := s.Summarize()
	desc := gistDescription(sum.Title, sessionID(s))
	if opt.sharing.encrypt {
		// The title is part of what the passphrase keeps; the record
		// keeps it for --shares.
		desc = gistDescription("encrypted", sessionID(s))
	}
	args := append([]string{"gist", "create", "--desc", desc}, files...)
	out, err := gh.run(ctx, args...)
	if err != nil {
		return fmt.Errorf("gh could not create the gist, so nothing was shared: %w", err)
	}
	gistURL, id := gistURLIn(out)
	if id == "" {
		return fmt.Errorf("gh created a gist but printed no URL piexport understands (%q): see gh gist list", strings.TrimSpace(string(out)))
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	rec := &shareRecord{
		GistID: id, URL: gistURL, Session: abs, SessionID: sessionID(s), Title: sum.Title,
		Encrypted: opt.sharing.encrypt, Shared: time.Now().UTC(), Masked: map[string]int{},
	}
	for _, name := range files {
		rec.Files = append(rec.Files, filepath.Base(name))
	}
	for _, ss := range append([]*session.Session{s}, agentSessions(agents)...) {
		if r := ss.Redaction; r != nil {
			rec.Places += r.Places
			rec.Home = rec.Home || r.Home
			rec.Images += r.Images
		}
	}
	// A value the page and its sub-agents share, under one placeholder,
	// counts once.
	for rule, n := range reports.values() {
		rec.Masked[rule] = n
	}
	// The URL is the result: it is printed before the record is written,
	// so that a record that cannot be written does not lose it.
	printf(u.out, "%s", gistURL)
	if err := writeShare(rec); err != nil {
		return fmt.Errorf("the gist %s was made, but %w", gistURL, err)
	}
	if !u.quiet {
		printf(u.err, "piexport: shared as a secret gist: anyone with its URL can read it. piexport --unshare %s deletes it.", id)
		if opt.sharing.encrypt {
			printf(u.err, "piexport: the gist holds the encrypted page only: send the passphrase another way than the link.")
		}
	}
	return nil
}

// agentSessions lists the sessions of agents and of their sub-agents.
func agentSessions(agents []*session.SubAgent) []*session.Session {
	var out []*session.Session
	for stack := agents; len(stack) > 0; {
		a := stack[0]
		stack = append(slices.Clone(a.Agents), stack[1:]...)
		out = append(out, a.Session)
	}
	return out
}

// sessionID is the id s's header gives, or "".
func sessionID(s *session.Session) string {
	if s.Header == nil {
		return ""
	}
	return s.Header.ID
}

// fileNamePart keeps the first 8 letters and digits of id, for a file
// name; none of an id that was masked (it held a secret), whose letters
// would say only REDACTED.
func fileNamePart(id string) string {
	if redact.Masked(id) {
		return ""
	}
	var b strings.Builder
	for _, r := range id {
		if b.Len() == 8 {
			break
		}
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// gistDescription names the session so that the gist can be found on
// GitHub later: its title (masked, on one line, cut) and its id.
func gistDescription(title, id string) string {
	title = strings.Join(strings.FieldsFunc(title, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if r := []rune(title); len(r) > 120 {
		title = string(r[:119]) + "…"
	}
	if title == "" {
		title = "untitled"
	}
	desc := "pi session: " + title
	if id != "" {
		desc += " (" + id + ")"
	}
	return desc
}

// gistURLIn finds the URL gh gist create prints, and the gist's id in it.
func gistURLIn(out []byte) (string, string) {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		u, err := url.Parse(line)
		if err != nil || u.Scheme != "https" || u.Host == "" {
			continue
		}
		if id := gistIDOf(u); id != "" {
			return line, id
		}
	}
	return "", ""
}

// gistIDOf is the id of the gist a URL leads to: its path's last part.
func gistIDOf(u *url.URL) string {
	id := filepath.Base(strings.TrimSuffix(u.Path, "/"))
	if !validGistID(id) {
		return ""
	}
	return id
}

// ghCLI is GitHub's command-line tool, found on PATH.
type ghCLI struct{ path string }

// checkGH finds gh and checks that it is logged in, so that a share that
// cannot be made stops before anything is rendered or uploaded.
func checkGH(ctx context.Context) (*ghCLI, error) {
	path, err := exec.LookPath("gh")
	if err != nil {
		return nil, errors.New("sharing uses GitHub's command-line tool gh, which is not installed (or not on PATH): install it from https://cli.github.com, log in with gh auth login, and share again")
	}
	gh := &ghCLI{path: path}
	if _, err := gh.run(ctx, "auth", "status"); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("gh is not logged in to GitHub (%v): run gh auth login, then share again", err)
	}
	return gh, nil
}

// run runs gh with args and returns its standard output; its error says
// what gh said on standard error.
func (g *ghCLI) run(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.path, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		said := lastLine(errOut.String())
		if said == "" {
			said = lastLine(out.String())
		}
		if said == "" {
			return out.Bytes(), err
		}
		return out.Bytes(), &ghError{said: said, err: err}
	}
	return out.Bytes(), nil
}

// ghError is gh's failure, with the last line it wrote.
type ghError struct {
	said string
	err  error
}

func (e *ghError) Error() string { return "gh: " + e.said }
func (e *ghError) Unwrap() error { return e.err }

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// runShares lists the record of shares, newest first.
func runShares(opt *options, u *ui) error {
	list, warnings, err := readShares()
	if err != nil {
		return err
	}
	for _, w := range warnings {
		u.warn(session.Warning{Text: w})
	}
	if opt.json {
		if list == nil {
			list = []*shareRecord{}
		}
		enc := json.NewEncoder(u.out)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	if len(list) == 0 {
		dir, _ := sharesDir()
		printf(u.out, "No shares in %s yet: piexport --share SESSION.jsonl shares one.", dir)
		return nil
	}
	home, _ := os.UserHomeDir()
	for i, r := range list {
		if i > 0 {
			fmt.Fprintln(u.out)
		}
		state := "up"
		if !r.Deleted.IsZero() {
			state = "deleted " + r.Deleted.UTC().Format("2006-01-02 15:04") + " UTC"
		}
		printf(u.out, "%s  shared %s UTC, %s", r.GistID, r.Shared.UTC().Format("2006-01-02 15:04"), state)
		printf(u.out, "  url      %s", r.URL)
		printf(u.out, "  title    %s", r.Title)
		sess := session.ShortenHome(r.Session, home)
		if r.SessionID != "" {
			sess += " (" + r.SessionID + ")"
		}
		printf(u.out, "  session  %s", sess)
		printf(u.out, "  masked   %s", maskedSummary(r))
		files := strings.Join(r.Files, ", ")
		if r.Encrypted {
			files += " (encrypted)"
		}
		printf(u.out, "  files    %s", files)
	}
	return nil
}

// maskedSummary says what a share masked, as a page's header does.
func maskedSummary(r *shareRecord) string {
	red := session.Redaction{Secrets: true, Values: r.Masked, Places: r.Places, Home: r.Home, Images: r.Images}
	return red.Summary()
}

// findShare is the share of list whose gist id is id, else the one
// whose id starts with id, as --leaf takes an entry's; nil when none
// does. A start that several ids share is a usage error that lists them.
func findShare(list []*shareRecord, id string) (*shareRecord, error) {
	if id == "" {
		return nil, nil
	}
	var found []*shareRecord
	for _, r := range list {
		switch {
		case r.GistID == id:
			return r, nil
		case strings.HasPrefix(r.GistID, id) && !slices.ContainsFunc(found, func(f *shareRecord) bool { return f.GistID == r.GistID }):
			found = append(found, r)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	var ids []string
	for _, r := range found {
		ids = append(ids, r.GistID)
	}
	slices.Sort(ids)
	return nil, usagef("%s start with %q: %s; give more of the id", count(len(found), "share's id", "shares' ids"), id, strings.Join(ids, ", "))
}

// runUnshare deletes the gist of a share and marks it deleted.
func runUnshare(ctx context.Context, opt *options, u *ui) error {
	want := opt.sharing.unshare
	if u, err := url.Parse(want); err == nil && u.Scheme == "https" {
		want = gistIDOf(u)
	}
	list, _, err := readShares()
	if err != nil {
		return err
	}
	found, err := findShare(list, want)
	if err != nil {
		return err
	}
	if found == nil {
		return fmt.Errorf("no share with the id or URL %q in the record (piexport --shares lists them); a gist piexport did not make is deleted with gh gist delete", opt.sharing.unshare)
	}
	if !found.Deleted.IsZero() {
		printf(u.out, "%s was deleted on %s; nothing to do", found.URL, found.Deleted.UTC().Format("2006-01-02"))
		return nil
	}
	gh, err := checkGH(ctx)
	if err != nil {
		return err
	}
	_, err = gh.run(ctx, "gist", "delete", found.GistID, "--yes")
	var ge *ghError
	if errors.As(err, &ge) && strings.Contains(ge.said, "unknown flag: --yes") {
		// An older gh deletes without asking, and knows no --yes.
		_, err = gh.run(ctx, "gist", "delete", found.GistID)
	}
	gone := errors.As(err, &ge) && (strings.Contains(ge.said, "404") || strings.Contains(strings.ToLower(ge.said), "not found"))
	if err != nil && !gone {
		return fmt.Errorf("gh could not delete the gist %s, so the record still has it: %w", found.URL, err)
	}
	found.Deleted = time.Now().UTC()
	if err := writeShare(found); err != nil {
		return fmt.Errorf("the gist %s was deleted, but %w", found.URL, err)
	}
	if gone {
		printf(u.out, "%s was already gone from GitHub; marked deleted in the record", found.URL)
		return nil
	}
	printf(u.out, "deleted %s", found.URL)
	return nil
}
