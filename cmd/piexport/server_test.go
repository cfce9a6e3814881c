package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// testServer is `piexport --serve` run in the test's process.
type testServer struct {
	t      *testing.T
	url    string
	stderr *syncBuffer
	stop   func() // ends the server and waits for it; later calls do nothing
}

// startServer runs piexport with args (--serve among them, and --addr
// 127.0.0.1:0) until the test ends or stop is called. It returns once the
// server has printed its address and, when ready is not empty, its
// standard error holds ready.
func startServer(t *testing.T, args []string, ready string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, &stdout, &stderr) }()
	stopped := false
	s := &testServer{t: t, stderr: &stderr, stop: func() {
		if !stopped {
			cancel()
			<-done
			stopped = true
		}
	}}
	t.Cleanup(s.stop)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if s.url = regexp.MustCompile(`http://\S+/`).FindString(stdout.String()); s.url != "" && strings.Contains(stderr.String(), ready) {
			return s
		}
	}
	t.Fatalf("the server did not start: %s", stderr.String())
	return nil
}

// get returns the body of the server's answer to path, which must be 200.
func (s *testServer) get(path string) []byte {
	s.t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		s.t.Fatalf("GET %s: %s", path, resp.Status)
	}
	return body
}

// sessionPages returns every session page index links, unpacked, one
// after the other.
func (s *testServer) sessionPages(index []byte) []byte {
	s.t.Helper()
	var all []byte
	for _, m := range regexp.MustCompile(`href="(s/[^"#]+)"`).FindAllSubmatch(index, -1) {
		all = append(all, unpacked(s.t, s.get(string(m[1])))...)
	}
	return all
}
