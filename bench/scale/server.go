package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// server is a piexport --serve process.
type server struct {
	cmd    *exec.Cmd
	url    string
	start  time.Time
	client *http.Client

	// firstIndex is how long after launch the index page first answered.
	firstIndex time.Duration

	mu         sync.Mutex
	catalogued time.Time // when the catalog said it was complete
	maxRSSv    atomic.Int64
	done       chan struct{}
}

// startServer launches piexport --serve of the sessions in dir on a free
// port, and times its first index page and its memory from then on.
func (c *config) startServer(ctx context.Context, cache, dir string, log io.Writer) (*server, error) {
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, "GOMEMLIMIT=") })
	return c.launchServer(ctx, env, log, "--cache-dir", cache, dir)
}

// launchServer launches piexport --serve with args on a free port, in the
// environment env, and times its first index page and its memory from
// then on.
func (c *config) launchServer(ctx context.Context, env []string, log io.Writer, args ...string) (*server, error) {
	s := &server{client: &http.Client{Timeout: 5 * time.Minute}, done: make(chan struct{})}
	cmd := exec.CommandContext(ctx, c.piexport, append([]string{"--serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s.start = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.cmd = cmd
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "serving on "); ok {
				urls <- strings.Fields(rest)[0]
			}
		}
	}()
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "catalogued ") {
				s.mu.Lock()
				s.catalogued = time.Now()
				s.mu.Unlock()
			}
			fmt.Fprintln(log, "  server:", line)
		}
	}()
	go s.sampleRSS()
	select {
	case s.url = <-urls:
	case <-time.After(time.Minute):
		s.stop()
		return nil, errors.New("the server did not say where it listens")
	}
	for {
		res, err := s.client.Get(s.url)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == 200 {
				s.firstIndex = time.Since(s.start)
				break
			}
		}
		if time.Since(s.start) > time.Minute {
			s.stop()
			return nil, fmt.Errorf("the index page did not answer: %v", err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return s, nil
}

// waitCatalogued waits until the server says its catalog is complete and
// returns how long after launch that was.
func (s *server) waitCatalogued(ctx context.Context, limit time.Duration) (time.Duration, error) {
	for {
		s.mu.Lock()
		t := s.catalogued
		s.mu.Unlock()
		if !t.IsZero() {
			return t.Sub(s.start), nil
		}
		if time.Since(s.start) > limit {
			return 0, errors.New("the catalog was not complete in time")
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(os.Interrupt)
		waited := make(chan struct{})
		go func() { s.cmd.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-waited
		}
	}
	close(s.done)
}

// rss reads the server's resident set size in bytes.
func (s *server) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func (s *server) sampleRSS() {
	for {
		select {
		case <-s.done:
			return
		case <-time.After(50 * time.Millisecond):
		}
		if r := s.rss(); r > s.maxRSSv.Load() {
			s.maxRSSv.Store(r)
		}
	}
}

// cpu reads the CPU time the server has used, user and system: a figure
// the other work on a shared machine changes much less than wall time.
func (s *server) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command's name, which is in parentheses and
	// may hold spaces: utime and stime are the 14th and 15th of the line.
	_, rest, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / clockTicks
}

// clockTicks is USER_HZ, the unit of /proc's CPU times: 100 on every Linux
// that Go runs on.
const clockTicks = 100

func (s *server) maxRSS() int64 { return s.maxRSSv.Load() }
func (s *server) resetRSS()     { s.maxRSSv.Store(s.rss()) }

func (s *server) get(ctx context.Context, path string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", s.url+path, nil)
	if err != nil {
		return "", err
	}
	res, err := s.client.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err == nil && res.StatusCode != 200 {
		err = fmt.Errorf("GET %s: %s", path, res.Status)
	}
	return string(b), err
}

// search runs queries one after the other and returns their times in ms,
// and how many found nothing.
func (s *server) search(ctx context.Context, queries []string) ([]float64, int, error) {
	var lat []float64
	zero := 0
	for _, q := range queries {
		t := time.Now()
		body, err := s.get(ctx, "search?q="+url.QueryEscape(q))
		if err != nil {
			return nil, 0, err
		}
		lat = append(lat, float64(time.Since(t).Microseconds())/1000)
		if strings.Contains(body, "Nothing matches.") {
			zero++
		}
	}
	return lat, zero, nil
}

// searchWhileReading runs queries in turn, one every 250 ms, until the
// server says its catalog is complete, and returns their times in ms.
func (s *server) searchWhileReading(ctx context.Context, queries []string) []float64 {
	var lat []float64
	for i := 0; ; i++ {
		s.mu.Lock()
		done := !s.catalogued.IsZero()
		s.mu.Unlock()
		if done || ctx.Err() != nil {
			return lat
		}
		t := time.Now()
		if _, err := s.get(ctx, "search?q="+url.QueryEscape(queries[i%len(queries)])); err == nil {
			lat = append(lat, float64(time.Since(t).Microseconds())/1000)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// readBackTime finds, in a page of the server, the time its note on
// reading says search reaches back to.
var readBackTime = regexp.MustCompile(`id="reading">[^<]*<time datetime="([^"]+)"`)

// searchableBack returns how long after launch the server said that
// search reached back to boundary (or the catalog was complete), looking
// at its index page every 100 ms (the server makes it again at most once
// a second while it reads).
func (s *server) searchableBack(ctx context.Context, boundary time.Time) time.Duration {
	for ctx.Err() == nil {
		s.mu.Lock()
		done := s.catalogued
		s.mu.Unlock()
		if !done.IsZero() {
			return done.Sub(s.start)
		}
		body, err := s.get(ctx, "")
		at := time.Since(s.start)
		if err == nil {
			if m := readBackTime.FindStringSubmatch(body); m != nil {
				if back, err := time.Parse(time.RFC3339, m[1]); err == nil && !back.After(boundary) {
					return at
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0
}

// appendAndFind appends a turn to a session and returns how long until a
// search finds its new word.
func (s *server) appendAndFind(ctx context.Context, h *history) (time.Duration, error) {
	f := h.files[h.nearest(5<<20, 1)[0]]
	word := fmt.Sprintf("zqx%d", time.Now().UnixNano()%1e9)
	start := time.Now()
	if err := appendTurn(f, word, ""); err != nil {
		return 0, err
	}
	return s.found(ctx, word, start)
}

// found waits until a search finds word, and returns how long after start.
func (s *server) found(ctx context.Context, word string, start time.Time) (time.Duration, error) {
	for {
		body, err := s.get(ctx, "search?q="+word)
		if err != nil {
			return 0, err
		}
		if !strings.Contains(body, "Nothing matches.") {
			return time.Since(start), nil
		}
		if time.Since(start) > time.Minute {
			return 0, fmt.Errorf("%s was not found in a minute", word)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// appendTurn appends a user's turn about word to a session file, the
// child of the entry parent (a root when parent is empty).
func appendTurn(f, word, parent string) error {
	parentID := "null"
	if parent != "" {
		parentID = strconv.Quote(parent)
	}
	line := fmt.Sprintf(`{"type":"message","id":"%s","parentId":%s,"timestamp":"%s","message":{"role":"user","content":"a late thought about %s"}}`+"\n",
		word, parentID, time.Now().UTC().Format(time.RFC3339Nano), word)
	fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = fh.WriteString(line)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// idOf is the server's id of a session file: the catalog's (a hash of its
// real path).
func idOf(path string) string {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = path
	}
	real, _ = filepath.Abs(real)
	sum := sha256.Sum256([]byte(real))
	return hex.EncodeToString(sum[:6])
}

// views requests n pages of sessions drawn at random, one after the other.
func (s *server) views(ctx context.Context, h *history, n int) (time.Duration, error) {
	start := time.Now()
	for _, i := range h.shuffled(n) {
		if _, err := s.get(ctx, "s/"+idOf(h.files[i])); err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// pct returns the p-th percentile of values (nearest rank).
func pct(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	v := slices.Clone(values)
	slices.Sort(v)
	k := int(p/100*float64(len(v))+0.5) - 1
	return v[min(max(k, 0), len(v)-1)]
}
