package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/internal/progressline"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/teamcatalog"
)

// teamFlags are the flags of a shared catalog on PostgreSQL (package
// teamcatalog).
type teamFlags struct {
	push       string // --push URL
	catalog    string // --catalog URL
	init       bool   // --init
	visibility string // --visibility
}

func (f *teamFlags) define(fs *pflag.FlagSet) {
	fs.StringVar(&f.push, "push", "", "send the sessions under PATH (or the default session directories), always masked as --redact masks them, to the shared catalog at `URL` (postgres://…)")
	fs.StringVar(&f.catalog, "catalog", "", "with --serve, --usage or --init: the shared catalog at `URL` (postgres://…) instead of this machine's sessions")
	fs.BoolVar(&f.init, "init", false, "with --catalog, run by the database's owner: make or migrate the shared catalog's schema and the role piexport_member")
	fs.StringVar(&f.visibility, "visibility", "team", "with --push: `WHO` reads the sessions pushed: team (every member) or private (you alone)")
}

// check checks the flags that go with a shared catalog.
func (f *teamFlags) check(fs *pflag.FlagSet, opt *options) error {
	switch {
	case f.push != "" && !teamcatalog.IsURL(f.push):
		return usagef("--push takes a PostgreSQL connection string (postgres://…)")
	case f.catalog != "" && !teamcatalog.IsURL(f.catalog):
		return usagef("--catalog takes a PostgreSQL connection string (postgres://…)")
	case f.push != "" && (opt.serve || opt.usage || opt.output != "" || f.catalog != "" || f.init || opt.sharing.share || opt.redact.report):
		return usagef("--push sends sessions and writes nothing; it takes no --serve, --usage, -o, --catalog, --init, --share or --redact-report")
	case f.push != "" && opt.redact.noImages:
		return usagef("--push sends images as the session holds them; --no-images does not go with it")
	case f.init && f.catalog == "":
		return usagef("--init goes with --catalog URL")
	case f.init && (opt.serve || opt.usage || len(opt.files) > 0):
		return usagef("--init makes the shared catalog's schema and does nothing else; it takes no --serve, --usage or PATH")
	case f.catalog != "" && !f.init && !opt.serve && !opt.usage:
		return usagef("--catalog goes with --serve, --usage or --init")
	case f.catalog != "" && opt.redact.on():
		return usagef("the shared catalog holds sessions masked when they were pushed; --redact and its flags do not go with --catalog")
	case f.catalog != "" && len(opt.files) > 0:
		return usagef("--catalog reads the shared catalog, not files: it takes no PATH")
	case fs.Changed("visibility") && f.push == "":
		return usagef("--visibility goes with --push")
	case f.visibility != "team" && f.visibility != "private":
		return usagef("--visibility must be team or private, not %q", f.visibility)
	}
	return nil
}

// runInit makes or migrates the shared catalog's schema.
func runInit(ctx context.Context, opt *options, stdout io.Writer) error {
	db, err := teamcatalog.Connect(ctx, opt.team.catalog)
	if err != nil {
		return err
	}
	defer db.Close()
	from, err := db.Init(ctx)
	if err != nil {
		return err
	}
	switch from {
	case 0:
		fmt.Fprintf(stdout, "made the shared catalog in the %s (schema version %d)\n", db.Where(), teamcatalog.SchemaVersion)
	case teamcatalog.SchemaVersion:
		fmt.Fprintf(stdout, "the shared catalog in the %s is at schema version %d already\n", db.Where(), from)
	default:
		fmt.Fprintf(stdout, "migrated the shared catalog in the %s from schema version %d to %d\n", db.Where(), from, teamcatalog.SchemaVersion)
	}
	fmt.Fprintf(stdout, "members push and read as their own roles: GRANT %s TO alice;\n", teamcatalog.MemberRole)
	return nil
}

// runPush sends the sessions under opt.files, or in the default session
// directories, to the shared catalog, masked.
func runPush(ctx context.Context, opt *options, u *ui) error {
	paths := opt.files
	if len(paths) == 0 {
		if paths = defaultRoots(u); len(paths) == 0 {
			return fmt.Errorf("no pi sessions in %s; name the session files or directories to push", catalog.DefaultRootsHelp)
		}
	}
	files, err := catalog.Find(paths)
	if err != nil {
		return pathsError(paths, err)
	}
	if len(files) == 0 {
		return noSessionFiles(paths)
	}
	// Always masked: the database never sees an unmasked byte.
	flags := opt.redact
	flags.redact = true
	red, err := flags.newRedactor()
	if err != nil {
		return err
	}
	machine, err := os.Hostname()
	if err != nil {
		return fmt.Errorf("this machine's name, which a push files its sessions under: %w", err)
	}
	db, err := teamcatalog.Connect(ctx, opt.team.push)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.Check(ctx); err != nil {
		return err
	}
	stats, err := db.Push(ctx, files, teamcatalog.PushOptions{
		Machine: machine, Visibility: opt.team.visibility, Redactor: red,
		Progress: func(p teamcatalog.PushProgress) {
			u.line.Show("push", joinFigures("pushing "+figure(p.Done, "file", "files")+" of "+progressline.Count(int64(p.Files)),
				progressline.Bytes(p.BytesDone)+" of "+progressline.Bytes(p.Bytes)))
		},
		Warn: func(msg string) { u.warn(session.Warning{Text: msg}) },
	})
	u.line.Clear()
	if err != nil {
		return err
	}
	if !u.quiet {
		line := fmt.Sprintf("pushed %s, %s, %d new", count(stats.Sessions, "session", "sessions"), progressline.Bytes(stats.Bytes), stats.New)
		if stats.Appended > 0 {
			line += fmt.Sprintf(", %d appended to", stats.Appended)
		}
		if stats.Unchanged > 0 {
			line += fmt.Sprintf("; %d unchanged", stats.Unchanged)
		}
		fmt.Fprintf(u.err, "%s (to the %s)\n", line, db.Where())
	}
	if stats.Failed > 0 {
		return fmt.Errorf("%s; the others were pushed", couldNotRead(stats.Failed, len(files)))
	}
	return nil
}
