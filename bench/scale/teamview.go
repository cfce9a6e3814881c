package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/piexport/piexport/internal/pgcluster"
	"github.com/piexport/piexport/internal/sessiongen"
)

// teamLargeViews copies the sessions of --large-size (generated once
// into DIR, as the local run's) one at a time into the member's history,
// pushes them, and times each one's first and cached view through the
// server in headless Chromium; it returns the first views' times until
// the leaf was painted. The copies are taken out of the history
// afterwards.
func (c *config) teamLargeViews(ctx context.Context, cluster *pgcluster.Cluster, srv *server, m *machine, res *results, log io.Writer) ([]float64, error) {
	dir := filepath.Join(m.h.dir, sessiongen.SessionDir("/home/dev/projects/large"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	url := cluster.URL(m.role, teamDB)
	var firsts []float64
	for i := range c.pageRuns {
		src, err := c.largeSession(i, log)
		if err != nil {
			return nil, err
		}
		f := filepath.Join(dir, filepath.Base(src))
		if err := copyFile(f, src); err != nil {
			return nil, err
		}
		took, _, err := c.push(ctx, url, m, log)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("%s session %d", c.largeSize, i+1)
		res.add(name+": push", took.Seconds(), "s")
		id, err := headerID(f)
		if err != nil {
			return nil, err
		}
		keys, err := sessionKeys(ctx, url, id)
		if err != nil {
			return nil, err
		}
		lines, err := c.viewLines(ctx, srv.url+"s/"+keys[0], f, log)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for pass, view := range []string{"first view", "cached view"} {
			painted, err := figure(lines[pass], "painted_ms")
			if err != nil {
				return nil, err
			}
			visible, err := figure(lines[pass], "visible_ms")
			if err != nil {
				return nil, err
			}
			res.add(name+": "+view+", leaf painted", painted, "ms")
			res.add(name+": "+view+", leaf visible", visible, "ms")
			if pass == 0 {
				firsts = append(firsts, painted)
			}
		}
	}
	return firsts, nil
}

// headerID returns the id the header of session file f gives it.
func headerID(f string) (string, error) {
	fh, err := os.Open(f)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	line, err := bufio.NewReader(fh).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	var header struct{ Type, ID string }
	if err := json.Unmarshal(line, &header); err != nil || header.Type != "session" || header.ID == "" {
		return "", fmt.Errorf("%s:1: no session header with an id", f)
	}
	return header.ID, nil
}

// piexportRun runs piexport with args in the environment env (nil: this
// process's) and the directory dir ("": this process's), shows what it
// says on standard error in log, and returns its CPU time.
func (c *config) piexportRun(ctx context.Context, env []string, dir string, log io.Writer, args ...string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, c.piexport, args...)
	cmd.Env, cmd.Dir = env, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line != "" {
			fmt.Fprintln(log, "  piexport:", line)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("piexport %s: %w", args[0], err)
	}
	return cpuOf(cmd), nil
}
