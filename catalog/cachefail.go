package catalog

import (
	"context"
	"errors"
	"fmt"
)

// The cache is only ever a cache: when it cannot be written (its disk is
// full, or was remounted read-only), sessions are still read from their
// files and shown as they are now; only what the cache would keep is
// missing (search does not find what changed, the next start reads it
// again). The catalog says so once, through Options.Warn, and again once
// a write succeeds.

// CacheError reports that the cache database could not be opened or
// written. Nothing is wrong with the sessions: a caller can go on
// without the cache (Open with no CacheDir keeps it in memory).
type CacheError struct {
	Err error
}

// Error says what failed.
func (e *CacheError) Error() string { return e.Err.Error() }

// Unwrap returns the failure of the database or the file system.
func (e *CacheError) Unwrap() error { return e.Err }

// OpenOrInMemory is Open, but when the cache in opt.CacheDir cannot be
// opened (a directory that cannot be made or written, a database that
// cannot be read) it keeps the cache in memory instead, and says so
// through opt.Warn: a cache only saves reading the sessions again.
func OpenOrInMemory(ctx context.Context, paths []string, opt Options) (*Catalog, error) {
	c, err := Open(ctx, paths, opt)
	if err == nil || opt.CacheDir == "" || !IsCacheError(err) {
		return c, err
	}
	if opt.Warn != nil {
		opt.Warn(fmt.Sprintf("%v; the catalog is kept in memory instead, and every session is read again", err))
	}
	opt.CacheDir = ""
	return Open(ctx, paths, opt)
}

// IsCacheError reports whether err, or one of the errors it joins, is a
// CacheError.
func IsCacheError(err error) bool {
	var ce *CacheError
	return errors.As(err, &ce)
}

// wrote notes how a write to the cache went: a failure is said once, as a
// CacheError, until a write succeeds again. It returns err, a CacheError
// unless it is nil or ctx ended the write.
func (c *Catalog) wrote(ctx context.Context, err error) error {
	if err == nil {
		if c.unwritable.CompareAndSwap(true, false) {
			c.warn(fmt.Sprintf("the cache%s can be written again", c.cacheWhere()))
		}
		return nil
	}
	if ctx.Err() != nil || IsCacheError(err) || errors.Is(err, errClosed) {
		return err
	}
	if c.unwritable.CompareAndSwap(false, true) {
		c.warn(fmt.Sprintf("the cache%s cannot be written (%v): sessions are shown from their files, and search misses what changed, until it can", c.cacheWhere(), err))
	}
	return &CacheError{Err: err}
}

// cacheWhere names the cache's directory, " in DIR", or "" for one in
// memory.
func (c *Catalog) cacheWhere() string {
	if c.opt.CacheDir == "" || c.opt.FS != nil {
		return ""
	}
	return " in " + c.opt.CacheDir
}
