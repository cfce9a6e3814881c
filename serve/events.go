package serve

import (
	"cmp"
	"errors"
	"io"
	"net/http"
	"time"
)

// serveEvents streams Server-Sent Events to a page: a "change" event when
// the session's content is no longer the one the page shows (the content
// hash given as ?v=, or the last event's id on a reconnection), and "gone"
// when the file is deleted. The file is stat'ed every followEvery, which is
// cheap and the same on every system; when it changed, the catalog reads
// what was appended (see catalog.Current), which also keeps the index and
// search current while the session is written.
func (s *server) serveEvents(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		s.notFound(w, r)
		return
	}
	if _, ok := s.cat.Info(id); !ok {
		s.notFound(w, r)
		return
	}
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("v")
	}
	if last == "" {
		info, err := s.cat.Current(r.Context(), id)
		if err != nil {
			s.answerError(w, r, err)
			return
		}
		last = info.Hash
	}
	rc := http.NewResponseController(w)
	// The stream lasts as long as the page is open: no write deadline,
	// but a heartbeat that finds closed connections.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, "retry: 2000\n\n"); err != nil {
		return
	}
	rc.Flush()

	poll := time.NewTicker(cmp.Or(s.opt.FollowEvery, followEvery))
	defer poll.Stop()
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	stat := ""
	for {
		var msg string
		select {
		case <-r.Context().Done():
			return
		case <-s.stopping:
			return
		case <-beat.C:
			msg = ": ping\n\n"
		case <-poll.C:
			v, err := s.cat.Stat(id)
			if err == nil && v == stat {
				continue
			}
			info, err := s.cat.Current(r.Context(), id)
			if err != nil {
				if r.Context().Err() != nil {
					return
				}
				if !gone(err) {
					// The file is there but could not be read now:
					// the page stays, and the next poll tries again.
					s.logf("warning: %v", err)
					continue
				}
				io.WriteString(w, "event: gone\ndata: \n\n")
				rc.Flush()
				return
			}
			stat = v
			if info.Hash == last {
				continue
			}
			last = info.Hash
			msg = "id: " + last + "\nevent: change\ndata: " + last + "\n\n"
		}
		if _, err := io.WriteString(w, msg); err != nil {
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}

// The event stream polls the file every followEvery (unless
// Options.FollowEvery says otherwise), and sends a comment every
// heartbeatEvery so that a closed connection is noticed.
const (
	followEvery    = 500 * time.Millisecond
	heartbeatEvery = 15 * time.Second
)
