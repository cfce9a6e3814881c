package serve

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piexport/piexport/internal/testtool"
	"github.com/piexport/piexport/page"
	"github.com/piexport/piexport/session"
)

// TestPanicKeepsServing: a panic while a session is read, on the
// catalog's readers or in a request, costs that session only: it is
// listed as one that cannot be read, its page answers 500 naming what
// failed, and every other session is served (the panic ended the
// server).
func TestPanicKeepsServing(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	panicky := func(s *session.Session) {
		if strings.Contains(s.File, "earth0-tiny") {
			var m map[string]int
			m["boom"]++
		}
	}
	srv := start(t, Options{Paths: []string{dir}, Mask: testtool.EachMasker{Name: "panicky", Session: panicky}})
	if _, index := get(t, srv.url); !strings.Contains(index, "pi-v3-earth0-tiny.jsonl: reading it failed: assignment to entry in nil map (at serve/panic_test.go:") {
		t.Errorf("the index does not list the session that panicked as one that failed:\n%s", index)
	}
	id := ids(t, srv)["Health endpoint"]
	if res, page := get(t, srv.url+"s/"+id); res.StatusCode != 200 || !strings.Contains(page, `"6eea0e7d"`) {
		t.Errorf("another session's page: %d", res.StatusCode)
	}
}

// TestRequestPanic: a panic in a request's own goroutine answers 500
// with a page that names it, and is logged (net/http dropped the
// connection), and the next view of the page is answered; a panic while
// a session is loaded for its page answers the same way.
func TestRequestPanic(t *testing.T) {
	dir := project(t, "pi-v3-sdk-branches-labels.jsonl", "pi-v3-earth0-tiny.jsonl")
	var loads sync.Map
	panicky := func(s *session.Session) {
		// The catalog's read goes through; loading for a page panics.
		if n, _ := loads.LoadOrStore(s.File, new(int)); strings.Contains(s.File, "earth0-tiny") {
			if *n.(*int)++; *n.(*int) > 1 {
				panic("loading went wrong")
			}
		}
	}
	shared := func(path string) []page.Related {
		if strings.Contains(path, "branches-labels") {
			panic("sharing went wrong")
		}
		return nil
	}
	srv := start(t, Options{Paths: []string{dir}, Shared: shared, Mask: testtool.EachMasker{Name: "panicky", Session: panicky}})
	var health, tiny string
	for title, id := range ids(t, srv) {
		if title == "Health endpoint" {
			health = id
		} else {
			tiny = id
		}
	}
	for _, tc := range []struct{ id, want string }{
		{health, "sharing went wrong"},
		{health, "sharing went wrong"},
		{tiny, "loading went wrong"},
		{tiny, "loading went wrong"},
	} {
		client := &http.Client{Timeout: 10 * time.Second}
		res, err := client.Get(srv.url + "s/" + tc.id)
		if err != nil {
			t.Fatalf("GET: %v", err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		_, problem, _ := strings.Cut(string(body), `<div class="not-found">`)
		if res.StatusCode != 500 || !strings.Contains(problem, tc.want) || !strings.Contains(problem, "could not be made") {
			t.Errorf("status %d, want 500 naming %q: %.300s", res.StatusCode, tc.want, problem)
		}
	}
	if !strings.Contains(srv.log.String(), "error: GET /s/"+health+": sharing went wrong (at serve/panic_test.go:") {
		t.Errorf("the panic is not logged:\n%s", srv.log)
	}
}
