package page

import (
	"runtime"

	"github.com/piexport/piexport/session"
)

// renderWindow bounds how far rendering runs ahead of writing, in entries.
const renderWindow = 8

// renderStream renders the articles of the entries whose indexes order
// lists with render, on every core, and yields them in that order. Only
// the window between the writer and the fastest worker is held. Closing
// stop ends the stream early.
func renderStream(order []int, render func(i int) *entryView, stop <-chan struct{}) <-chan *entryView {
	out := make(chan *entryView)
	jobs := make(chan int)
	views := make([]*entryView, len(order))
	done := make([]chan struct{}, len(order))
	for i := range done {
		done[i] = make(chan struct{})
	}
	window := make(chan struct{}, renderWindow)
	go func() { // dispatcher
		defer close(jobs)
		for k := range order {
			select {
			case window <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- k:
			case <-stop:
				return
			}
		}
	}()
	for range runtime.GOMAXPROCS(0) {
		go func() {
			for k := range jobs {
				views[k] = render(order[k])
				close(done[k])
			}
		}()
	}
	go func() { // sender, in order
		defer close(out)
		for k := range order {
			select {
			case <-done[k]:
			case <-stop:
				return
			}
			select {
			case out <- views[k]:
			case <-stop:
				return
			}
			views[k] = nil
			<-window
		}
	}()
	return out
}

// article renders the entry e, the i-th in tree order, into its view.
func (r *sessionRenderer) article(e *session.Entry, i int) *entryView {
	v := &entryView{ID: e.ID, Kind: r.kinds[i], Time: e.Time, Label: e.Label}
	v.Badges = append(v.Badges, r.badges[e]...)
	v.Badges = append(v.Badges, r.ownedBadges[e]...)
	r.renderEntry(r.s.Full(e), v)
	return v
}
