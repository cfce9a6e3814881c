package catalog

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/piexport/piexport/internal/fileguard"
)

// find looks for files, stats them and matches them with what the store
// holds. Files that are gone leave the catalog (and the store, when they
// no longer exist at all).
func (c *Catalog) find(ctx context.Context, lenient bool) error {
	found, err := find(c.opt.FS, c.paths, lenient)
	if err != nil {
		return err
	}
	if err := c.openRoots(found); err != nil {
		return err
	}
	for i := range shards {
		if err := c.readRows(ctx, i); err != nil {
			return err
		}
	}
	parents := subAgentParents(found)
	stamps := make([]stamp, len(found))
	for k, f := range found {
		if fi, err := c.stat(f); err == nil {
			stamps[k] = stampOf(fi)
		}
	}
	// What each file was forked from joins it to its family: read off
	// the headers of the files that changed.
	var froms []string
	if c.opt.Mask != nil {
		froms = make([]string, len(found))
		for k, f := range found {
			c.mu.RLock()
			r := c.records[idOf(f.key)]
			known := r != nil && r.f.key == f.key && r.fromAt == stamps[k]
			if known {
				froms[k] = r.from
			}
			c.mu.RUnlock()
			if !known {
				froms[k] = c.forkedFrom(f)
			}
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	seen := make(map[string]bool, len(found))
	changed, relinked := false, false
	for k, f := range found {
		id := idOf(f.key)
		for seen[id] {
			// Two paths whose ids collide: so unlikely that a
			// deterministic rename is enough.
			id = idOf(id + f.key)
		}
		seen[id] = true
		r := c.records[id]
		if r == nil {
			r = &record{id: id}
			c.records[id] = r
			changed, relinked = true, true
		}
		if c.opt.Mask != nil && (r.hidden == "" || r.f.path != f.path) {
			r.hidden = c.prepareText(f.path)
		}
		r.f = f
		parent := ""
		if p, ok := parents[f.key]; ok {
			parent = idOf(p)
		}
		if parent != r.parent {
			r.parent, relinked = parent, true
		}
		if froms != nil {
			if froms[k] != r.from {
				relinked = true
			}
			r.from, r.fromAt = froms[k], stamps[k]
		}
		if stamps[k] != r.found {
			r.found = stamps[k]
			changed = true
		}
		if row := c.known[c.rowKey(f.key)]; row != r.row {
			c.setRow(r, row)
			changed = true
		}
	}
	for id, r := range c.records {
		if !seen[id] {
			c.dropRecord(r)
			changed, relinked = true, true
		}
	}
	if changed {
		c.gen.Add(1)
	}
	if relinked {
		c.linkGen.Add(1)
	}
	return nil
}

// readRows reads a shard's rows again if it changed since they were last
// read.
func (c *Catalog) readRows(ctx context.Context, shard int) error {
	st, err := c.store(shard)
	if err != nil {
		return err
	}
	v, err := st.dataVersion(ctx)
	if err != nil {
		return c.checkStore(shard, err)
	}
	c.mu.RLock()
	same := v == c.dataVersion[shard] && v != 0
	c.mu.RUnlock()
	if same {
		return nil
	}
	rows, err := st.files(ctx)
	if err != nil {
		return c.checkStore(shard, err)
	}
	c.mu.Lock()
	for p, r := range c.known {
		if r.Shard == shard {
			delete(c.known, p)
		}
	}
	for p, r := range rows {
		c.known[p] = r
	}
	c.dataVersion[shard] = v
	c.mu.Unlock()
	return nil
}

// setRow records what the store holds of r's file; the caller holds c.mu.
func (c *Catalog) setRow(r *record, row *fileRow) {
	if r.row != nil && c.byGID[r.row.gid()] == r {
		delete(c.byGID, r.row.gid())
	}
	r.row = row
	if row != nil {
		c.byGID[row.gid()] = r
	}
}

// dropRecord forgets a file; the caller holds c.mu.
func (c *Catalog) dropRecord(r *record) {
	c.setRow(r, nil)
	delete(c.records, r.id)
	c.lru.remove(r.id)
}

// openRoots opens the directories files were found in, so that reading
// them cannot be led out of those directories by a symbolic link or a
// rename made in the meantime.
func (c *Catalog) openRoots(found []file) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range found {
		if f.root == "" || c.roots[f.root] != nil {
			continue
		}
		r, err := os.OpenRoot(f.root)
		if err != nil {
			return err
		}
		c.roots[f.root] = r
	}
	return nil
}

// open opens f for reading, never for writing, and without blocking: a
// file swapped for a named pipe since it was catalogued must not pin a
// reader in open(2). Anything but a regular file is refused.
func (c *Catalog) open(f file) (fs.File, error) {
	switch {
	case c.opt.FS != nil:
		return c.opt.FS.Open(f.path)
	case f.root != "":
		c.mu.RLock()
		r := c.roots[f.root]
		c.mu.RUnlock()
		if r == nil {
			return nil, fmt.Errorf("%s: %w", f.path, fs.ErrNotExist)
		}
		fh, _, err := fileguard.OpenInputIn(r, f.rel, f.path)
		return fh, err
	}
	fh, _, err := fileguard.OpenInput(f.key)
	return fh, err
}

func (c *Catalog) stat(f file) (fs.FileInfo, error) {
	switch {
	case c.opt.FS != nil:
		return fs.Stat(c.opt.FS, f.path)
	case f.root != "":
		c.mu.RLock()
		r := c.roots[f.root]
		c.mu.RUnlock()
		if r == nil {
			return nil, fmt.Errorf("%s: %w", f.path, fs.ErrNotExist)
		}
		return r.Stat(f.rel)
	}
	return os.Stat(f.key)
}

// pathError names the file in err unless it does already.
func pathError(name string, err error) error {
	if errors.Is(err, fileguard.ErrNotRegular) {
		return err // one sentence that names the file
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.HasSuffix(name, filepath.Base(pe.Path)) {
		return fmt.Errorf("%s: %w", name, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// info makes r's Info; the caller holds c.mu.
func (c *Catalog) info(r *record) Info { return c.infoWith(r, r.row) }

// infoWith makes r's Info from row, what was read of its file; the caller
// holds c.mu.
func (c *Catalog) infoWith(r *record, row *fileRow) Info {
	i := Info{ID: r.id, Path: r.f.path, Size: r.found.Size, ModTime: time.Unix(0, r.found.MTime), stamp: r.found, Parent: r.parent}
	if row == nil {
		return i
	}
	i.Indexed = true
	i.Size, i.ModTime, i.stamp = row.Stamp.Size, time.Unix(0, row.Stamp.MTime), row.Stamp
	i.Hash = hex.EncodeToString(row.Sum[:])
	if row.Err != "" {
		i.Err = errors.New(row.Err)
		return i
	}
	i.Cwd, i.SessionID, i.Summary = row.Cwd, row.SessionID, row.Summary
	i.ParentSession = row.ParentSession
	i.Branches, i.Warnings = row.Branches, row.Warnings
	return i
}

// checkStore turns an error of shard that says its database is damaged
// into a rebuild: the damaged file is removed, an empty one made, and the
// shard's files read again. Other errors are returned as they are.
func (c *Catalog) checkStore(shard int, err error) error {
	if err == nil || !isCorrupt(err) {
		return err
	}
	c.stMu.Lock()
	old := c.st[shard]
	if old == nil {
		c.stMu.Unlock()
		return err
	}
	old.close()
	var rerr error
	dir := ""
	if old.path != "" {
		dir = filepath.Dir(old.path)
		rerr = removeDB(old.path)
	}
	var st *store
	if rerr == nil {
		st, _, rerr = openStore(context.Background(), dir, c.maskKey(), shard)
	}
	c.st[shard] = st
	c.stMu.Unlock()
	if rerr != nil {
		return fmt.Errorf("%w (and it could not be made anew: %v)", err, rerr)
	}
	c.warn(fmt.Sprintf("%s: %v; it is rebuilt from the session files", old.path, errCorrupt))
	c.forgetRows(shard)
	return err
}

// forgetRows drops what the catalog holds from a shard that is gone, so
// that its files are read again.
func (c *Catalog) forgetRows(shard int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.records {
		if r.row != nil && r.row.Shard == shard {
			c.setRow(r, nil)
		}
	}
	for p, r := range c.known {
		if r.Shard == shard {
			delete(c.known, p)
		}
	}
	c.dataVersion[shard] = 0
	c.gen.Add(1)
}
