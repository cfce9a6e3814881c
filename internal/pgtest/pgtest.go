// Package pgtest runs a throwaway PostgreSQL cluster for a package's
// tests: made with initdb in a temporary directory, listening on a Unix
// socket there and on no TCP port, trusting every local connection, and
// removed when the package's tests end. One cluster serves all the tests
// of a package (see Main); each test makes its own database.
//
// initdb and postgres refuse to run as root: when the tests run as root
// (as in CI), the cluster runs as the postgres system user, which owns
// its directory.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/internal/testtool"
)

// Postgres is PostgreSQL's initdb, which finds the rest of its programs
// beside it.
var Postgres = &testtool.Need{What: "PostgreSQL test", Whats: "PostgreSQL tests", Program: "PostgreSQL",
	Install: "install it (apt-get install postgresql) or set PIEXPORT_INITDB to its initdb",
	Env:     "PIEXPORT_INITDB",
	Names:   initdbNames()}

// initdbNames are where Debian's packages put initdb, the newest version
// first, then initdb on PATH.
func initdbNames() []string {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(found, func(a, b string) int { return versionOf(b) - versionOf(a) })
	return append(found, "initdb")
}

func versionOf(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Superuser is the name of the cluster's superuser.
const Superuser = "postgres"

// Cluster is a running throwaway cluster.
type Cluster struct {
	// Dir holds the cluster's data (Dir/data) and its socket.
	Dir string
	bin string
	cmd *exec.Cmd
	// cred runs the cluster's programs as the user that owns it; nil to
	// run them as this process's user.
	cred *syscall.Credential
	done chan error
}

var (
	mu       sync.Mutex
	running  *Cluster
	startErr error
)

// Start returns the package's cluster, starting it on the first call. A
// test that calls it is skipped under -short and, when PostgreSQL is
// missing, skipped (fails on CI): see testtool.Need.
func Start(t testing.TB) *Cluster {
	t.Helper()
	initdb := Postgres.Require(t)
	mu.Lock()
	defer mu.Unlock()
	if running == nil && startErr == nil {
		running, startErr = start(initdb)
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
		if err := running.stop(); err != nil {
			fmt.Fprintf(os.Stderr, "stopping the PostgreSQL cluster: %v\n", err)
		}
		running = nil
	}
}

func start(initdb string) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: dir, bin: filepath.Dir(initdb), done: make(chan error, 1)}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("tests run as root, and initdb will not: %w (the postgresql package makes this user)", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		c.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	data := filepath.Join(dir, "data")
	out, err := c.command(initdb, "-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	// No TCP, and no durability: a test's cluster outlives nothing.
	c.cmd = c.command(filepath.Join(c.bin, "postgres"), "-D", data, "-k", dir,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=40", "-c", "shared_buffers=16MB")
	logFile, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	// Should the test binary die, the cluster goes with it.
	c.cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := c.cmd.Start(); err != nil {
		logFile.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { c.done <- c.cmd.Wait(); logFile.Close() }()
	if err := c.waitReady(30 * time.Second); err != nil {
		log, _ := os.ReadFile(logFile.Name())
		c.stop()
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return c, nil
}

// command runs a program of the cluster as the user that owns it.
func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = c.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: c.cred}
	return cmd
}

func (c *Cluster) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, c.URL(Superuser, "postgres"))
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		select {
		case err := <-c.done:
			return fmt.Errorf("postgres stopped: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within %v: %w", limit, err)
		}
	}
}

// stop shuts the cluster down (fast: its connections are cut) and
// removes its directory.
func (c *Cluster) stop() error {
	var err error
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.done:
		case <-time.After(15 * time.Second):
			c.cmd.Process.Kill()
			<-c.done
			err = errors.New("postgres did not stop within 15s, and was killed")
		}
	}
	return errors.Join(err, os.RemoveAll(c.Dir))
}

// URL is the connection string of database db as user, through the
// cluster's socket.
func (c *Cluster) URL(user, db string) string {
	return "postgres://" + user + "@/" + db + "?host=" + c.Dir + "&sslmode=disable"
}

// Program is the path of one of the cluster's programs (pg_dump, psql).
func (c *Cluster) Program(name string) string { return filepath.Join(c.bin, name) }

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
