package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceCategories are what Chromium's performance panel records: the main
// thread's tasks and what runs inside them, and the page's own marks.
var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "disabled-by-default-devtools.timeline.frame",
	"blink.user_timing", "loading", "toplevel", "v8", "v8.execute", "blink", "cc",
	// Samples of the page's JavaScript, so that a trace says which functions took the time.
	"disabled-by-default-v8.cpu_profiler",
}

// trace records a Chromium trace of one tab, from start until stop.
type trace struct {
	mu     sync.Mutex
	events []json.RawMessage
	done   chan struct{}
}

// startTrace starts recording; call it before the navigation.
func startTrace(tab context.Context) (*trace, error) {
	t := &trace{done: make(chan struct{})}
	var once sync.Once
	if err := chromedp.Listen(tab, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			t.mu.Lock()
			for _, v := range ev.Value {
				t.events = append(t.events, json.RawMessage(v))
			}
			t.mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(t.done) })
		}
	}); err != nil {
		return nil, err
	}
	_, err := chromedp.Call(tab, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: traceCategories},
	})
	return t, err
}

// stop ends the recording and waits for the last events.
func (t *trace) stop(ctx context.Context, tab context.Context) error {
	if _, err := chromedp.Call(tab, tracing.End, struct{}{}); err != nil {
		return err
	}
	select {
	case <-t.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// write saves the trace in the format Chromium's performance panel and
// Perfetto open.
func (t *trace) write(file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := io.Writer(f)
	fmt.Fprint(w, `{"traceEvents":[`)
	for i, ev := range t.events {
		if i > 0 {
			fmt.Fprint(w, ",\n")
		}
		w.Write(ev)
	}
	fmt.Fprint(w, "]}\n")
	return f.Close()
}

// traceEvent is the part of a trace event the summary reads.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	TDur float64         `json:"tdur"` // the thread's CPU time
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// summary says where the page's main thread spent its time between
// navigation start and the mark named until (the probe's, when the text
// showed): each kind of event's own CPU time (less the events inside it),
// the largest first, and the longest tasks. CPU time, not wall time: on a
// busy machine the thread waits for a core, which a wall clock counts.
func (t *trace) summary(until string) (string, error) {
	var evs []traceEvent
	for _, raw := range t.events {
		var e traceEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			return "", err
		}
		evs = append(evs, e)
	}
	// The page's main thread: the renderer's CrRendererMain that ran the
	// navigation start mark.
	type thread struct{ pid, tid int }
	main := map[thread]bool{}
	for _, e := range evs {
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), "CrRendererMain") {
			main[thread{e.Pid, e.Tid}] = true
		}
	}
	var start, end float64
	var on thread
	for _, e := range evs {
		if e.Name == "navigationStart" && main[thread{e.Pid, e.Tid}] && strings.Contains(string(e.Args), `"isLoadingMainFrame":true`) {
			start, on = e.Ts, thread{e.Pid, e.Tid}
		}
	}
	for _, e := range evs {
		if e.Name == until && (thread{e.Pid, e.Tid}) == on && e.Ts > start {
			end = e.Ts
		}
	}
	if start == 0 || end == 0 {
		return "", fmt.Errorf("the trace has no navigation start or no %q mark on the page's main thread", until)
	}
	var spans []traceEvent
	for _, e := range evs {
		if e.Ph == "X" && (thread{e.Pid, e.Tid}) == on && e.Ts >= start && e.Ts < end {
			spans = append(spans, e)
		}
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].Ts != spans[j].Ts {
			return spans[i].Ts < spans[j].Ts
		}
		return spans[i].Dur > spans[j].Dur
	})
	self := map[string]float64{}
	var stack []int
	own := make([]float64, len(spans))
	var tasks []traceEvent
	for i, e := range spans {
		own[i] = e.TDur
		for len(stack) > 0 {
			top := spans[stack[len(stack)-1]]
			if e.Ts < top.Ts+top.Dur {
				break
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			own[stack[len(stack)-1]] -= e.TDur
		} else if e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask" {
			tasks = append(tasks, e)
		}
		stack = append(stack, i)
	}
	for i, e := range spans {
		self[e.Name] += own[i]
	}
	names := make([]string, 0, len(self))
	for k := range self {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return self[names[i]] > self[names[j]] })
	var b strings.Builder
	fmt.Fprintf(&b, "main thread from navigation start to %s: %.0f ms\n", until, (end-start)/1000)
	busy, cpu := 0.0, 0.0
	for _, tk := range tasks {
		busy += tk.Dur
		cpu += tk.TDur
	}
	fmt.Fprintf(&b, "  in tasks: %.0f ms in %d tasks, of which CPU %.0f ms; each kind's own CPU time:\n", busy/1000, len(tasks), cpu/1000)
	for _, k := range names {
		if self[k] < 2000 {
			break
		}
		fmt.Fprintf(&b, "  %-36s %7.1f ms\n", k, self[k]/1000)
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].Dur > tasks[j].Dur })
	for i, tk := range tasks {
		if i == 5 {
			break
		}
		fmt.Fprintf(&b, "  task at %.0f ms: %.1f ms, CPU %.1f ms\n", (tk.Ts-start)/1000, tk.Dur/1000, tk.TDur/1000)
	}
	return b.String(), nil
}
