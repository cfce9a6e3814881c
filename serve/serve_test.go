package serve

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/piexport/piexport/catalog"
)

const corpus = "../testdata/corpus"

// syncBuffer is a log the server and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// running is a server started by a test.
type running struct {
	url    string
	log    *syncBuffer
	cancel context.CancelFunc
	done   chan error
}

// start runs a server on a free loopback port until the test ends.
func start(t testing.TB, opt Options) *running {
	t.Helper()
	if opt.Addr == "" {
		opt.Addr = "127.0.0.1:0"
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{log: &syncBuffer{}, cancel: cancel, done: make(chan error, 1)}
	opt.Log = r.log
	ready := make(chan string, 1)
	opt.Ready = func(url string) { ready <- url }
	go func() { r.done <- Run(ctx, opt) }()
	select {
	case r.url = <-ready:
	case err := <-r.done:
		t.Fatalf("Run: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		<-r.done
	})
	// The server answers at once; the tests want every session read.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(r.log.String(), "catalogued "); {
		if time.Now().After(deadline) {
			t.Fatalf("the catalog was not read; log:\n%s", r.log)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return r
}

// project copies corpus files into a pi-like sessions directory, and adds
// a file that fails to load.
func project(t testing.TB, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(corpus, n))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "--home-dev-projects-webapp--", n), b)
	}
	writeFile(t, filepath.Join(dir, "--home-dev-projects-webapp--", "broken.jsonl"), []byte("not json\n"))
	return dir
}

func writeFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t testing.TB, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

var sessionLink = regexp.MustCompile(`href="s/([0-9a-f]+)">([^<]*)<`)

// ids maps the titles the index lists to the sessions' ids.
func ids(t testing.TB, srv *running) map[string]string {
	t.Helper()
	_, body := get(t, srv.url)
	m := map[string]string{}
	for _, l := range sessionLink.FindAllStringSubmatch(body, -1) {
		m[l[2]] = l[1]
	}
	return m
}

