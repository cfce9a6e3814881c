package teamcatalog

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/catalog"
)

// Text returns the masked text of the session with the given key, as its
// parts join, or catalog.ErrNotFound for a session the role may not read.
func (db *DB) Text(ctx context.Context, key string) ([]byte, error) {
	var text []byte
	err := db.pool.QueryRow(ctx, `SELECT coalesce(string_agg(p.data, ''::bytea ORDER BY p.off), ''::bytea)
		FROM piexport.sessions s JOIN piexport.parts p ON p.sid = s.sid WHERE s.key = $1 GROUP BY s.sid`, key).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, catalog.ErrNotFound
	}
	if err != nil {
		return nil, db.wrap(err)
	}
	return text, nil
}
