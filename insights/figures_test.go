package insights

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/piexport/piexport/session"
)

// TestOfAgreesWithTheSession checks the figures of the path against the
// session's own: every assistant message of the path is a turn with its
// usage, every tool call is counted once, and the timeline covers every
// timed entry.
func TestOfAgreesWithTheSession(t *testing.T) {
	for _, file := range []string{"pi-v3-civ6.jsonl", "pi15-sdk-usage-contextedit-main.jsonl", "pi-v1-pimono-large-session.jsonl", "pi-v3-sdk-branches-labels.jsonl"} {
		t.Run(file, func(t *testing.T) {
			s := load(t, file)
			path := s.Path(s.Leaf)
			got := Of(s, path, "", nil)
			var turns, calls, timed int
			var usage session.Usage
			for _, e := range path {
				if !e.Time.IsZero() {
					timed++
				}
				if e.Role() != "assistant" {
					continue
				}
				turns++
				u, _, _ := e.UsageRecord()
				usage.Add(u)
				for _, b := range e.Message.Content {
					if b.Type == "toolCall" {
						calls++
					}
				}
			}
			var sum session.Usage
			for i, turn := range got.Turns {
				if turn.N != i+1 {
					t.Errorf("turn %d is numbered %d", i+1, turn.N)
				}
				sum.Add(turn.Usage)
			}
			if len(got.Turns) != turns || sum.Tokens() != usage.Tokens() || sum.Cost != usage.Cost {
				t.Errorf("%d turns, %d tokens, $%v; the path has %d, %d, $%v", len(got.Turns), sum.Tokens(), sum.Cost, turns, usage.Tokens(), usage.Cost)
			}
			n := 0
			for _, st := range got.Tools {
				n += st.Calls
				if st.Errors > st.Calls {
					t.Errorf("%s: %d errors of %d calls", st.Name, st.Errors, st.Calls)
				}
			}
			if n != calls {
				t.Errorf("the tool mix counts %d calls, the path makes %d", n, calls)
			}
			entries := 0
			for _, sp := range got.Activity.Spans {
				entries += sp.Entries
				if sp.End.Before(sp.Start) {
					t.Errorf("a span ends before it starts: %v", sp)
				}
			}
			if entries != timed {
				t.Errorf("the timeline's spans hold %d entries, the path has %d with a time", entries, timed)
			}
			if diff := cmp.Diff(s.Stats().Breakdown, got.Breakdown); diff != "" {
				t.Errorf("breakdown is not pi's (-pi +got):\n%s", diff)
			}
		})
	}
}

func TestNiceScale(t *testing.T) {
	for _, tc := range []struct {
		max       float64
		step, top float64
	}{
		{80_000, 20_000, 80_000}, {80_400, 25_000, 100_000}, {4800, 2000, 6000}, {1, 0.25, 1}, {0, 1, 1}, {0.0123, 0.005, 0.015}, {999, 250, 1000}, {1_000_001, 500_000, 1_500_000},
	} {
		step, top := niceScale(tc.max, 4)
		if step != tc.step || top != tc.top {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v", tc.max, step, top, tc.step, tc.top)
		}
		if top < tc.max {
			t.Errorf("niceScale(%v): top %v is below the largest value", tc.max, top)
		}
	}
	for _, max := range []float64{1, 3, 7, 13, 250, 3001} {
		step, top := integerScale(max, 6)
		if step != float64(int(step)) || top < max {
			t.Errorf("integerScale(%v) = %v, %v", max, step, top)
		}
	}
}

func TestBuckets(t *testing.T) {
	for _, tc := range []struct{ n, max int }{{0, 10}, {3, 10}, {10, 10}, {11, 10}, {1000, 24}} {
		bs := buckets(tc.n, tc.max)
		if len(bs) > tc.max {
			t.Errorf("buckets(%d, %d): %d buckets", tc.n, tc.max, len(bs))
		}
		next := 0
		for _, b := range bs {
			if b.from != next || b.to <= b.from {
				t.Errorf("buckets(%d, %d): %v does not follow %d", tc.n, tc.max, b, next)
			}
			next = b.to
		}
		if next != tc.n {
			t.Errorf("buckets(%d, %d) cover %d items", tc.n, tc.max, next)
		}
	}
}

func TestIdleThreshold(t *testing.T) {
	entries := func(gaps ...time.Duration) []*session.Entry {
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		out := []*session.Entry{{ID: "0", Time: at}}
		for _, g := range gaps {
			at = at.Add(g)
			out = append(out, &session.Entry{ID: at.String(), Time: at})
		}
		return out
	}
	if got := activityOf(entries(time.Minute, 11*time.Minute, time.Minute)); len(got.Spans) != 2 || got.Idle != minIdle {
		t.Errorf("one pause of 11 min: %d spans, idle from %v", len(got.Spans), got.Idle)
	}
	var many []time.Duration
	for i := range 30 {
		many = append(many, time.Duration(20+i)*time.Minute, time.Second)
	}
	got := activityOf(entries(many...))
	if len(got.Spans) != maxSpans {
		t.Errorf("30 pauses: %d spans, want the %d the longest pauses leave", len(got.Spans), maxSpans)
	}
	if got.Idle <= 20*time.Minute {
		t.Errorf("30 pauses: idle from %v", got.Idle)
	}
}

func TestShorten(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"read", 10, "read"}, {"anthropic/claude-sonnet-4-5", 15, "anthrop…net-4-5"}, {"ääääääää", 5, "ää…ää"},
	} {
		if got := shorten(tc.in, tc.n); got != tc.want || len([]rune(got)) > tc.n {
			t.Errorf("shorten(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestContextWindow(t *testing.T) {
	for _, tc := range []struct {
		provider, model string
		want            int64
	}{
		{"anthropic", "claude-sonnet-4-5", 200_000},
		{"deepseek", "deepseek-v4-pro", 1_000_000},
		// A provider pi does not know, serving a model it does.
		{"my-proxy", "claude-sonnet-4-5", 200_000},
		{"ollama", "gemma4:e4b", 0},
		{"", "", 0},
	} {
		if got := ContextWindow(tc.provider, tc.model); got != tc.want {
			t.Errorf("ContextWindow(%q, %q) = %d, want %d", tc.provider, tc.model, got, tc.want)
		}
	}
}

func TestNum(t *testing.T) {
	for _, tc := range []struct {
		n    Num
		want string
	}{{0, "0"}, {-0.01, "0"}, {12.345, "12.3"}, {12.35, "12.4"}, {600, "600"}, {-4, "-4"}} {
		if got := tc.n.String(); got != tc.want {
			t.Errorf("Num(%v) = %q, want %q", float64(tc.n), got, tc.want)
		}
	}
}

// An axis over a usage of 1e30 tokens was labelled "-9223372036854775808":
// the float's conversion to int64 wrapped.
func TestTokenTickSaturates(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 1500: "1.5k", 1e30: "9223372037B", 9.3e18: "9223372037B"} {
		if got := tokenTick(v); got != want {
			t.Errorf("tokenTick(%g) = %q, want %q", v, got, want)
		}
	}
}
