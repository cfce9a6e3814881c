package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/humanize"
	"github.com/piexport/piexport/internal/progressline"
	"github.com/piexport/piexport/internal/termsafe"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/teamcatalog"
	"github.com/piexport/piexport/usage"
)

// checkUsage checks the flags that go with --usage, and turns --since
// into a date.
func (opt *options) checkUsage(fs *pflag.FlagSet) error {
	if !opt.usage {
		for _, name := range []string{"since", "by", "json"} {
			if fs.Changed(name) && !(name == "json" && opt.sharing.list) {
				return usagef("--%s goes with --usage", name)
			}
		}
		return nil
	}
	switch {
	case opt.serve || opt.output != "" || opt.leaf != "" || fs.Changed("format") || opt.redact.report:
		return usagef("--usage prints a report and writes nothing; it takes no --serve, -o, --leaf, --format or --redact-report")
	case !slices.Contains(usage.Groupings, usage.By(opt.by)):
		return usagef("--by must be day, week, month, project, model or person, not %q", opt.by)
	case opt.by == string(usage.ByPerson) && opt.team.catalog == "":
		return usagef("--by person groups a shared catalog's usage by who pushed it: it goes with --catalog URL")
	}
	if opt.since != "" {
		day, err := usage.ParseDate(opt.since)
		if err != nil {
			return usagef("--since: %v", err)
		}
		opt.since = day
	}
	return nil
}

// runUsage prints the usage report of the sessions under opt.files, or of
// the default session directories. It reads them through the catalog, so
// a second report costs a look at the files' stamps and one query.
func runUsage(ctx context.Context, opt *options, u *ui) error {
	if opt.team.catalog != "" {
		return runTeamUsage(ctx, opt, u)
	}
	paths := opt.files
	if len(paths) == 0 {
		if paths = defaultRoots(u); len(paths) == 0 {
			return fmt.Errorf("no pi sessions in %s; name the session files or directories to count", catalog.DefaultRootsHelp)
		}
	}
	copt := catalog.Options{
		CacheDir: opt.cache(),
		Warn:     func(msg string) { u.warn(session.Warning{Text: msg}) },
	}
	if red := opt.redactor; red != nil {
		// Masked before the catalog keeps anything, as the server's:
		// projects, models, and the cache itself.
		copt.Mask = red
	}
	c, err := catalog.OpenOrInMemory(ctx, paths, copt)
	if err != nil {
		return pathsError(paths, err)
	}
	defer c.Close()
	if err := updateWithProgress(ctx, c, readProgress(u)); err != nil {
		return err
	}
	list := c.List()
	var failed []error
	for _, i := range list {
		if i.Err != nil {
			failed = append(failed, i.Err)
		}
	}
	switch {
	case len(list) == 0:
		return noSessionFiles(paths)
	case len(failed) == len(list):
		// Nothing to count: say why each could not be read, and fail.
		for _, err := range failed {
			printf(u.err, "piexport: %v", err)
		}
		return couldNotRead(len(failed), len(list))
	}
	if len(failed) > 0 && !u.quiet {
		fmt.Fprintf(u.err, "piexport: %s; %s not counted\n",
			humanize.CouldNotRead(len(failed)), map[bool]string{true: "it is", false: "they are"}[len(failed) == 1])
	}
	records, err := c.Usage(ctx, opt.since)
	if err != nil {
		return err
	}
	sessions, agents, _ := catalog.Counted(list)
	return writeUsage(opt, u, records, sessions, agents)
}

// runTeamUsage prints the usage report of a shared catalog: the sessions
// every member may read, with who pushed each (--by person).
func runTeamUsage(ctx context.Context, opt *options, u *ui) error {
	shared, err := teamcatalog.Open(ctx, opt.team.catalog)
	if err != nil {
		return err
	}
	defer shared.Close()
	records, people, err := shared.UsageByPerson(ctx, opt.since)
	if err != nil {
		return err
	}
	for i := range records {
		records[i].Person = people[i]
	}
	sessions, agents, _ := catalog.Counted(shared.List())
	return writeUsage(opt, u, records, sessions, agents)
}

// writeUsage groups records as --by asks and prints them, as text or
// JSON; sessions and agents count the files they come from.
func writeUsage(opt *options, u *ui, records []usage.Record, sessions, agents int) error {
	rep := usage.NewReport(records, usage.By(opt.by))
	if rep.By == usage.ByProject {
		home, _ := os.UserHomeDir()
		for i, g := range rep.Groups {
			rep.Groups[i].Key = projectName(g.Key, home)
		}
	}
	if opt.json {
		return writeUsageJSON(u.out, rep, opt.since)
	}
	return writeUsageText(u.out, rep, opt.since, sessions, agents)
}

// projectName is how the report names a working directory: home as ~.
// (Under --redact the catalog has masked it already.)
func projectName(cwd, home string) string {
	if cwd == "" {
		return ""
	}
	return session.ShortenHome(cwd, session.HomeOf(cwd, home))
}

