package pgcluster_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/internal/pgcluster"
	"github.com/piexport/piexport/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m, "piexport/internal/pgcluster") }

// TestStartInDir: a cluster made in a given directory replaces what a
// run before left there, takes its settings, and leaves nothing behind
// when stopped.
func TestStartInDir(t *testing.T) {
	initdb := pgtest.Postgres.Require(t)
	dir := filepath.Join(t.TempDir(), "pg")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "left-over"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Run as root, the cluster runs as the postgres user, who must be
	// able to enter the test's temporary directories (made for their
	// owner alone).
	for d := dir; d != "/"; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 && strings.HasPrefix(d, os.TempDir()) {
			os.Chmod(d, fi.Mode().Perm()|0o011)
		}
	}
	c, err := pgcluster.Start(initdb, pgcluster.Options{Dir: dir, Settings: []string{"work_mem=7MB"}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			c.Stop()
		}
	}()
	if _, err := os.Stat(filepath.Join(dir, "data", "left-over")); !os.IsNotExist(err) {
		t.Errorf("what the directory held is still there: %v", err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL(pgcluster.Superuser, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	var workMem, listen string
	err = conn.QueryRow(ctx, "SELECT current_setting('work_mem'), current_setting('listen_addresses')").Scan(&workMem, &listen)
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if workMem != "7MB" || listen != "" {
		t.Errorf("work_mem %q, listen_addresses %q: want 7MB and none", workMem, listen)
	}
	stopped = true
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the cluster's directory is still there: %v", err)
	}
}

// TestSocketPathTooLong: a directory whose socket path a Unix socket
// cannot hold is refused with a sentence that says so, before initdb.
func TestSocketPathTooLong(t *testing.T) {
	initdb := pgtest.Postgres.Require(t)
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	_, err := pgcluster.Start(initdb, pgcluster.Options{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "shorter directory") {
		t.Fatalf("want an error about the socket's path, got %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the directory was left behind: %v", err)
	}
}
