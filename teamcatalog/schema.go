package teamcatalog

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// SchemaVersion is the version of the schema this build reads and writes.
// A database at a later version was migrated by a newer piexport, whose
// rows this one may misread: it stops.
const SchemaVersion = 1

// MemberRole is the role whose members may push to the catalog and read
// it: GRANT piexport_member TO alice.
const MemberRole = "piexport_member"

// migrations takes the schema from version i to version i+1. A step is
// never changed once released: a change is a new step.
//
// Every row carries its owner (the role that pushed it, current_user, which
// a member cannot set to anyone else) and its visibility; the children of
// a session name it by (sid, owner, visibility), so that a row cannot be
// filed under another's session, and a change of visibility reaches them
// all. Row-level security does the rest, in the database: a member reads
// the team's rows and their own private ones, and writes only their own.
var migrations = []string{
	// 1: sessions, their masked text, their index and their usage.
	`CREATE SCHEMA piexport;
	CREATE TABLE piexport.version (version integer NOT NULL);
	INSERT INTO piexport.version VALUES (0);

	CREATE TABLE piexport.sessions (
		sid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
		key text NOT NULL UNIQUE,
		owner name NOT NULL DEFAULT current_user,
		machine text NOT NULL,
		session_id text NOT NULL,
		visibility text NOT NULL DEFAULT 'team' CHECK (visibility IN ('team', 'private')),
		source text NOT NULL,
		source_size bigint NOT NULL,
		source_mtime timestamptz NOT NULL,
		path text NOT NULL,
		cwd text NOT NULL,
		parent_session text NOT NULL,
		summary jsonb NOT NULL,
		size bigint NOT NULL,
		hash text NOT NULL,
		lines integer NOT NULL,
		pushed timestamptz NOT NULL DEFAULT now(),
		UNIQUE (owner, machine, session_id),
		UNIQUE (sid, owner, visibility)
	);
	CREATE INDEX sessions_by_machine ON piexport.sessions (owner, machine);

	CREATE TABLE piexport.parts (
		sid bigint NOT NULL,
		owner name NOT NULL DEFAULT current_user,
		visibility text NOT NULL,
		off bigint NOT NULL,
		data bytea NOT NULL,
		PRIMARY KEY (sid, off),
		FOREIGN KEY (sid, owner, visibility) REFERENCES piexport.sessions (sid, owner, visibility)
			ON DELETE CASCADE ON UPDATE CASCADE
	);

	CREATE TABLE piexport.entries (
		sid bigint NOT NULL,
		owner name NOT NULL DEFAULT current_user,
		visibility text NOT NULL,
		line integer NOT NULL,
		part integer NOT NULL,
		entry_id text NOT NULL,
		role text NOT NULL,
		at timestamptz,
		branch integer NOT NULL,
		text text NOT NULL,
		words tsvector NOT NULL,
		PRIMARY KEY (sid, line, part),
		FOREIGN KEY (sid, owner, visibility) REFERENCES piexport.sessions (sid, owner, visibility)
			ON DELETE CASCADE ON UPDATE CASCADE
	);
	CREATE INDEX entries_words ON piexport.entries USING gin (words);
	CREATE INDEX entries_at ON piexport.entries (at DESC);

	CREATE TABLE piexport.usage (
		sid bigint NOT NULL,
		owner name NOT NULL DEFAULT current_user,
		visibility text NOT NULL,
		day date NOT NULL,
		model text NOT NULL,
		messages integer NOT NULL,
		input bigint NOT NULL,
		output bigint NOT NULL,
		cache_read bigint NOT NULL,
		cache_write bigint NOT NULL,
		cost double precision NOT NULL,
		PRIMARY KEY (sid, day, model),
		FOREIGN KEY (sid, owner, visibility) REFERENCES piexport.sessions (sid, owner, visibility)
			ON DELETE CASCADE ON UPDATE CASCADE
	);

	DO $$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'piexport_member') THEN
			CREATE ROLE piexport_member NOLOGIN;
		END IF;
	END $$;
	GRANT USAGE ON SCHEMA piexport TO piexport_member;
	GRANT SELECT ON piexport.version TO piexport_member;
	GRANT SELECT, INSERT, UPDATE, DELETE ON piexport.sessions, piexport.parts, piexport.entries, piexport.usage TO piexport_member;

	DO $$
	DECLARE t text;
	BEGIN
		FOREACH t IN ARRAY ARRAY['sessions', 'parts', 'entries', 'usage'] LOOP
			EXECUTE format('ALTER TABLE piexport.%I ENABLE ROW LEVEL SECURITY', t);
			EXECUTE format($p$CREATE POLICY readable ON piexport.%I FOR SELECT
				USING (visibility = 'team' OR owner = current_user)$p$, t);
			EXECUTE format('CREATE POLICY own_insert ON piexport.%I FOR INSERT WITH CHECK (owner = current_user)', t);
			EXECUTE format('CREATE POLICY own_update ON piexport.%I FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user)', t);
			EXECUTE format('CREATE POLICY own_delete ON piexport.%I FOR DELETE USING (owner = current_user)', t);
		END LOOP;
	END $$;`,
}

// NewerSchemaError reports a database migrated by a newer piexport.
type NewerSchemaError struct {
	Found int
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("the shared catalog's schema is at version %d, newer than this piexport knows (%d): install a newer piexport", e.Found, SchemaVersion)
}

// version reads the schema's version: 0 for a database without one. It
// asks whether the table is there first, so as not to fail a
// transaction it runs in.
func version(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (int, error) {
	var there bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('piexport.version') IS NOT NULL`).Scan(&there); err != nil || !there {
		return 0, err
	}
	var v int
	err := q.QueryRow(ctx, `SELECT version FROM piexport.version`).Scan(&v)
	return v, err
}

// migrate brings the schema to SchemaVersion in one transaction,
// under a lock that keeps two piexports from migrating at once. It
// reports the version the database was at.
func migrate(ctx context.Context, conn *pgx.Conn) (int, error) {
	var from int
	err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		// The lock's key is an arbitrary constant of this program's.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7013730125)`); err != nil {
			return err
		}
		v, err := version(ctx, tx)
		if err != nil {
			return err
		}
		from = v
		if v > SchemaVersion {
			return &NewerSchemaError{Found: v}
		}
		for ; v < SchemaVersion; v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating the schema to version %d: %w", v+1, err)
			}
		}
		_, err = tx.Exec(ctx, `UPDATE piexport.version SET version = $1`, SchemaVersion)
		return err
	})
	return from, err
}
