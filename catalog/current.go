package catalog

import (
	"context"
	"errors"
	"fmt"
)

// Current brings what the catalog knows of one file up to date, reading
// only what changed since it was read (see Update), and returns it. It is
// how a page that follows its session learns the session changed.
func (c *Catalog) Current(ctx context.Context, id string) (Info, error) {
	c.mu.RLock()
	r := c.records[id]
	c.mu.RUnlock()
	if r == nil {
		return Info{}, ErrNotFound
	}
	fi, err := c.stat(r.f)
	if err != nil {
		info, _ := c.Info(id)
		return info, pathError(r.f.path, err)
	}
	st := stampOf(fi)
	c.mu.Lock()
	if st != r.found {
		r.found = st
		c.gen.Add(1)
	}
	current := r.row != nil && r.row.Stamp == st
	c.mu.Unlock()
	if !current {
		for _, res := range c.readRecords(ctx, []*record{r}) {
			if res.d == nil {
				continue
			}
			err := c.store1(ctx, res.r, res.d)
			if res.r != r {
				continue // of its family: one not kept is read again later
			}
			if IsCacheError(err) {
				// The cache cannot keep what was read (wrote said so):
				// the file is described as it is all the same.
				c.mu.RLock()
				info := c.infoWith(r, &res.d.row)
				c.mu.RUnlock()
				c.withFamily(&info)
				return info, nil
			}
			if err != nil {
				return Info{}, err
			}
		}
	}
	info, ok := c.Info(id)
	if !ok {
		return Info{}, ErrNotFound
	}
	return info, nil
}

// store1 writes what was read of r's file in a transaction of its own and
// records it. An appended read that no longer fits what the store holds
// (another process wrote meanwhile) is done again.
func (c *Catalog) store1(ctx context.Context, r *record, d *fileData) error {
	shard := shardOf(d.row.Path)
	for try := 0; ; try++ {
		st, err := c.store(shard)
		if err != nil {
			return err
		}
		d.row.Shard = shard
		err = st.write(ctx, d)
		if errors.Is(err, errChanged) && c.opt.Mask != nil {
			// Another process stored a later state of the file: its rows
			// stand, and are read back from the store.
			return nil
		}
		if errors.Is(err, errChanged) && try < 2 {
			row, err := st.file(ctx, d.row.Path)
			if err != nil {
				return c.checkStore(shard, err)
			}
			c.mu.RLock()
			f := r.f
			c.mu.RUnlock()
			if d, err = c.readFileSafely(ctx, f, row); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return c.wrote(ctx, c.checkStore(shard, fmt.Errorf("%s: %w", r.f.path, err)))
		}
		break
	}
	c.wrote(ctx, nil)
	c.record(r, d)
	return nil
}

// record notes that the store holds d for r's file.
func (c *Catalog) record(r *record, d *fileData) {
	row := d.row
	if d.finding != nil {
		c.famMu.Lock()
		c.stored[r.id] = kept{row.Stamp, d.finding}
		c.famMu.Unlock()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil {
		c.known = map[string]*fileRow{}
	}
	c.known[row.Path] = &row
	if c.records[r.id] == r {
		c.setRow(r, &row)
	}
	if d.appended {
		c.prog.grown.Add(1)
	}
	c.gen.Add(1)
}
