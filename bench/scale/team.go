package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/piexport/piexport/internal/pgcluster"
)

// The team run (--team): a team's machines push their histories into one
// shared catalog on a throwaway PostgreSQL cluster, and a member's server
// reads it.

// teamDB is the shared catalog's database; concurrentDB the one the
// machines that push at once push into, empty as teamDB was at the
// first pushes.
const (
	teamDB       = "team"
	concurrentDB = "team_concurrent"
)

// atOnce is how many machines push at the same time.
const atOnce = 2

// machine is one of the team's machines: a member's role, the home its
// sessions are under, and its history.
type machine struct {
	role string
	home string
	h    *history
}

// env is the environment piexport runs in as the machine: its home, and
// none of the variables that would point it at other sessions.
func (m *machine) env() []string {
	env := slices.DeleteFunc(os.Environ(), func(e string) bool {
		k, _, _ := strings.Cut(e, "=")
		return k == "HOME" || k == "GOMEMLIMIT" || k == "XDG_DATA_HOME" || strings.HasPrefix(k, "PI_")
	})
	return append(env, "HOME="+m.home)
}

// teamMachines makes (or finds made) the histories of the team's
// machines, size/machines bytes each: DIR/team-SIZE-N/mNN/.pi/agent/sessions,
// each of other seeds.
func (c *config) teamMachines(size string, bytes int64, log io.Writer) ([]*machine, *history, error) {
	base := filepath.Join(c.dir, fmt.Sprintf("team-%s-%d", size, c.machines))
	if c.shape != "mixed" {
		base += "-" + c.shape
	}
	all := &history{projects: projects}
	var ms []*machine
	for i := range c.machines {
		m := &machine{role: fmt.Sprintf("m%02d", i+1)}
		m.home = filepath.Join(base, m.role)
		h, err := makeHistory(filepath.Join(m.home, ".pi", "agent", "sessions"), bytes/int64(c.machines), c.shape, int64(i+1)*1_000_000, log)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", m.role, err)
		}
		m.h = h
		ms = append(ms, m)
		all.files = append(all.files, h.files...)
		all.sizes = append(all.sizes, h.sizes...)
		all.mtimes = append(all.mtimes, h.mtimes...)
		all.bytes += h.bytes
	}
	return ms, all, nil
}

// measureTeam takes every figure of the team run at one size.
func (c *config) measureTeam(ctx context.Context, size string, bytes int64, res *results, stdout, stderr io.Writer) error {
	ms, all, err := c.teamMachines(size, bytes, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "== team %s: %d machines, %d sessions, %d MB\n", size, len(ms), len(all.files), all.bytes>>20)
	res.size = fmt.Sprintf("team %s, %d machines", size, len(ms))
	res.loads = true
	res.add("sessions", float64(len(all.files)), "")
	res.add("session files, MB", float64(all.bytes)/1e6, "MB")

	initdb, err := pgcluster.Initdb()
	if err != nil {
		return err
	}
	cluster, err := pgcluster.Start(initdb, pgcluster.Options{Dir: filepath.Join(c.dir, "postgres")})
	if err != nil {
		return fmt.Errorf("starting PostgreSQL: %w", err)
	}
	defer cluster.Stop()
	fmt.Fprintf(stderr, "PostgreSQL in %s\n", cluster.Dir)
	if err := c.makeTeam(ctx, cluster, teamDB, ms, stderr); err != nil {
		return err
	}

	// First pushes, one machine after another.
	var rates []float64
	for _, m := range ms {
		took, cpu, err := c.push(ctx, cluster.URL(m.role, teamDB), m, stderr)
		if err != nil {
			return err
		}
		rate := float64(m.h.bytes) / 1e6 / took.Seconds()
		rates = append(rates, rate)
		res.add(m.role+": first push", rate, "MB/s")
		res.add(m.role+": first push, MB per CPU second of piexport", float64(m.h.bytes)/1e6/cpu.Seconds(), "MB/s")
	}
	res.add("first push, per machine: median", pct(rates, 50), "MB/s")
	res.add("first push, per machine: slowest", slices.Min(rates), "MB/s")
	if err := c.databaseSize(ctx, cluster, all, res); err != nil {
		return err
	}

	// Pushed again, nothing changed.
	var again []float64
	for _, m := range ms {
		took, _, err := c.push(ctx, cluster.URL(m.role, teamDB), m, stderr)
		if err != nil {
			return err
		}
		again = append(again, took.Seconds()*1000)
	}
	res.add("push again, nothing changed: median", pct(again, 50), "ms")
	res.add("push again, nothing changed: slowest", slices.Max(again), "ms")

	if len(ms) >= atOnce {
		if err := c.pushAtOnce(ctx, cluster, ms[:atOnce], res, stderr); err != nil {
			return err
		}
	}

	// A member's server.
	member := ms[0]
	srv, err := c.launchServer(ctx, member.env(), stderr, "--catalog", cluster.URL(member.role, teamDB))
	if err != nil {
		return err
	}
	var appended time.Duration
	searched, err := c.teamSearches(ctx, srv, all, res)
	if err == nil {
		res.add("server RSS after the searches", float64(srv.rss())/1e6, "MB")
		appended, err = c.teamAppend(ctx, cluster, srv, member, res, stderr)
	}
	// The page views measure their own peak: the run's is kept apart.
	peak := srv.maxRSS()
	if err == nil && !c.skip["views"] {
		err = c.teamViews(ctx, cluster, srv, member, res)
	}
	var firstViews []float64
	if err == nil && !c.skip["browser"] && c.largeBytes > 0 {
		firstViews, err = c.teamLargeViews(ctx, cluster, srv, member, res, stderr)
	}
	maxRSS := max(peak, srv.maxRSS(), srv.rss())
	srv.stop()
	if err != nil {
		return err
	}
	res.add("server RSS, max", float64(maxRSS)/1e6, "MB")

	for _, kind := range queryKinds {
		res.target("search "+kind+": p99", pct(searched[kind], 99), "<=", 150, "ms")
	}
	res.target("first push, slowest machine", slices.Min(rates), ">=", 30, "MB/s")
	res.target("appended entry searchable after --push", appended.Seconds()*1000, "<=", 2000, "ms")
	res.target("server RSS, max", float64(maxRSS)/1e6, "<=", 300, "MB")
	if len(firstViews) > 0 {
		res.target(c.largeSize+" session: first view, leaf painted (slowest)", slices.Max(firstViews), "<=", 2000, "ms")
	}
	res.print(stdout)
	return nil
}

