// Package pgtest runs a throwaway PostgreSQL cluster for a package's
// tests (package pgcluster: in a temporary directory, on a Unix socket
// only, as the postgres system user when the tests run as root), without
// durability, removed when the package's tests end. One cluster serves all
// the tests of a package (see Main); each test makes its own database.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/internal/pgcluster"
	"github.com/piexport/piexport/internal/testtool"
)

// Postgres is PostgreSQL's initdb, which finds the rest of its programs
// beside it.
var Postgres = &testtool.Need{What: "PostgreSQL test", Whats: "PostgreSQL tests", Program: "PostgreSQL",
	Install: "install it (apt-get install postgresql) or set " + pgcluster.InitdbEnv + " to its initdb",
	Env:     pgcluster.InitdbEnv,
	Names:   pgcluster.InitdbNames()}

// Superuser is the name of the cluster's superuser.
const Superuser = pgcluster.Superuser

// Cluster is a running throwaway cluster: its Dir, URL and Program are
// pgcluster's.
type Cluster struct {
	*pgcluster.Cluster
}

var (
	mu       sync.Mutex
	running  *Cluster
	startErr error
)

// testSettings make a cluster that outlives nothing: no durability, and
// little memory.
var testSettings = []string{"fsync=off", "synchronous_commit=off", "full_page_writes=off",
	"max_connections=40", "shared_buffers=16MB"}

// Start returns the package's cluster, starting it on the first call. A
// test that calls it is skipped under -short and, when PostgreSQL is
// missing, skipped (fails on CI): see testtool.Need.
func Start(t testing.TB) *Cluster {
	t.Helper()
	initdb := Postgres.Require(t)
	mu.Lock()
	defer mu.Unlock()
	if running == nil && startErr == nil {
		var c *pgcluster.Cluster
		if c, startErr = pgcluster.Start(initdb, pgcluster.Options{Settings: testSettings}); startErr == nil {
			running = &Cluster{c}
		}
	}
	if startErr != nil {
		t.Fatalf("starting a PostgreSQL cluster: %v", startErr)
	}
	return running
}

// Main is the TestMain of a package with PostgreSQL tests: it runs them,
// stops the cluster if one was started, and says what was skipped.
func Main(m *testing.M, pkg string, needs ...*testtool.Need) {
	code := m.Run()
	Stop()
	testtool.Report(pkg, append([]*testtool.Need{Postgres}, needs...)...)
	os.Exit(code)
}

// Stop stops the package's cluster, if one was started: for a TestMain
// that does more than Main.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if running != nil {
		if err := running.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping the PostgreSQL cluster: %v\n", err)
		}
		running = nil
	}
}

// NewDatabase makes a database of its own for t, dropped when t ends,
// and returns its name (see URL).
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	c.Exec(t, "postgres", "CREATE DATABASE "+name)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, c.URL(Superuser, "postgres"))
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	return name
}

// Exec runs SQL statements in database db as the superuser.
func (c *Cluster) Exec(t testing.TB, db string, sql ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL(Superuser, db))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range sql {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", strings.TrimSpace(q), err)
		}
	}
}

// Dump is what pg_dump writes of database db: every byte the database
// holds, as SQL and COPY text.
func (c *Cluster) Dump(t testing.TB, db string) []byte {
	t.Helper()
	cmd := exec.Command(c.Program("pg_dump"), "-h", c.Dir, "-U", Superuser, "--no-password", db)
	cmd.Env = append(os.Environ(), "PGSSLMODE=disable")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, stderr.String())
	}
	return out
}
