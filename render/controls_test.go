package render

import (
	"bytes"
	"strings"
	"testing"
)

func TestWithoutControls(t *testing.T) {
	var out bytes.Buffer
	w := WithoutControls(&out)
	in := "<p class=\"a\">nul:\x00 esc:\x1b[31mred\x1b[0m bell:\x07 del:\x7f\ttab\nline\r\n\fé✓</p>"
	// In pieces, as a buffered writer hands them on.
	for _, part := range []string{in[:10], in[10:11], in[11:]} {
		if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	want := "<p class=\"a\">nul:\uFFFD esc:\u241b[31mred\u241b[0m bell:\u2407 del:\u2421\ttab\nline\r\n\fé✓</p>"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
	for c := range 0x20 {
		if c != '\t' && c != '\n' && c != '\r' && c != '\f' && strings.ContainsRune(out.String(), rune(c)) {
			t.Errorf("control %#x passed", c)
		}
	}
}

// BenchmarkWithoutControls filters a page without control characters,
// as nearly every page is, and one with two on every line.
func BenchmarkWithoutControls(b *testing.B) {
	for name, line := range map[string]string{
		"clean":    "<div class=\"entry\"><p>Some text of a message, with <code>code</code> and a colour.</p></div>\n",
		"controls": "<div class=\"entry\"><p>Some text of a message, with <code>code</code> and a \x1b[31mcolour\x1b[0m.</p></div>\n",
	} {
		b.Run(name, func(b *testing.B) {
			page := bytes.Repeat([]byte(line), 1<<14)
			b.SetBytes(int64(len(page)))
			w := WithoutControls(discard{})
			for b.Loop() {
				w.Write(page)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestHasControl(t *testing.T) {
	for c := range 256 {
		want := c < 0x20 || c == 0x7f
		for pos := range 8 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			x := uint64(0)
			for i := 7; i >= 0; i-- {
				x = x<<8 | uint64(b[i])
			}
			if got := hasControl(x); got != want {
				t.Fatalf("hasControl with %#x at %d = %v", c, pos, got)
			}
		}
	}
	// Bytes of UTF-8 sequences next to each other never count.
	for _, s := range []string{"éééé", "✓✓✓✓✓✓", "\u0080\u0080\u0080\u0080", "\u2400\u2400\u2400"} {
		x := uint64(0)
		for i := 7; i >= 0; i-- {
			x = x<<8 | uint64(s[i])
		}
		if hasControl(x) {
			t.Errorf("hasControl(%q)", s[:8])
		}
	}
}
