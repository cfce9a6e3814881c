package render

import (
	"strings"
	"testing"
	"time"
)

func TestANSIToHTML(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello\nworld\n", "hello\nworld\n"},
		{"escaped", `<b>&"'`, `&lt;b&gt;&amp;"'`},
		{"red", "\x1b[31mred\x1b[0m plain", `<span class="ansi-fg-1">red</span> plain`},
		{"bold bright", "\x1b[1;92mok\x1b[0m", `<span class="ansi-fg-10 ansi-bold">ok</span>`},
		{"background", "\x1b[41mx\x1b[49m \x1b[103my\x1b[m", `<span class="ansi-bg-1">x</span> <span class="ansi-bg-11">y</span>`},
		{"default fg", "\x1b[33ma\x1b[39mb", `<span class="ansi-fg-3">a</span>b`},
		{"empty reset", "\x1b[32ma\x1b[mb", `<span class="ansi-fg-2">a</span>b`},
		{"attributes", "\x1b[1;2;3;4;9mx", `<span class="ansi-bold ansi-dim ansi-italic ansi-underline ansi-strike">x</span>`},
		{"attributes off", "\x1b[1;3;4;9mx\x1b[22;23;24;29my", `<span class="ansi-bold ansi-italic ansi-underline ansi-strike">x</span>y`},
		{"underline off by subparameter", "\x1b[4mx\x1b[4:0my", `<span class="ansi-underline">x</span>y`},
		{"inverse default", "\x1b[7mx\x1b[27my", `<span class="ansi-fg-inverse ansi-bg-inverse">x</span>y`},
		{"inverse coloured", "\x1b[31;7mx", `<span class="ansi-fg-inverse ansi-bg-1">x</span>`},
		{"style spans lines", "\x1b[36ma\nb\x1b[0m\nc", "<span class=\"ansi-fg-6\">a\nb</span>\nc"},
		{"no empty spans", "\x1b[31m\x1b[0m\x1b[32m\x1b[0mx", "x"},
		{"same style one span", "\x1b[31ma\x1b[31mb", `<span class="ansi-fg-1">ab</span>`},
		{"escaped inside span", "\x1b[31m<i>\x1b[0m", `<span class="ansi-fg-1">&lt;i&gt;</span>`},

		{"256 basic", "\x1b[38;5;2mx", `<span class="ansi-fg-2">x</span>`},
		{"256 bright", "\x1b[38;5;9mx", `<span class="ansi-fg-9">x</span>`},
		{"256 cube red", "\x1b[38;5;196mx", `<span class="ansi-fg-9">x</span>`},
		{"256 cube dark green", "\x1b[38;5;34mx", `<span class="ansi-fg-2">x</span>`},
		{"256 grey", "\x1b[38;5;244mx", `<span class="ansi-fg-8">x</span>`},
		{"256 near black", "\x1b[38;5;233mx", `<span class="ansi-fg-0">x</span>`},
		{"256 light grey", "\x1b[48;5;255mx", `<span class="ansi-bg-7">x</span>`},
		{"256 cube white", "\x1b[48;5;231mx", `<span class="ansi-bg-15">x</span>`},
		{"256 colon", "\x1b[38:5:208mx", `<span class="ansi-fg-3">x</span>`},
		{"256 out of range", "\x1b[38;5;300mx", "x"},
		{"truecolour", "\x1b[38;2;255;0;0mx", `<span class="ansi-fg-9">x</span>`},
		{"truecolour blue bg", "\x1b[48;2;0;0;230mx", `<span class="ansi-bg-4">x</span>`},
		{"truecolour colon", "\x1b[38:2::0:205:0mx", `<span class="ansi-fg-2">x</span>`},
		{"truecolour colon no space", "\x1b[38:2:0:205:205mx", `<span class="ansi-fg-6">x</span>`},
		{"truecolour then bold", "\x1b[38;2;1;2;3;1mx", `<span class="ansi-fg-0 ansi-bold">x</span>`},
		{"truncated extended", "\x1b[38;5mx", "x"},
		{"underline colour ignored", "\x1b[58;5;4mx", "x"},
		{"underline colour rgb ignored", "\x1b[58;2;1;2;3;31mx", `<span class="ansi-fg-1">x</span>`},

		{"erase line", "\x1b[2K\x1b[1Gtext", "text"},
		{"cursor moves", "a\x1b[3Ab\x1b[10;20Hc\x1b[?25l\x1b[?25hd", "abcd"},
		{"private SGR-like", "\x1b[>4;2mx", "x"},
		{"OSC title BEL", "\x1b]0;my title\x07text", "text"},
		{"OSC title ST", "\x1b]2;t\x1b\\text", "text"},
		// pi 1.6 shows OSC 8 hyperlinks as links: http, https, mailto.
		{"OSC 8 hyperlink", "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ after",
			`<a href="https://example.com" rel="noopener noreferrer nofollow">link</a> after`},
		{"OSC 8 BEL and params", "\x1b]8;id=a1;http://h/x?a=1&b=\"2\"\x07t\x1b]8;;\x07",
			`<a href="http://h/x?a=1&amp;b=&#34;2&#34;" rel="noopener noreferrer nofollow">t</a>`},
		{"OSC 8 mailto", "\x1b]8;;MAILTO:a@b.c\x1b\\mail\x1b]8;;\x1b\\",
			`<a href="MAILTO:a@b.c" rel="noopener noreferrer nofollow">mail</a>`},
		{"OSC 8 javascript", "\x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"OSC 8 javascript with tab", "\x1b]8;;java\tscript:alert(1)\x07click\x1b]8;;\x07", "click"},
		{"OSC 8 file and data", "\x1b]8;;file:///etc/passwd\x07f\x1b]8;;data:text/html,x\x07d\x1b]8;;\x07", "fd"},
		{"OSC 8 relative", "\x1b]8;;/local\x07r\x1b]8;;\x07", "r"},
		{"OSC 8 controls dropped from target", "\x1b]8;; https://e.x/\x01a \x07t\x1b]8;;\x07",
			`<a href="https://e.x/a" rel="noopener noreferrer nofollow">t</a>`},
		{"OSC 8 colours inside", "\x1b[31mred \x1b]8;;https://e.x\x07li\x1b[1mnk\x1b]8;;\x07 end\x1b[0m",
			`<span class="ansi-fg-1">red </span><a href="https://e.x" rel="noopener noreferrer nofollow"><span class="ansi-fg-1">li</span><span class="ansi-fg-1 ansi-bold">nk</span></a><span class="ansi-fg-1 ansi-bold"> end</span>`},
		{"OSC 8 over lines", "\x1b]8;;https://e.x\x07a\nb\x1b]8;;\x07c",
			"<a href=\"https://e.x\" rel=\"noopener noreferrer nofollow\">a\nb</a>c"},
		{"OSC 8 never closed", "\x1b]8;;https://e.x\x07a",
			`<a href="https://e.x" rel="noopener noreferrer nofollow">a</a>`},
		{"OSC 8 without text", "\x1b]8;;https://e.x\x07\x1b]8;;\x07x", "x"},
		{"OSC 8 one after another", "\x1b]8;;https://a\x07a\x1b]8;;https://b\x07b\x1b]8;;\x07",
			`<a href="https://a" rel="noopener noreferrer nofollow">a</a><a href="https://b" rel="noopener noreferrer nofollow">b</a>`},
		{"OSC 8 unterminated", "\x1b]8;;https://e.x\nnext", "\nnext"},
		{"OSC 8 cut by ESC", "\x1b]8;;https://e.x\x1b[31mx", `<span class="ansi-fg-1">x</span>`},
		{"OSC 52 clipboard", "a\x1b]52;c;cm0gLXJmIH4K\x07b\x1b]52;c;?\x1b\\c", "abc"},
		{"OSC 7 and 1337", "\x1b]7;file://host/dir\x07\x1b]1337;SetMark\x07x", "x"},
		{"APC and PM", "\x1b_Gf=100;AAAA\x1b\\\x1b^pm\x07x", "x"},
		{"unterminated OSC", "a\x1b]0;title\nnext", "a\nnext"},
		{"DCS", "\x1bP1$r0m\x1b\\x", "x"},
		{"charset", "\x1b(Bx\x1b)0y", "xy"},
		{"keypad and save", "\x1b=\x1b7x\x1b8\x1b>", "x"},
		{"lone ESC at end", "abc\x1b", "abc"},
		{"truncated CSI at end", "abc\x1b[1;3", "abc"},
		{"CSI cut by invalid byte", "\x1b[1\x01x", "x"},
		{"controls", "a\x07b\x00c\bd\x7fe\x0ff", "abcdef"},
		{"tab kept", "a\tb", "a\tb"},

		{"progress", "10%\r50%\r100%\ndone", "100%\ndone"},
		{"progress erase", "\x1b[32m10%\r\x1b[K100%\x1b[0m", `<span class="ansi-fg-2">100%</span>`},
		{"colour set before redraw", "\x1b[31mold\rnew", `<span class="ansi-fg-1">new</span>`},
		{"CRLF", "a\r\nb\r\n", "a\nb\n"},
		{"trailing CR", "a\r", "a"},
		{"CR then CRLF", "old\rnew\r\n", "new\n"},

		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"empty", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Terminal(tc.in)); got != tc.want {
				t.Errorf("Terminal(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestColourMapping(t *testing.T) {
	for i := range 16 {
		if got := colour256(i); got != i {
			t.Errorf("colour256(%d) = %d", i, got)
		}
		c := basicRGB[i]
		if got := nearestBasic(c[0], c[1], c[2]); got != i {
			t.Errorf("nearestBasic(%v) = %d, want %d", c, got, i)
		}
	}
	for n := range 256 {
		if got := colour256(n); got < 0 || got > 15 {
			t.Errorf("colour256(%d) = %d", n, got)
		}
	}
}

// Hostile input must stay linear: long parameter lists, endless
// unterminated strings, a million carriage returns.
func TestANSILinear(t *testing.T) {
	cases := []struct{ name, in string }{
		{"params", "\x1b[" + strings.Repeat("38;5;", 200_000) + "m"},
		{"many CSI", strings.Repeat("\x1b[1;31mx\x1b[0m", 100_000)},
		{"open OSC", "\x1b]" + strings.Repeat("a", 1_000_000)},
		{"carriage returns", strings.Repeat("abc\r", 300_000)},
		{"escapes", strings.Repeat("\x1b", 1_000_000)},
		{"long line", strings.Repeat("<", 1_000_000)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			Terminal(tc.in)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v for %d bytes", d, len(tc.in))
			}
		})
	}
}

func TestANSISafe(t *testing.T) {
	out := string(Terminal("\x1b]8;;javascript:alert(1)\x1b\\<script>alert(1)</script>\x1b[31m<img src=x onerror=alert(1)>"))
	for _, p := range contentSafetyProblems("<pre>" + out + "</pre>") {
		t.Errorf("%s: %s", p, out)
	}
}

func FuzzANSIToHTML(f *testing.F) {
	f.Add("\x1b[1;31mred\x1b[0m\r\n\x1b]8;;x\x07y\x1b[38;2;1;2;3m<")
	f.Fuzz(func(t *testing.T, s string) {
		out := string(Terminal(s))
		if strings.ContainsAny(out, "\x1b\r") {
			t.Errorf("escape or CR left in %q", out)
		}
		if strings.Count(out, "<span") != strings.Count(out, "</span>") {
			t.Errorf("unbalanced spans: %q", out)
		}
		for _, p := range contentSafetyProblems("<pre>" + out + "</pre>") {
			t.Errorf("%s: %q", p, out)
		}
	})
}
