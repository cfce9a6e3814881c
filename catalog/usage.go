package catalog

import (
	"context"

	"github.com/piexport/piexport/usage"
)

// Usage returns the model work recorded in the catalog's session files,
// one record per file, UTC day and breakdown key, from the day since on
// ("2006-01-02"; "" for all). Only the files the catalog holds and has
// read count: the store may hold other catalogs' files too.
//
// It reads the stores alone, never a session file: on a warm cache a
// report over a whole history is a scan of a few thousand small rows.
func (c *Catalog) Usage(ctx context.Context, since string) ([]usage.Record, error) {
	ids := map[string]usageFile{} // by path, as the stores key files
	c.mu.RLock()
	for _, r := range c.records {
		if r.row != nil && r.row.Err == "" {
			ids[r.row.Path] = usageFile{r.id, r.parent != ""}
		}
	}
	c.mu.RUnlock()
	var out []usage.Record
	for i := range shards {
		st, err := c.store(i)
		if err != nil {
			return nil, err
		}
		records, err := st.usage(ctx, since, ids)
		if err != nil {
			return nil, c.checkStore(i, err)
		}
		out = append(out, records...)
	}
	return out, nil
}

// usageFile is what a usage record says of its file: its id, and whether
// it is a sub-agent's transcript.
type usageFile struct {
	id       string
	subAgent bool
}

// usage reads the usage rows of the files in ids (by path) from the day
// since on, as records of those ids.
func (st *store) usage(ctx context.Context, since string, ids map[string]usageFile) ([]usage.Record, error) {
	rows, err := st.r.QueryContext(ctx, `SELECT f.path, f.cwd, u.day, u.model, u.messages,
			u.input, u.output, u.cache_read, u.cache_write, u.cost
		FROM usage u JOIN files f ON f.fid = u.fid
		WHERE u.day >= ?`, since)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []usage.Record
	var path string
	for rows.Next() {
		var r usage.Record
		err := rows.Scan(&path, &r.Project, &r.Day, &r.Model, &r.Messages,
			&r.Input, &r.Output, &r.CacheRead, &r.CacheWrite, &r.Cost)
		if err != nil {
			return nil, err
		}
		f, ok := ids[path]
		if !ok {
			continue
		}
		r.Session, r.SubAgent = f.id, f.subAgent
		out = append(out, r)
	}
	return out, rows.Err()
}
