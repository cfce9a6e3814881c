package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
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
// group (see redact.Redactor.Sessions), with what is found in the rest of
// s's family (session.Family: the session it was forked from, its forks,
// theirs), which are read for that alone. It reports each session
// masked: on standard output for --redact-report, else on standard error
// (the counts only under -q). Without masking it only loads the
// sub-agents. It returns them and the reports.
func maskFamily(opt *options, s *session.Session, file string, stdout, stderr io.Writer) ([]*session.SubAgent, groupReports, error) {
	agents, warnings := session.LoadSubAgents(file)
	printWarnings(stderr, warnings)
	group := []*session.Session{s}
	for _, as := range agentSessions(agents) {
		printWarnings(stderr, as.Warnings)
		group = append(group, as)
	}
	red := opt.redactor
	if red == nil {
		return agents, nil, nil
	}
	shown := map[string]bool{}
	for _, gs := range group {
		if abs, err := filepath.Abs(gs.File); err == nil {
			shown[abs] = true
		}
	}
	var others []*redact.Found
	for _, p := range session.Family(file) {
		if shown[p] {
			continue
		}
		// A relative that cannot be read gives nothing to mask, and is
		// not what is being exported: it goes unmentioned.
		if rs, err := session.Load(p); err == nil {
			others = append(others, red.Find(rs).Values())
		}
	}
	reports := groupReports(red.Sessions(group, others...))
	session.RenameSubAgents(agents)
	for _, rep := range reports {
		var err error
		switch {
		case opt.redact.report:
			err = rep.WriteText(stdout, false)
		case !opt.redact.masks():
			// --no-images alone
		default:
			if q, quiet := stderr.(quietWriter); quiet {
				err = rep.WriteText(q.Writer, true)
			} else {
				err = rep.WriteText(stderr, false)
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return agents, reports, nil
}

// catalogMasking prepares a catalog's sessions as --redact masks them:
// each with what its whole family holds (see catalog.Preparer).
func catalogMasking(red *redact.Redactor) catalog.Preparer {
	return catalog.NewPreparer(red.Find, func(s *session.Session, family []*redact.Found) { red.Mask(s, family) },
		(*redact.Found).Values, (*redact.Found).Same)
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
// each masked with its sub-agents as an export masks it: a sub-agent's
// transcript is reported with its session's, when that is among them.
func writeReports(opt *options, stdout, stderr io.Writer) error {
	files, err := catalog.Find(opt.files)
	if err != nil {
		return pathsError(opt.files, err)
	}
	if len(files) == 0 {
		return noSessionFiles(opt.files)
	}
	listed := map[string]bool{}
	for _, f := range files {
		listed[f] = true
	}
	for _, file := range files {
		if _, ok := session.SubAgentParent(file, func(p string) bool { return listed[p] }); ok {
			continue // reported with its session
		}
		s, err := session.Load(file)
		if err != nil {
			return err
		}
		printWarnings(stderr, s.Warnings)
		if _, _, err := maskFamily(opt, s, file, stdout, stderr); err != nil {
			return err
		}
	}
	return nil
}

// reportLog gathers the reports of an archive's sessions, which are
// masked on several goroutines, and prints them: one line for each
// session with something masked (through the progress bar, which shares
// standard error), then the totals (these only, under -q).
type reportLog struct {
	mu      sync.Mutex
	w       io.Writer
	bar     *progress
	quiet   bool
	on      bool
	values  int
	places  int
	reports int
}

func newReportLog(opt *options, stderr io.Writer, bar *progress) *reportLog {
	l := &reportLog{w: stderr, bar: bar, on: opt.redact.masks()}
	if q, quiet := stderr.(quietWriter); quiet {
		l.w, l.quiet = q.Writer, true
	}
	return l
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
		l.bar.say(l.w, "%s: %s", r.File, r.Summary())
	}
}

func (l *reportLog) done() {
	if l.on && l.reports > 0 {
		fmt.Fprintf(l.w, "redaction: %s masked in %s, in %s written\n", count(l.values, "value", "values"), count(l.places, "place", "places"), count(l.reports, "session", "sessions"))
	}
}