// makeTeam makes database db, its schema with piexport --init as the
// cluster's owner, and a role for each machine, a member.
func (c *config) makeTeam(ctx context.Context, cluster *pgcluster.Cluster, db string, ms []*machine, log io.Writer) error {
	if err := superuserExec(ctx, cluster, "postgres", "CREATE DATABASE "+db); err != nil {
		return err
	}
	if _, err := c.piexportRun(ctx, nil, "", log, "--catalog", cluster.URL(pgcluster.Superuser, db), "--init"); err != nil {
		return err
	}
	var sql []string
	for _, m := range ms {
		sql = append(sql, fmt.Sprintf(`DO $$BEGIN CREATE ROLE %s LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END$$`, m.role),
			"GRANT piexport_member TO "+m.role)
	}
	return superuserExec(ctx, cluster, db, sql...)
}

// superuserExec runs SQL statements in database db as the cluster's
// superuser.
func superuserExec(ctx context.Context, cluster *pgcluster.Cluster, db string, sql ...string) error {
	conn, err := pgx.Connect(ctx, cluster.URL(pgcluster.Superuser, db))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, q := range sql {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// databaseSize adds the size of the shared catalog's database, and as a
// share of the session files pushed.
func (c *config) databaseSize(ctx context.Context, cluster *pgcluster.Cluster, all *history, res *results) error {
	conn, err := pgx.Connect(ctx, cluster.URL(pgcluster.Superuser, teamDB))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&n); err != nil {
		return err
	}
	res.add("database size", float64(n)/1e6, "MB")
	res.add("database size, share of the session files", 100*float64(n)/float64(all.bytes), "%")
	return nil
}

// pushAtOnce pushes the histories of ms at the same time, into a database
// of their own as empty as the shared one was at the first pushes.
func (c *config) pushAtOnce(ctx context.Context, cluster *pgcluster.Cluster, ms []*machine, res *results, log io.Writer) error {
	if err := c.makeTeam(ctx, cluster, concurrentDB, ms, log); err != nil {
		return err
	}
	defer superuserExec(context.Background(), cluster, "postgres", "DROP DATABASE "+concurrentDB+" WITH (FORCE)")
	type pushed struct {
		took time.Duration
		err  error
	}
	done := make([]chan pushed, len(ms))
	start := time.Now()
	for i, m := range ms {
		done[i] = make(chan pushed, 1)
		go func() {
			took, _, err := c.push(ctx, cluster.URL(m.role, concurrentDB), m, log)
			done[i] <- pushed{took, err}
		}()
	}
	var bytes int64
	for i, m := range ms {
		p := <-done[i]
		if p.err != nil {
			return p.err
		}
		bytes += m.h.bytes
		res.add(fmt.Sprintf("%s: first push, %d machines at once", m.role, len(ms)), float64(m.h.bytes)/1e6/p.took.Seconds(), "MB/s")
	}
	res.add(fmt.Sprintf("first push, %d machines at once: all of them", len(ms)), float64(bytes)/1e6/time.Since(start).Seconds(), "MB/s")
	return nil
}

// push runs piexport --push to url as machine m, and returns how long it
// took and its CPU time.
func (c *config) push(ctx context.Context, url string, m *machine, log io.Writer) (time.Duration, time.Duration, error) {
	start := time.Now()
	cpu, err := c.piexportRun(ctx, m.env(), m.home, log, "--push", url)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", m.role, err)
	}
	return time.Since(start), cpu, nil
}

