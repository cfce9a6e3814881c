package catalog

import (
	"context"
	"encoding/json"
	"fmt"
)

const fileColumns = `fid, path, size, mtime, ctime, inode, sha256, state, anchor, read_size, lines, tail, header,
	session_id, cwd, parent_session, name, first_title, summary, branches, warnings, err`

// scanFile reads a files row selected with fileColumns.
func scanFile(scan func(...any) error) (*fileRow, error) {
	r := &fileRow{}
	var inode int64
	var sum, anchor, summary []byte
	err := scan(&r.FID, &r.Path, &r.Stamp.Size, &r.Stamp.MTime, &r.Stamp.CTime, &inode, &sum, &r.State, &anchor,
		&r.ReadSize, &r.Lines, &r.Tail, &r.Header, &r.SessionID, &r.Cwd, &r.ParentSession, &r.Name, &r.FirstTitle,
		&summary, &r.Branches, &r.Warnings, &r.Err)
	if err != nil {
		return nil, err
	}
	r.Stamp.Inode = uint64(inode)
	// A row whose fixed-size fields are not is damaged: SQLite keeps no
	// checksums, so this is where a few flipped bytes would show.
	if len(sum) != len(r.Sum) || len(anchor) != len(r.Anchor) {
		return nil, fmt.Errorf("%w: the row of %s", errCorrupt, r.Path)
	}
	copy(r.Sum[:], sum)
	copy(r.Anchor[:], anchor)
	if err := json.Unmarshal(summary, &r.Summary); err != nil {
		return nil, fmt.Errorf("%w: the row of %s: %v", errCorrupt, r.Path, err)
	}
	return r, nil
}

// files returns every file's row, by path.
func (st *store) files(ctx context.Context) (map[string]*fileRow, error) {
	rows, err := st.r.QueryContext(ctx, `SELECT `+fileColumns+` FROM files`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*fileRow{}
	for rows.Next() {
		r, err := scanFile(rows.Scan)
		if err != nil {
			return nil, err
		}
		r.Shard = st.shard
		out[r.Path] = r
	}
	return out, rows.Err()
}

// file returns the row of one file, nil if there is none.
func (st *store) file(ctx context.Context, path string) (*fileRow, error) {
	rows, err := st.r.QueryContext(ctx, `SELECT `+fileColumns+` FROM files WHERE path = ?`, path)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, rows.Err()
	}
	r, err := scanFile(rows.Scan)
	if r != nil {
		r.Shard = st.shard
	}
	return r, err
}

// oldEntries returns, by id, what appending to a file needs of its
// entries.
func (st *store) oldEntries(ctx context.Context, fid int64) (map[string]*oldEntry, error) {
	rows, err := st.r.QueryContext(ctx, `SELECT id, parent, branch FROM entries WHERE fid = ?`, fid)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*oldEntry{}
	var parents []string
	for rows.Next() {
		var id, parent string
		var branch int
		if err := rows.Scan(&id, &parent, &branch); err != nil {
			return nil, err
		}
		out[id] = &oldEntry{branch: branch}
		if parent != "" {
			parents = append(parents, parent)
		}
	}
	for _, p := range parents {
		if e := out[p]; e != nil {
			e.hasChild = true
		}
	}
	return out, rows.Err()
}

// dataVersion changes whenever another connection, in this process or
// another, commits a change to the database.
func (st *store) dataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := st.w.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v)
	return v, err
}