// updateWithProgress reads the files the catalog lacks, telling progress
// (when not nil) how far it is every quarter of a second and when it is
// done.
func updateWithProgress(ctx context.Context, c *catalog.Catalog, progress func(catalog.Progress)) error {
	if progress == nil {
		_, err := c.Update(ctx)
		return err
	}
	_, err := c.UpdateTelling(ctx, progressline.Every, progress)
	if err == nil {
		if p := c.Progress(); p.Files > 0 {
			progress(p)
		}
	}
	return err
}

// writeUsageText prints the report of the sessions and sub-agents read
// (counted as the server and the index count them) as a table, the
// groups' names at the left, figures right-aligned: tokens in full,
// costs as every page shows them. The table counts the sessions with
// model work; the head says how many did none, so that the figures add
// up to those the index shows.
func writeUsageText(w io.Writer, rep usage.Report, since string, sessions, agents int) error {
	head := "Usage by " + string(rep.By)
	if since != "" {
		head += " since " + since
	}
	if rep.By.IsPeriod() || since != "" {
		head += " (days in UTC)"
	}
	head += " of " + humanize.Sessions(sessions, agents)
	if len(rep.Groups) == 0 {
		_, err := fmt.Fprintln(w, head+": no model work recorded.")
		return err
	}
	idle := ""
	if s, a := max(0, sessions-rep.Total.Sessions), max(0, agents-rep.Total.SubAgents); s+a > 0 {
		idle = "; " + humanize.Sessions(s, a) + " did no model work"
		if s == 0 {
			idle = "; " + humanize.Count(a, "sub-agent", "sub-agents") + " did no model work"
		}
		if since != "" {
			idle += " since then"
		}
	}
	fmt.Fprintf(w, "%s: %s tokens, %s%s\n\n", head, humanize.Tokens(rep.Total.Tokens()), humanize.Cost(rep.Total.Cost), idle)
	// Sub-agents' transcripts are counted apart from sessions, as the
	// index counts them, in a column of their own when there are any.
	subAgents := rep.Total.SubAgents > 0
	head2 := []string{rep.By.Heading(), "Sessions"}
	if subAgents {
		head2 = append(head2, "Sub-agents")
	}
	table := [][]string{append(head2, "Messages", "Input", "Output", "Cache read", "Cache write", "Tokens", "Cost")}
	row := func(name string, g usage.Group) {
		r := []string{name, progressline.Count(int64(g.Sessions))}
		if subAgents {
			r = append(r, progressline.Count(int64(g.SubAgents)))
		}
		table = append(table, append(r, progressline.Count(int64(g.Messages)),
			progressline.Count(g.Input), progressline.Count(g.Output), progressline.Count(g.CacheRead), progressline.Count(g.CacheWrite), progressline.Count(g.Tokens()), humanize.Cost(g.Cost)))
	}
	for _, g := range rep.Groups {
		row(groupName(rep.By, g.Key), g)
	}
	row("Total", rep.Total)
	widths := make([]int, len(table[0]))
	for _, r := range table {
		for i, cell := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	var b strings.Builder
	for _, r := range table {
		for i, cell := range r {
			gap := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				b.WriteString(cell + gap)
			} else {
				b.WriteString("  " + gap + cell)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupName is how the table names a group: a model's or a project's
// name comes from session files, and is escaped for the terminal.
func groupName(by usage.By, key string) string {
	switch {
	case key == "" && by == usage.ByProject:
		return "(no working directory)"
	case by == usage.ByModel:
		key = humanize.Model(key)
	}
	return termsafe.Escape(key)
}

// usageJSON is the report as --json prints it.
type usageJSON struct {
	By string `json:"by"`
	// Since is the first day counted, "" for all; Days says days are UTC.
	Since  string      `json:"since"`
	Days   string      `json:"days"`
	Groups []groupJSON `json:"groups"`
	Total  groupJSON   `json:"total"`
}

type groupJSON struct {
	Key        string  `json:"key,omitempty"`
	Sessions   int     `json:"sessions"`
	SubAgents  int     `json:"subAgents"`
	Messages   int     `json:"messages"`
	Input      int64   `json:"input"`
	Output     int64   `json:"output"`
	CacheRead  int64   `json:"cacheRead"`
	CacheWrite int64   `json:"cacheWrite"`
	Tokens     int64   `json:"tokens"`
	Cost       float64 `json:"cost"`
}

func groupOf(g usage.Group) groupJSON {
	return groupJSON{Key: g.Key, Sessions: g.Sessions, SubAgents: g.SubAgents, Messages: g.Messages,
		Input: g.Input, Output: g.Output, CacheRead: g.CacheRead, CacheWrite: g.CacheWrite, Tokens: g.Tokens(),
		// Micro-dollars, as pi's own figures: a sum of many floats
		// carries noise in its last digits.
		Cost: math.Round(g.Cost*1e6) / 1e6}
}

func writeUsageJSON(w io.Writer, rep usage.Report, since string) error {
	out := usageJSON{By: string(rep.By), Since: since, Days: "UTC", Groups: []groupJSON{}, Total: groupOf(rep.Total)}
	for _, g := range rep.Groups {
		out.Groups = append(out.Groups, groupOf(g))
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	// Read by programs, shown on terminals: the names stay JSON strings,
	// with the characters a terminal would act on escaped.
	_, err = w.Write(append(termsafe.JSON(b), '\n'))
	return err
}
