// Package pgcluster starts and stops a throwaway PostgreSQL cluster: made
// with initdb in a directory of its own, listening on a Unix socket there
// and on no TCP port, trusting every local connection. The tests' clusters
// (package pgtest) and bench/scale's team run are made here.
//
// initdb and postgres refuse to run as root: run as root, the cluster runs
// as the postgres system user, which then owns its directory.
package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/piexport/piexport/session"
)

// Superuser is the name of the cluster's superuser.
const Superuser = "postgres"

// InitdbEnv names the environment variable that gives initdb's path.
const InitdbEnv = "PIEXPORT_INITDB"

// InitdbNames are where Debian's packages put initdb, the newest version
// first, then initdb on PATH.
func InitdbNames() []string {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(found, func(a, b string) int { return versionOf(b) - versionOf(a) })
	return append(found, "initdb")
}

func versionOf(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Initdb finds initdb: $PIEXPORT_INITDB, else the first of InitdbNames
// that is there.
func Initdb() (string, error) {
	if p := os.Getenv(InitdbEnv); p != "" {
		return p, nil
	}
	for _, name := range InitdbNames() {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("PostgreSQL's initdb was not found: install PostgreSQL (apt-get install postgresql) or set %s to its initdb", InitdbEnv)
}

// Options configure Start.
type Options struct {
	// Dir is the cluster's directory, made afresh (what it held is
	// removed first); "" for a new temporary directory.
	Dir string
	// Settings are the server's settings beyond its defaults, each
	// "name=value" (postgres -c); it never listens on TCP.
	Settings []string
}

// Cluster is a running throwaway cluster.
type Cluster struct {
	// Dir holds the cluster's data (Dir/data), its socket and its log
	// (Dir/postgres.log).
	Dir string
	bin string
	cmd *exec.Cmd
	// cred runs the cluster's programs as the user that owns it; nil to
	// run them as this process's user.
	cred *syscall.Credential
	// done is closed when postgres has stopped, waitErr then says how.
	done    chan struct{}
	waitErr error
}

// socketName is the name of the cluster's socket in its directory, for
// the default port.
const socketName = ".s.PGSQL.5432"

// maxSocketPath is the longest path a Unix socket may have on Linux
// (sun_path holds 108 bytes with the terminating NUL).
const maxSocketPath = 107

// Start makes a cluster with initdb and starts it.
func Start(initdb string, opt Options) (*Cluster, error) {
	dir := opt.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "pgcluster-")
		if err != nil {
			return nil, err
		}
		dir = d
	} else {
		d, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		dir = d
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if n := len(filepath.Join(dir, socketName)); n > maxSocketPath {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: the cluster's socket would have a path of %s, longer than a Unix socket's %d: choose a shorter directory", dir, session.Count(n, "byte", "bytes"), maxSocketPath)
	}
	c := &Cluster{Dir: dir, bin: filepath.Dir(initdb), done: make(chan struct{})}
	if os.Geteuid() == 0 {
		cred, err := ownedByPostgres(dir)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		c.cred = cred
	}
	data := filepath.Join(dir, "data")
	out, err := c.command(initdb, "-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8",
		"--locale=C", "--no-sync", "--no-instructions").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	args := []string{"-D", data, "-k", dir, "-c", "listen_addresses="}
	for _, s := range opt.Settings {
		args = append(args, "-c", s)
	}
	c.cmd = c.command(filepath.Join(c.bin, "postgres"), args...)
	logFile, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	// Should this process die, the cluster goes with it.
	c.cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	if err := c.cmd.Start(); err != nil {
		logFile.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { c.waitErr = c.cmd.Wait(); logFile.Close(); close(c.done) }()
	if err := c.waitReady(30 * time.Second); err != nil {
		log, _ := os.ReadFile(logFile.Name())
		c.Stop()
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return c, nil
}

// ownedByPostgres gives dir to the postgres system user, and returns the
// credential that runs the cluster's programs as that user, who must be
// able to reach dir.
func ownedByPostgres(dir string) (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("run as root, and initdb will not: %w (the postgresql package makes this user)", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return nil, err
		}
		st, _ := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm()&0o001 == 0 && (st == nil || int(st.Uid) != uid) {
			return nil, fmt.Errorf("%s: the postgres user, which the cluster runs as, cannot reach %s in it (chmod o+x %s)", d, dir, d)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
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
		case <-c.done:
			return fmt.Errorf("postgres stopped: %v", c.waitErr)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within %v: %w", limit, err)
		}
	}
}

// Stop shuts the cluster down (fast: its connections are cut) and
// removes its directory.
func (c *Cluster) Stop() error {
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