// teamSearches runs --queries searches of each kind through the server,
// one after another, and returns their times in ms by kind.
func (c *config) teamSearches(ctx context.Context, srv *server, all *history, res *results) (map[string][]float64, error) {
	qs, err := makeQueries(all, c.queries)
	if err != nil {
		return nil, err
	}
	out := map[string][]float64{}
	for _, kind := range queryKinds {
		cpu := srv.cpu()
		lat, zero, err := srv.search(ctx, qs[kind])
		if err != nil {
			return nil, err
		}
		out[kind] = lat
		res.add("search "+kind+": server CPU per query (the database's not counted)", (srv.cpu()-cpu).Seconds()*1000/float64(len(lat)), "ms")
		res.add("search "+kind+": p50", pct(lat, 50), "ms")
		res.add("search "+kind+": p99", pct(lat, 99), "ms")
		res.add("search "+kind+": queries without hits", float64(zero), "")
	}
	return out, nil
}

// teamAppend appends a turn of a word of its own to the member's session
// nearest 5 MB, pushes, and returns how long until the server's search
// finds the word, from the append.
func (c *config) teamAppend(ctx context.Context, cluster *pgcluster.Cluster, srv *server, m *machine, res *results, log io.Writer) (time.Duration, error) {
	f := m.h.files[m.h.nearest(5<<20, 1)[0]]
	word := fmt.Sprintf("zqx%d", time.Now().UnixNano()%1e9)
	start := time.Now()
	if err := appendTurn(f, word, ""); err != nil {
		return 0, err
	}
	took, _, err := c.push(ctx, cluster.URL(m.role, teamDB), m, log)
	if err != nil {
		return 0, err
	}
	found, err := srv.found(ctx, word, start)
	if err != nil {
		return 0, err
	}
	res.add("appended entry: push", took.Seconds()*1000, "ms")
	res.add("appended entry: searchable after the append", found.Seconds()*1000, "ms")
	return found, nil
}

// teamViews requests --views pages of sessions drawn at random from those
// the member reads, one after the other.
func (c *config) teamViews(ctx context.Context, cluster *pgcluster.Cluster, srv *server, m *machine, res *results) error {
	keys, err := sessionKeys(ctx, cluster.URL(m.role, teamDB), "")
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(7, 11))
	srv.resetRSS()
	start := time.Now()
	for range c.views {
		if _, err := srv.get(ctx, "s/"+keys[r.IntN(len(keys))]); err != nil {
			return err
		}
	}
	res.add(fmt.Sprintf("%d page views: time", c.views), time.Since(start).Seconds(), "s")
	res.add(fmt.Sprintf("%d page views: RSS max", c.views), float64(srv.maxRSS())/1e6, "MB")
	res.add(fmt.Sprintf("%d page views: RSS after", c.views), float64(srv.rss())/1e6, "MB")
	return nil
}

// sessionKeys returns the keys (the server's ids) of the sessions the
// role of url reads, of the one whose header's id is sessionID if given.
func sessionKeys(ctx context.Context, url, sessionID string) ([]string, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT key FROM piexport.sessions WHERE $1 = '' OR session_id = $1 ORDER BY key`, sessionID)
	if err != nil {
		return nil, err
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err == nil && len(keys) == 0 {
		err = fmt.Errorf("no session %q in the shared catalog", sessionID)
	}
	return keys, err
}
