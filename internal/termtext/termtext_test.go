package termtext

import (
	"slices"
	"strings"
	"testing"
)

func TestPlainLinks(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		links          []Link
	}{
		{"plain text is kept as it is", "a\tb\nc", "a\tb\nc", nil},
		{"colours", "\x1b[31mred\x1b[0m ok", "red ok", nil},
		{"hyperlink ST", "see \x1b]8;;https://e.x/a\x1b\\the docs\x1b]8;;\x1b\\.", "see the docs.",
			[]Link{{"the docs", "https://e.x/a"}}},
		{"hyperlink BEL with id", "\x1b]8;id=1;mailto:a@b.c\x07write\x1b]8;;\x07", "write",
			[]Link{{"write", "mailto:a@b.c"}}},
		{"javascript keeps its text only", "\x1b]8;;javascript:alert(1)\x07x\x1b]8;;\x07", "x", nil},
		{"file keeps its text only", "\x1b]8;;file:///etc\x07f\x1b]8;;\x07", "f", nil},
		{"title and clipboard dropped", "\x1b]0;title\x07a\x1b]52;c;ZWNobyBoaQ==\x1b\\b", "ab", nil},
		{"unterminated OSC ends with its line", "a\x1b]0;t\nb", "a\nb", nil},
		{"progress redraw", "10%\r100%\r\ndone", "100%\ndone", nil},
		{"link text overwritten by redraw", "\x1b]8;;https://e.x\x07old\x1b]8;;\x07\rnew", "new", nil},
		{"controls dropped", "a\x07b\x00c\x7fd", "abcd", nil},
		{"link never closed", "\x1b]8;;https://e.x\x07open", "open", []Link{{"open", "https://e.x"}}},
		{"link over two lines", "\x1b]8;;https://e.x\x07a\nb\x1b]8;;\x07", "a\nb", []Link{{"a\nb", "https://e.x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, links := PlainLinks(tc.in)
			if got != tc.want {
				t.Errorf("PlainLinks(%q) text = %q, want %q", tc.in, got, tc.want)
			}
			if !slices.Equal(links, tc.links) {
				t.Errorf("PlainLinks(%q) links = %q, want %q", tc.in, links, tc.links)
			}
			if p := Plain(tc.in); p != tc.want {
				t.Errorf("Plain(%q) = %q, want %q", tc.in, p, tc.want)
			}
			if strings.ContainsAny(got, "\x1b\x07\r") {
				t.Errorf("PlainLinks(%q) left a control character: %q", tc.in, got)
			}
		})
	}
}

func TestLinkTarget(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"https://example.com/x", "https://example.com/x", true},
		{"HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM", true},
		{"mailto:a@b.c", "mailto:a@b.c", true},
		{"  https://e.x  ", "https://e.x", true},
		{"ht\ttp://e.x", "http://e.x", true},
		{"javascript:alert(1)", "", false},
		{"java\nscript:alert(1)", "", false},
		{"\x00javascript:alert(1)", "", false},
		{"vbscript:x", "", false},
		{"file:///etc/passwd", "", false},
		{"data:text/html,<script>", "", false},
		{"//evil.example/x", "", false},
		{"/relative", "", false},
		{"", "", false},
	} {
		got, ok := LinkTarget(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("LinkTarget(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"\x1b]8;;https://e.x\x07a\x1b]8;;\x07", "\x1b[31mx\r\n", "\x1b]52;c;x\x1b\\", "\x1bP\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		text, links := PlainLinks(s)
		if strings.ContainsAny(text, "\x1b\r\x07\x00") {
			t.Errorf("PlainLinks(%q) = %q holds a control character", s, text)
		}
		for _, l := range links {
			if _, ok := LinkTarget(l.URL); !ok || l.Text == "" {
				t.Errorf("PlainLinks(%q) gave the link %q", s, l)
			}
		}
	})
}
