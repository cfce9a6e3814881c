package catalog

import (
	"context"
	"encoding/hex"

	"github.com/piexport/piexport/internal/fileguard"
	"github.com/piexport/piexport/session"
)

// Load returns the session with the given id, as its file is now: from
// memory when the file has not changed since it was last loaded, else
// read again. A file that changed since the catalog last read it is also
// read into the catalog (only what was appended, when that is all that
// changed). Concurrent calls for the same file read it once. The Info
// returned describes the file as loaded; its Hash is the content's (and,
// in a catalog that prepares sessions, its family's: see Info.Hash).
func (c *Catalog) Load(id string) (*session.Session, Info, error) {
	c.mu.RLock()
	r := c.records[id]
	c.mu.RUnlock()
	if r == nil {
		return nil, Info{}, ErrNotFound
	}
	fi, err := c.stat(r.f)
	if err != nil {
		info, _ := c.Info(id)
		return nil, info, pathError(r.f.path, err)
	}
	v := stampOf(fi).String()
	if c.opt.Mask != nil {
		// Prepared with its family: kept while the family is as it was.
		v += " " + c.familyVersion(id)
	}
	if s, info, ok := c.lru.get(id, v); ok {
		return s, info, nil
	}

	c.flightMu.Lock()
	if fl := c.flights[id]; fl != nil {
		c.flightMu.Unlock()
		<-fl.done
		return fl.s, fl.info, fl.err
	}
	fl := &flight{done: make(chan struct{})}
	c.flights[id] = fl
	c.flightMu.Unlock()

	fl.s, fl.info, fl.err = c.loadSafely(r)
	if fl.s != nil {
		c.lru.put(id, v, fl.info, fl.s)
	}
	c.flightMu.Lock()
	delete(c.flights, id)
	c.flightMu.Unlock()
	close(fl.done)
	return fl.s, fl.info, fl.err
}

// loadSafely is load where a panic (of the loader, or of
// Options.Mask) becomes an error: the callers waiting for this load
// are told, and the next load tries again.
func (c *Catalog) loadSafely(r *record) (s *session.Session, info Info, err error) {
	defer func() {
		if err != nil && s == nil {
			c.mu.RLock()
			info = c.info(r)
			c.mu.RUnlock()
		}
	}()
	defer recoverAs(&err, r.f.path+": loading it")
	return c.load(r)
}

func (c *Catalog) load(r *record) (*session.Session, Info, error) {
	c.mu.RLock()
	f := r.f
	info := c.info(r)
	c.mu.RUnlock()
	fh, err := c.open(f)
	if err != nil {
		return nil, info, pathError(f.path, err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, info, pathError(f.path, err)
	}
	if err := fileguard.CheckInput(f.path, fi); err != nil {
		return nil, info, err
	}
	st := stampOf(fi)
	s, t, err := readFull(fh, f.path)
	if err != nil {
		return nil, info, err
	}
	if c.opt.Mask != nil {
		c.prepareLoaded(r, s)
	}
	if st != info.stamp || !info.Indexed {
		// The catalog is behind: bring it up to date, reading only what
		// it lacks.
		if ci, err := c.Current(context.Background(), r.id); err == nil {
			info = ci
		}
	}
	// The Info describes the session as loaded, whatever the catalog
	// read meanwhile.
	p := t.progress(nil)
	info.Size, info.ModTime, info.stamp = st.Size, fi.ModTime(), st
	info.Hash = hex.EncodeToString(p.Sum[:])
	c.withFamily(&info)
	return s, info, nil
}
