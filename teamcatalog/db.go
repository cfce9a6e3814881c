// Package teamcatalog keeps a team's sessions in a shared PostgreSQL
// database: every member pushes their sessions from each of their
// machines, masked before they leave it, and reads everyone's (the team's
// and their own private ones) through the same server, search and usage
// report as the local catalog (package catalog) offers.
//
// Who reads what rests on PostgreSQL's own roles and row-level security:
// each row carries the role that pushed it and its visibility, and the
// database, not this package, decides what a connection sees. The schema
// is made and migrated here (schema.go), its version recorded in the
// database.
//
// A session is stored as its masked text (the JSONL file with every value
// the redact rules find replaced by its placeholder), cut in parts so that
// a push of a grown file sends only what was appended, with the rows a
// search needs (each entry's text and its words, made in Go as the local
// catalog makes them, as a tsvector) and its usage rows.
//
// docs/shared-catalog.md says how this maps the local catalog onto
// PostgreSQL.
package teamcatalog

import (
	"context"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is a connection pool to a shared catalog.
type DB struct {
	pool *pgxpool.Pool
	// secret is the connection string's password, which no error may
	// show; where names the database for people: host and name.
	secret string
	where  string
}

// IsURL reports whether s is a connection string of a shared catalog
// rather than a directory.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Connect opens a pool to the database at url and checks that it can be
// reached. It neither makes nor checks the schema: see Init and Check.
// Its errors never hold the connection string's password.
func Connect(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("the connection string of the shared catalog cannot be read: %s", hidePasswords(errText(err), ""))
	}
	db := &DB{secret: cfg.ConnConfig.Password, where: where(cfg.ConnConfig)}
	// A member's server and pushes run a few queries at once: a small
	// pool, not one sized for the cores.
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, db.wrap(err)
	}
	db.pool = pool
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, db.wrap(err)
	}
	return db, nil
}

// Close closes the pool.
func (db *DB) Close() { db.pool.Close() }

// Where names the database for people: its host (or socket directory),
// port and name, never the password.
func (db *DB) Where() string { return db.where }

func where(c *pgx.ConnConfig) string {
	host := c.Host
	if strings.HasPrefix(host, "/") {
		host = "socket " + host
	} else {
		host = net.JoinHostPort(host, fmt.Sprint(c.Port))
	}
	return fmt.Sprintf("database %s on %s", c.Database, host)
}

// Init makes the schema, or migrates it to this build's version, and the
// role piexport_member: what the database's owner runs once, and again
// after an upgrade of piexport. It reports the version the database was
// at (0 for none).
func (db *DB) Init(ctx context.Context) (int, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return 0, db.wrap(err)
	}
	defer conn.Release()
	from, err := migrate(ctx, conn.Conn())
	var newer *NewerSchemaError
	if errors.As(err, &newer) {
		return from, err
	}
	if err != nil {
		return from, db.wrap(err)
	}
	return from, nil
}

// Check makes the schema of an empty database (its first member then
// needs the rights to make it and the role), and stops with one sentence
// on a schema of another version: a newer one needs a newer piexport, an
// older one the owner's --init.
func (db *DB) Check(ctx context.Context) error {
	v, err := version(ctx, db.pool)
	if err != nil {
		return db.wrap(err)
	}
	switch {
	case v == SchemaVersion:
		return nil
	case v > SchemaVersion:
		return &NewerSchemaError{Found: v}
	case v == 0:
		if _, err := db.Init(ctx); err != nil {
			return fmt.Errorf("%s holds no piexport catalog, and making one failed (the database's owner makes it with --init): %w", db.where, err)
		}
		return nil
	}
	return fmt.Errorf("the shared catalog's schema is at version %d, older than this piexport's (%d): the database's owner migrates it with piexport --catalog URL --init", v, SchemaVersion)
}

// ErrUnreachable reports a database that cannot be reached.
var ErrUnreachable = errors.New("the shared catalog cannot be reached")

// wrap makes err one sentence that names the database, without its
// password: a database that cannot be reached says so (ErrUnreachable).
func (db *DB) wrap(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := hidePasswords(errText(err), db.secret)
	if unreachable(err) {
		return &dbError{msg: fmt.Sprintf("the shared catalog (%s) cannot be reached: %s", db.where, msg), unreachable: true}
	}
	return &dbError{msg: fmt.Sprintf("the shared catalog (%s): %s", db.where, msg)}
}

// dbError is an error of the database, its text cleared of passwords.
type dbError struct {
	msg         string
	unreachable bool
}

func (e *dbError) Error() string { return e.msg }

func (e *dbError) Is(target error) bool { return target == ErrUnreachable && e.unreachable }

// unreachable says err is about reaching the server, not about a query.
func unreachable(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ENOENT) || pgconn.SafeToRetry(err) || errors.Is(err, net.ErrClosed)
}

// errText is err's text, with PostgreSQL's own detail where it gives one.
func errText(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	return err.Error()
}

// userinfoPassword finds a URL's password; keywordPassword a keyword
// connection string's.
var (
	userinfoPassword = regexp.MustCompile(`(://[^:/@\s]*):[^@\s]*@`)
	keywordPassword  = regexp.MustCompile(`(?i)(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)`)
)

// hidePasswords removes passwords from text: secret wherever it appears,
// and whatever stands where a connection string holds one.
func hidePasswords(text, secret string) string {
	if secret != "" {
		text = strings.ReplaceAll(text, secret, "xxxxx")
	}
	text = userinfoPassword.ReplaceAllString(text, "$1:xxxxx@")
	return keywordPassword.ReplaceAllString(text, "${1}xxxxx")
}