func TestRoutes(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	srv := start(t, Options{Paths: []string{dir}, Generator: "piexport test", Home: "/home/dev"})

	res, index := get(t, srv.url)
	checkHeaders(t, res, "text/html; charset=utf-8")
	for _, want := range []string{
		`<form class="search" method="get" action="search" role="search">`,
		"form-action &#39;self&#39;",
		"<code>~/projects/webapp</code>",
		"broken.jsonl: not a pi session file: its one line is not a JSON object",
		// The usage report, from the catalog's figures.
		`<details class="insights usage-report" id="usage">`,
		`<span class="insights-sum">$0.0571 · `,
	} {
		if !strings.Contains(index, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if strings.Contains(index, `href="s/`+"\"") || len(ids(t, srv)) != 2 {
		t.Errorf("index links %v, want the two good sessions", ids(t, srv))
	}
	id := ids(t, srv)["Health endpoint"]

	res, page := get(t, srv.url+"s/"+id)
	checkHeaders(t, res, "text/html; charset=utf-8")
	if !strings.Contains(page, "<title>Health endpoint</title>") || !strings.Contains(page, `"6eea0e7d"`) {
		t.Error("the session page is not the session's")
	}
	etag := res.Header.Get("ETag")
	if res, _ := get(t, srv.url+"s/"+id, "If-None-Match", etag); etag == "" || res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation with ETag %q: status %d, want 304", etag, res.StatusCode)
	}

	res, found := get(t, srv.url+"search?q=registered+on+the+default+mux")
	checkHeaders(t, res, "text/html; charset=utf-8")
	// The link carries the words found, for the page to mark.
	if !strings.Contains(found, `href="s/`+id+`?hl=registered&#43;on&#43;the&#43;default&#43;mux#6eea0e7d"`) || !strings.Contains(found, "<mark>registered</mark>") {
		t.Error("the search page does not link the matching entry")
	}
	if _, none := get(t, srv.url+"search?q=zzzqqq"); !strings.Contains(none, "Nothing matches.") {
		t.Error("a search without hits does not say so")
	}

	res, js := get(t, srv.url+"assets/follow.js")
	checkHeaders(t, res, "text/javascript; charset=utf-8")
	if !strings.Contains(js, "EventSource") {
		t.Error("follow.js is not the script")
	}

	req, _ := http.NewRequest("POST", srv.url, nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %v %v, want 405", res.Status, err)
	}
}

func checkHeaders(t *testing.T, res *http.Response, contentType string) {
	t.Helper()
	if res.StatusCode != http.StatusOK {
		t.Errorf("%s: status %d", res.Request.URL, res.StatusCode)
	}
	for k, want := range map[string]string{
		"Content-Type":           contentType,
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
		"X-Frame-Options":        "DENY",
	} {
		if got := res.Header.Get(k); got != want {
			t.Errorf("%s: %s = %q, want %q", res.Request.URL, k, got, want)
		}
	}
}

// rawGet sends target exactly as given, which net/http's client would
// not, and returns the status and body.
func rawGet(t *testing.T, base, target, host string) (int, string) {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if host == "" {
		host = addr
	}
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, host)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Only catalogued sessions can be read, by id: every other way of naming
// a file answers 404 and shows nothing of it.
func TestTraversal(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	secret := filepath.Join(t.TempDir(), "secret.jsonl")
	b, _ := os.ReadFile(filepath.Join(corpus, "pi-v3-sdk-compaction-custom.jsonl"))
	writeFile(t, secret, b)
	if err := os.Symlink(secret, filepath.Join(dir, "--home-dev-projects-webapp--", "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(secret), filepath.Join(dir, "--linked-dir--")); err != nil {
		t.Fatal(err)
	}
	srv := start(t, Options{Paths: []string{dir}})
	id := ids(t, srv)["Health endpoint"]
	if len(ids(t, srv)) != 1 {
		t.Fatalf("the index lists %v; a link out of the root was followed", ids(t, srv))
	}
	file := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	for _, target := range []string{
		"/s/../../../../../../etc/passwd",
		"/s/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
		"/s/..%2f..%2f..%2fetc%2fpasswd",
		"/s/%2Fetc%2Fpasswd",
		"/s//etc/passwd",
		"/s/" + file,
		"/s/" + strings.ReplaceAll(file, "/", "%2F"),
		"/s/pi-v3-sdk-branches-labels.jsonl",
		"/s/" + secret,
		"/s/..%5c..%5csecret.jsonl",
		"/s/" + id + "/../" + id,
		"/s/" + id + "%00",
		"/s/" + id + "/",
		"/s/" + strings.ToUpper(id),
		"/s/" + id + "x",
		"/%2e%2e/%2e%2e/etc/passwd",
		"/assets/../go.mod",
		"/assets/page.js",
		"/assets/",
		"/s/" + id + "/events/../../..",
		"/s/0000000000000000/events",
		"/examples/pi-v3-earth0-a.jsonl",
		"//etc/passwd",
	} {
		status, body := rawGet(t, srv.url, target, "")
		if status != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", target, status)
		}
		// The site's 404 page, which says nothing of what was asked for.
		if !strings.Contains(body, "<h2>Page not found</h2>") || !strings.Contains(body, `<a href="/">← All sessions</a>`) {
			t.Errorf("GET %s: body %q, want the 404 page", target, body)
		}
		for _, leak := range []string{"Health", "root:", "passwd", "secret", id} {
			if strings.Contains(body, leak) {
				t.Errorf("GET %s: the 404 page holds %q", target, leak)
			}
		}
	}
	// A web page whose name resolves to 127.0.0.1 (DNS rebinding) is
	// refused whatever it asks for.
	if status, body := rawGet(t, srv.url, "/s/"+id, "evil.example:80"); status != http.StatusForbidden || strings.Contains(body, "Health") {
		t.Errorf("another host name: status %d, want 403", status)
	}
	for _, host := range []string{"localhost", "127.0.0.1", "[::1]:8080"} {
		if status, _ := rawGet(t, srv.url, "/s/"+id, host); status != http.StatusOK {
			t.Errorf("Host %s: status %d, want 200", host, status)
		}
	}
}

// A growing file sends an event, and the page then has the new entry; a
// half-written last line is left out until it is complete.
func TestFollow(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	srv := start(t, Options{Paths: []string{dir}, FollowEvery: 20 * time.Millisecond})
	id := ids(t, srv)["Health endpoint"]
	res, _ := get(t, srv.url+"s/"+id)
	version, _, _ := strings.Cut(strings.Trim(res.Header.Get("ETag"), `"`), ".")

	events := openEvents(t, srv.url+"s/"+id+"/events?v="+version)
	file := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-sdk-branches-labels.jsonl")
	line := `{"type":"message","id":"live0001","parentId":"e6a3e24e","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"a new question"}}` + "\n"

	appendTo(t, file, line[:40])
	if ev := events.next(t); ev.name != "change" {
		t.Fatalf("event %+v, want change", ev)
	}
	if _, page := get(t, srv.url+"s/"+id); strings.Contains(page, "live0001") || !strings.Contains(page, `"6eea0e7d"`) {
		t.Error("a half-written line broke the page or showed")
	}
	appendTo(t, file, line[40:])
	ev := events.next(t)
	if ev.name != "change" || ev.id == "" || ev.id == version {
		t.Fatalf("event %+v, want change with a new version", ev)
	}
	res, page := get(t, srv.url+"s/"+id)
	if !strings.Contains(page, `id="e:live0001"`) || !strings.Contains(page, "a new question") {
		t.Error("the page lacks the new entry")
	}
	if got := strings.Trim(res.Header.Get("ETag"), `"`); !strings.HasPrefix(got, ev.id+".") {
		t.Errorf("page version %q, event version %q", got, ev.id)
	}
	// The new entry is found by a search once the catalog has it.
	if _, found := get(t, srv.url+"search?q=%22a+new+question%22"); !strings.Contains(found, "#live0001") {
		t.Error("search does not find the new entry")
	}

	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if ev := events.next(t); ev.name != "gone" {
		t.Errorf("after removal: event %+v, want gone", ev)
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

type event struct{ id, name, data string }

type eventStream struct {
	events chan event
}

// openEvents reads a Server-Sent Events stream until the test ends.
func openEvents(t *testing.T, url string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "text/event-stream" {
		t.Fatalf("events: %s %q", res.Status, ct)
	}
	s := &eventStream{events: make(chan event, 16)}
	go func() {
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		var ev event
		for sc.Scan() {
			line := sc.Text()
			k, v, _ := strings.Cut(line, ": ")
			switch {
			case line == "":
				if ev.name != "" {
					s.events <- ev
				}
				ev = event{}
			case k == "id":
				ev.id = v
			case k == "event":
				ev.name = v
			case k == "data":
				ev.data = v
			}
		}
	}()
	return s
}

// next waits for the next event; the deadline only keeps a broken server
// from hanging the test.
func (s *eventStream) next(t *testing.T) event {
	t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			t.Fatal("the event stream ended")
		}
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event")
	}
	return event{}
}

// Run returns soon after its context is done, even with an event stream
// open.
func TestShutdown(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl")
	srv := start(t, Options{Paths: []string{dir}})
	id := ids(t, srv)["Health endpoint"]
	openEvents(t, srv.url+"s/"+id+"/events")
	srv.cancel()
	select {
	case err := <-srv.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		srv.done <- nil // for the cleanup
	case <-time.After(shutdownTimeout + 2*time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	if _, err := http.Get(srv.url); err == nil {
		t.Error("the server still answers")
	}
}

// Without sessions of its own, the server shows the bundled examples.
func TestExamples(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PI_CODING_AGENT_DIR", "")
	srv := start(t, Options{})
	_, index := get(t, srv.url)
	if n := len(ids(t, srv)); n != 3 || !strings.Contains(index, "bundled examples") {
		t.Errorf("index lists %d sessions, notice %v; want the 3 examples and a notice", n, strings.Contains(index, "bundled examples"))
	}
	for _, id := range ids(t, srv) {
		if res, _ := get(t, srv.url+"s/"+id); res.StatusCode != 200 {
			t.Errorf("example %s: %s", id, res.Status)
		}
	}
	if !strings.Contains(srv.log.String(), "bundled examples") {
		t.Error("the notice is not logged")
	}
}

// TestQuiet: under -q (Options.Quiet) the server says nothing of what
// it serves, nor of the sessions it read or could not read: the URL,
// which Ready hears, is its output.
func TestQuiet(t *testing.T) {
	for _, paths := range [][]string{nil, {project(t, "pi-v3-earth0-tiny.jsonl")}} {
		t.Setenv("HOME", t.TempDir())
		t.Setenv("PI_CODING_AGENT_DIR", "")
		ctx, cancel := context.WithCancel(context.Background())
		var log syncBuffer
		read := make(chan struct{})
		ready := make(chan string, 1)
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, Options{Addr: "127.0.0.1:0", Paths: paths, Log: &log, Quiet: true,
				Ready: func(url string) { ready <- url },
				Progress: func(p catalog.Progress) {
					if !p.Running {
						close(read)
					}
				}})
		}()
		select {
		case <-ready:
		case err := <-done:
			t.Fatalf("Run: %v", err)
		}
		<-read
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if log.String() != "" {
			t.Errorf("paths %q: the quiet server logged:\n%s", paths, log.String())
		}
	}
}

func TestNotLoopback(t *testing.T) {
	dir := project(t, "pi-v3-earth0-tiny.jsonl")
	srv := start(t, Options{Addr: "0.0.0.0:0", Paths: []string{dir}})
	log := srv.log.String()
	// All addresses are [::] on a host with IPv6, 0.0.0.0 on one without.
	if !regexp.MustCompile(`warning: listening on (\[::\]|0\.0\.0\.0):[0-9]+,`).MatchString(log) {
		t.Errorf("the warning does not name the address listened on:\n%s", log)
	}
	for _, want := range []string{
		"which is not a loopback address: anyone who can reach port ",
		"can read and search the sessions under " + dir, "requests are answered only when addressed to ", "localhost", "--allow-host",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the warning lacks %q:\n%s", want, log)
		}
	}
	if !strings.HasPrefix(srv.url, "http://127.0.0.1:") {
		t.Errorf("URL %q, want the loopback address", srv.url)
	}
	if _, err := net.Listen("tcp", strings.TrimSuffix(strings.TrimPrefix(srv.url, "http://"), "/")); err == nil {
		t.Error("the port was not in use")
	}
	if err := Run(context.Background(), Options{Addr: strings.TrimSuffix(strings.TrimPrefix(srv.url, "http://"), "/")}); err == nil || !strings.Contains(err.Error(), "listen") {
		t.Errorf("Run on a busy port: %v, want a listen error", err)
	}
}

