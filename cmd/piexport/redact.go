package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/redact"
	"github.com/piexport/piexport/session"
)

// redactFlags are the flags that mask what a session shows.
type redactFlags struct {
	redact   bool     // --redact
	literals []string // --redact-literal
	file     string   // --redact-file
	report   bool     // --redact-report
	noImages bool     // --no-images
}

func (r *redactFlags) define(fs *pflag.FlagSet) {
	fs.BoolVar(&r.redact, "redact", false, "mask secrets (keys, tokens, passwords, private keys), show the home directory as ~ and your user name as user; the report goes to standard error")
	fs.StringArrayVar(&r.literals, "redact-literal", nil, "also mask `TEXT` wherever it appears, in any case and script (repeatable; implies --redact)")
	fs.StringVar(&r.file, "redact-file", "", "also mask each line of `FILE` (implies --redact)")
	fs.BoolVar(&r.report, "redact-report", false, "print what --redact would mask (rule, entry, line, a masked preview) and counts per rule; write nothing else")
	fs.BoolVar(&r.noImages, "no-images", false, "leave images out: each becomes the text [image removed]")
}

// on says whether sessions are to be masked at all.
func (r *redactFlags) on() bool {
	return r.redact || r.report || len(r.literals) > 0 || r.file != "" || r.noImages
}

// masks says whether secrets are masked (and reported), not only images
// left out.
func (r *redactFlags) masks() bool {
	return r.redact || len(r.literals) > 0 || r.file != ""
}

// newRedactor returns the redactor the flags ask for, or nil for none.
func (r *redactFlags) newRedactor() (*redact.Redactor, error) {
	if !r.on() {
		return nil, nil
	}
	opt := redact.Options{NoImages: r.noImages, Literals: r.literals}
	if r.file != "" {
		words, err := readLiterals(r.file)
		if err != nil {
			return nil, err
		}
		opt.Literals = append(opt.Literals, words...)
	}
	if r.masks() || r.report {
		opt.Secrets = true
		opt.Home, opt.Users = homeAndUsers()
	}
	return redact.New(opt)
}

// readLiterals reads --redact-file: one literal per line; blank lines are
// skipped, and spaces at the ends of a line are not part of it.
func readLiterals(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--redact-file: %w", err)
	}
	defer f.Close()
	var words []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if w := strings.TrimSpace(sc.Text()); w != "" {
			words = append(words, w)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("--redact-file %s: %w", path, err)
	}
	return words, nil
}

// homeAndUsers returns the home directory and the names the user goes by
// on this machine.
func homeAndUsers() (string, []string) {
	home, _ := os.UserHomeDir()
	var users []string
	if u, err := user.Current(); err == nil {
		name := u.Username
		if i := strings.LastIndexByte(name, '\\'); i >= 0 {
			name = name[i+1:] // DOMAIN\name on Windows
		}
		users = append(users, name)
	}
	for _, env := range []string{"USER", "LOGNAME", "USERNAME"} {
		if v := os.Getenv(env); v != "" {
			users = append(users, v)
		}
	}
	if home != "" {
		users = append(users, filepath.Base(home))
	}
	return home, users
}

// maskFamily loads the transcripts of the sub-agents of s, read from
// file, warning about what cannot be read, and masks s and them as one
// family (session.Family), with what is found in the rest of it (the
// session s was forked from, its forks, theirs), which is read for that
// alone. It reports each session masked: on standard output for
// --redact-report, else on standard error (the counts only under -q).
// Without masking it only loads the sub-agents. It returns them and the
// reports.
func maskFamily(opt *options, s *session.Session, file string, u *ui) ([]*session.SubAgent, groupReports, error) {
	agents, warnings := session.LoadSubAgents(file)
	u.warn(warnings...)
	shown := map[string]*session.Session{}
	members := session.Family(file)
	for _, gs := range append([]*session.Session{s}, agentSessions(agents)...) {
		if gs != s {
			u.warn(gs.Warnings...)
		}
		abs, err := filepath.Abs(gs.File)
		if err != nil {
			abs = gs.File
		}
		shown[abs] = gs
		if !slices.Contains(members, abs) {
			members = append(members, abs)
		}
	}
	if opt.redactor == nil {
		return agents, nil, nil
	}
	reports := maskMembers(opt.redactor, members, shown)
	session.RenameSubAgents(agents)
	if err := writeRedactReports(opt, reports, u); err != nil {
		return nil, nil, err
	}
	return agents, reports, nil
}

