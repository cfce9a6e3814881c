package gfm

import "testing"

func TestFencedAndCodeSpan(t *testing.T) {
	for _, tc := range []struct{ lang, in, want string }{
		{"go", "x := 1\n", "```go\nx := 1\n```"},
		{"text", "a ``` b\n``````", "```````text\na ``` b\n``````\n```````"},
		{"go`x", "y", "```\ny\n```"}, // a language that could end the fence line is dropped
		{"", "", "```\n```"},
	} {
		if got := fenced(tc.lang, tc.in); got != tc.want {
			t.Errorf("fenced(%q, %q) = %q, want %q", tc.lang, tc.in, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"~/a b":    "`~/a b`",
		"a`b":      "``a`b``",
		"`a":       "`` `a ``",
		"a\nb":     "`a b`",
		"":         "",
		" padded ": "`padded`",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := mdInline("a *b* | <c> $1 $2\n#3 ~/x {y}"), `a &#42;b&#42; &#124; &lt;c&gt; &#36;1 &#36;2 &#35;3 ~/x &#123;y&#125;`; got != want {
		t.Errorf("mdInline = %q, want %q", got, want)
	}
}

func TestFenceLang(t *testing.T) {
	for file, want := range map[string]string{
		"main.go": "go", `C:\x\App.TSX`: "tsx", "/p/Makefile": "make", "notes": "text", "a.unknownext": "text",
		"build.gradle.kts": "kotlin", ".env": "text",
	} {
		if got := fenceLang(file); got != want {
			t.Errorf("fenceLang(%q) = %q, want %q", file, got, want)
		}
	}
}
