package serve

import (
	"context"

	"github.com/piexport/piexport/catalog"
	"github.com/piexport/piexport/session"
	"github.com/piexport/piexport/usage"
)

// Source is what the server reads sessions through: this machine's
// catalog (*catalog.Catalog), or a team's shared one
// (*teamcatalog.Catalog). Ids, Infos, hits and records are the local
// catalog's types, whichever it is.
type Source interface {
	List() []catalog.Info
	Generation() uint64
	Info(id string) (catalog.Info, bool)
	Current(ctx context.Context, id string) (catalog.Info, error)
	Load(id string) (*session.Session, catalog.Info, error)
	Stat(id string) (string, error)
	Usage(ctx context.Context, since string) ([]usage.Record, error)
	Progress() catalog.Progress
	SearchPage(ctx context.Context, q string, offset, limit int) (catalog.Results, error)
	// Refresh looks for sessions new, changed and gone.
	Refresh(ctx context.Context) (bool, error)
	Close() error
}

var _ Source = (*catalog.Catalog)(nil)