// maskMembers masks the sessions of one family that shown holds, by their
// files' absolute paths: members lists the family's files in its order
// (session.Family), in which the values found are numbered, so that a
// family's placeholders are the same in every output. The members not
// shown are loaded one at a time, searched for what they have to mask in
// the others, and dropped; one that cannot be read has nothing to give.
// It returns the reports of those masked, in the family's order.
func maskMembers(red *redact.Redactor, members []string, shown map[string]*session.Session) groupReports {
	founds := make([]session.Finding, 0, len(members))
	var masked []*session.Session
	for _, m := range members {
		if s := shown[m]; s != nil {
			founds = append(founds, red.Find(s))
			masked = append(masked, s)
		} else if s, err := session.Load(m); err == nil {
			founds = append(founds, red.Find(s).Kept())
		}
	}
	reports := make(groupReports, len(masked))
	for i, s := range masked {
		reports[i] = red.MaskAndReport(s, founds)
	}
	return reports
}

// writeRedactReports prints what was masked: on standard output for
// --redact-report, else on standard error, the counts only under -q.
func writeRedactReports(opt *options, reports groupReports, u *ui) error {
	for _, rep := range reports {
		var err error
		switch {
		case opt.redact.report:
			err = rep.WriteText(u.out, false)
		case !opt.redact.masks():
			// --no-images alone
		default:
			err = rep.WriteText(u.err, u.quiet)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// groupReports are the reports of sessions masked as one group.
type groupReports []*redact.Report

// values counts the values masked in the group by rule: a value masked
// in several of its sessions, under one placeholder, counts once.
func (g groupReports) values() map[string]int {
	seen := map[string]bool{}
	out := map[string]int{}
	for _, r := range g {
		for _, f := range r.Findings {
			if !seen[f.Placeholder] {
				seen[f.Placeholder] = true
				out[f.Rule]++
			}
		}
	}
	return out
}

// writeReports prints --redact-report for every session under opt.files,
// family by family, each masked with its family as an export masks it:
// the sessions listed and their sub-agents' transcripts are reported,
// the rest of their families only searched.
func writeReports(opt *options, u *ui) error {
	files, err := catalog.Find(opt.files)
	if err != nil {
		return pathsError(opt.files, err)
	}
	if len(files) == 0 {
		return noSessionFiles(opt.files)
	}
	listed := map[string]bool{}
	for _, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			listed[abs] = true
		}
	}
	// A sub-agent's transcript is reported with a session listed.
	reported := func(p string) bool {
		for ok := true; ok; p, ok = session.SubAgentParent(p, session.IsFile) {
			if listed[p] {
				return true
			}
		}
		return false
	}
	var families session.Families
	done := map[string]bool{}
	for _, file := range files {
		abs, err := filepath.Abs(file)
		if err != nil || done[abs] {
			continue
		}
		members := families.Of(file)
		shown := map[string]*session.Session{}
		for _, m := range members {
			done[m] = true
			if !reported(m) {
				continue
			}
			s, err := session.Load(m)
			if err != nil {
				if listed[m] {
					return err
				}
				printf(u.err, "warning: %s: this sub-agent transcript is left out: %v", m, err)
				continue
			}
			u.warn(s.Warnings...)
			shown[m] = s
		}
		if err := writeRedactReports(opt, maskMembers(opt.redactor, members, shown), u); err != nil {
			return err
		}
	}
	return nil
}

// reportLog gathers the reports of an archive's sessions, which are
// masked on several goroutines, and prints them: one line for each
// session with something masked (through standard error, which clears
// the progress line first), then the totals (these only, under -q).
type reportLog struct {
	mu      sync.Mutex
	w       io.Writer
	quiet   bool
	on      bool
	values  int
	places  int
	reports int
}

func newReportLog(opt *options, u *ui) *reportLog {
	return &reportLog{w: u.err, quiet: u.quiet, on: opt.redact.masks()}
}

func (l *reportLog) add(r *redact.Report) {
	if !l.on {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reports++
	l.values += r.Values()
	l.places += len(r.Findings)
	if !l.quiet && r.Values() > 0 {
		printf(l.w, "%s: %s", r.File, r.Summary())
	}
}

// addSession adds a session masked without its report (an archive's):
// the counts its Redaction keeps.
func (l *reportLog) addSession(s *session.Session) {
	if !l.on {
		return
	}
	values, places, line := redact.Summarize(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reports++
	l.values += values
	l.places += places
	if !l.quiet && values > 0 {
		printf(l.w, "%s: %s", s.File, line)
	}
}

func (l *reportLog) done() {
	if l.on && l.reports > 0 {
		fmt.Fprintf(l.w, "redaction: %s masked in %s, in %s written\n", count(l.values, "value", "values"), count(l.places, "place", "places"), count(l.reports, "session", "sessions"))
	}
}
