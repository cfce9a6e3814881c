package teamcatalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/piexport/piexport/catalog"
)

// maxCandidates bounds the matching entries a search ranks: the newest
// ones, as the local catalog ranks the newest thousand.
const maxCandidates = 1000

// SearchPage runs q, in the local catalog's query language (see
// catalog.ParseQuery), over the sessions the role may read, and returns
// the hits ranked offset to offset+limit-1. The newest matching entries
// are ranked by PostgreSQL's ts_rank, not by the local catalog's BM25,
// newest first among equals.
func (c *Catalog) SearchPage(ctx context.Context, q string, offset, limit int) (catalog.Results, error) {
	pq := catalog.ParseQuery(q)
	res := catalog.Results{Offset: offset, Words: pq.MarkWords()}
	tsq := tsQuery(pq)
	if tsq == "" {
		return res, nil
	}
	args := []any{tsq}
	where := []string{`e.words @@ $1::tsquery`}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	for _, p := range pq.Project {
		where = append(where, `strpos(lower(s.cwd), `+arg(p)+`) > 0`)
	}
	for _, m := range pq.Model {
		where = append(where, `EXISTS (SELECT FROM jsonb_array_elements_text(s.summary->'Models') m WHERE strpos(lower(m), `+arg(m)+`) > 0)`)
	}
	if !pq.After.IsZero() {
		where = append(where, `e.at >= `+arg(pq.After))
	}
	if !pq.Before.IsZero() {
		where = append(where, `e.at < `+arg(pq.Before))
	}
	rows, err := c.db.pool.Query(ctx, `WITH found AS (
			SELECT s.key, e.entry_id, e.role, e.at, e.line, e.text, e.words, s.summary->>'Leaves' AS leaves
			FROM piexport.entries e JOIN piexport.sessions s ON s.sid = e.sid
			WHERE `+strings.Join(where, " AND ")+`
			ORDER BY e.at DESC NULLS LAST LIMIT `+fmt.Sprint(maxCandidates)+`)
		SELECT key, entry_id, role, at, line, text, coalesce(leaves::integer, 1) FROM found
		ORDER BY ts_rank(words, $1::tsquery) DESC, at DESC NULLS LAST, key, line`, args...)
	if err != nil {
		return res, c.db.wrap(err)
	}
	defer rows.Close()
	sessions := map[string]bool{}
	for rows.Next() {
		var h catalog.Hit
		var at pgtype.Timestamptz
		var text string
		if err := rows.Scan(&h.Key, &h.EntryID, &h.Role, &at, &h.Line, &text, &h.Branches); err != nil {
			return res, c.db.wrap(err)
		}
		if at.Valid {
			h.Time = at.Time
			if res.Oldest.IsZero() || h.Time.Before(res.Oldest) {
				res.Oldest = h.Time
			}
		}
		sessions[h.Key] = true
		if res.Total >= offset && len(res.Hits) < limit {
			h.Snippet, h.Marks = pq.Snippet(text)
			res.Hits = append(res.Hits, h)
		}
		res.Total++
	}
	if err := rows.Err(); err != nil {
		return res, c.db.wrap(err)
	}
	res.Sessions, res.More = len(sessions), res.Total == maxCandidates
	return res, nil
}

// tsQuery is the query's terms as a tsquery: words to &, a phrase to
// <->, a prefix to :*, a word to leave out to !. Its lexemes are the
// index's words, quoted, so that nothing in them is syntax. "" when the
// query has no word to find.
func tsQuery(pq catalog.ParsedQuery) string {
	if len(pq.Terms) == 0 {
		return ""
	}
	term := func(t catalog.QueryTerm) string {
		parts := make([]string, len(t.Words))
		for i, w := range t.Words {
			parts[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(w, `\`, `\\`), "'", "''") + "'"
		}
		if t.Prefix {
			parts[len(parts)-1] += ":*"
		}
		return "(" + strings.Join(parts, " <-> ") + ")"
	}
	var all []string
	for _, t := range pq.Terms {
		all = append(all, term(t))
	}
	for _, t := range pq.Not {
		all = append(all, "!"+term(t))
	}
	return strings.Join(all, " & ")
}