// File names reach the log escaped: ESC and a newline in a name must not
// act on the terminal or forge a line.
func TestLogEscapesNames(t *testing.T) {
	dir := project(t, "pi-v3-earth0-tiny.jsonl")
	writeFile(t, filepath.Join(dir, "evil\x1b]0;pwned\x07\nwarning: forged\x1b[2J.jsonl"), []byte("not json\n"))
	srv := start(t, Options{Paths: []string{dir}})
	log := srv.log.String()
	if !strings.Contains(log, `evil\x1b]0;pwned\x07\nwarning: forged\x1b[2J.jsonl: not a pi session file`) {
		t.Errorf("the log does not name the file escaped:\n%s", log)
	}
	if strings.ContainsAny(log, "\x1b\x07") || strings.Contains(log, "\nwarning: forged") {
		t.Errorf("the log holds raw control characters:\n%q", log)
	}
}

// A served file swapped for a named pipe answers at once with the reason;
// opening it must not pin the request in open(2).
func TestFIFOSwap(t *testing.T) {
	dir := project(t, "pi-v3-earth0-tiny.jsonl")
	srv := start(t, Options{Paths: []string{dir}})
	var id string
	for _, v := range ids(t, srv) {
		id = v
	}
	path := filepath.Join(dir, "--home-dev-projects-webapp--", "pi-v3-earth0-tiny.jsonl")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	res, err := client.Get(srv.url + "s/" + id)
	if err != nil {
		if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			w.Close() // let the stuck open return
		}
		t.Fatalf("GET of a session swapped for a named pipe: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body), "is a named pipe (FIFO), not a session file") {
		t.Errorf("status %d, body %q", res.StatusCode, body)
	}
}
