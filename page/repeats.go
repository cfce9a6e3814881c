package page

import (
	"html/template"
	"sync"

	"github.com/piexport/piexport/session"
)

// Sessions hold the same tool output again and again: a file read before
// and after each edit, the same test run twice. The page renders such an
// output once (highlighting is most of an export's time) and writes it
// wherever it comes. The outputs that repeat are counted before rendering
// starts, from a checksum of each tool result's text that a lean session
// keeps too; an output's rendering is kept only from its first use to its
// last, so what is kept is what is still to come, not every output.

// repeats are the tool outputs of a session that come more than once.
type repeats struct {
	mu sync.Mutex
	// left counts, per checksum of an output's text, the results still
	// to be rendered that hold it; only checksums that repeat are in it.
	left map[uint64]int
	// done holds the renderings of outputs still to come again, by
	// checksum and how they were rendered; a rendering under way is
	// there too, unfinished, so that another worker waits for it rather
	// than render it again.
	done map[uint64]map[string]*rendering
}

// rendering is the HTML of one output, ready once ready is closed.
type rendering struct {
	ready chan struct{}
	html  template.HTML
}

// countRepeats finds the tool outputs of results that repeat; nil when
// none do.
func countRepeats(results []*session.Message) *repeats {
	seen := map[uint64]int{}
	for _, m := range results {
		if m.ResultBytes() >= repeatMinBytes {
			seen[m.ResultSum()]++
		}
	}
	r := &repeats{left: map[uint64]int{}, done: map[uint64]map[string]*rendering{}}
	for sum, n := range seen {
		if n > 1 {
			r.left[sum] = n
		}
	}
	if len(r.left) == 0 {
		return nil
	}
	return r
}

// repeatMinBytes is the size below which an output is rendered each time:
// cheaper than keeping it.
const repeatMinBytes = 256

// output returns the HTML of res's output that render makes, made once
// for all the results that hold the same output, rendered the same way
// (key).
func (r *repeats) output(res *session.Message, key string, render func() template.HTML) template.HTML {
	if r == nil || res.ResultBytes() < repeatMinBytes {
		return render()
	}
	sum := res.ResultSum()
	r.mu.Lock()
	if _, ok := r.left[sum]; !ok {
		r.mu.Unlock()
		return render()
	}
	if x, ok := r.done[sum][key]; ok {
		r.use(sum)
		r.mu.Unlock()
		<-x.ready
		return x.html
	}
	x := &rendering{ready: make(chan struct{})}
	if r.done[sum] == nil {
		r.done[sum] = map[string]*rendering{}
	}
	r.done[sum][key] = x
	r.use(sum)
	r.mu.Unlock()
	x.html = render()
	close(x.ready)
	return x.html
}

// use counts one rendering of the output with checksum sum, and lets its
// renderings go after the last.
func (r *repeats) use(sum uint64) {
	if r.left[sum]--; r.left[sum] <= 0 {
		delete(r.left, sum)
		delete(r.done, sum)
	}
}
