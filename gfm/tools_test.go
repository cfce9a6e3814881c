package gfm

import (
	"fmt"
	"strings"
	"testing"
)

func TestTruncateLines(t *testing.T) {
	lines := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "line %d\n", i+1)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name        string
		in          string
		keptLines   int
		wantDropped int
	}{
		{"short", lines(10), 10, 0},
		{"a few over the limit are kept", lines(mdOutputLines + mdOutputSlack), mdOutputLines + mdOutputSlack, 0},
		{"long", lines(500), mdOutputLines, 300},
		{"one huge line", strings.Repeat("x", 2*mdOutputBytes), 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, dropped := truncateLines(tc.in)
			if got := strings.Count(kept, "\n") + 1; got != tc.keptLines || dropped != tc.wantDropped {
				t.Errorf("kept %d lines, dropped %d; want %d and %d", got, dropped, tc.keptLines, tc.wantDropped)
			}
			if len(kept) > mdOutputBytes {
				t.Errorf("kept %d bytes, more than %d", len(kept), mdOutputBytes)
			}
		})
	}
}

func TestPlainTerminalText(t *testing.T) {
	in := "\x1b[1;31mred\x1b[0m plain\x1b]0;title\x07\n10%\r50%\r100%\r\nbell\x07"
	if got, want := plainTerminalText(in), "red plain\n100%\nbell"; got != want {
		t.Errorf("plainTerminalText = %q, want %q", got, want)
	}
}
