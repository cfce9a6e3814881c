package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestIndexText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Fix the Compaction bug in session/load.go", "fix compaction bug session load go "},
		{"Über straße: naïve CAFÉ — 42x", "uber straße naive cafe 42x "},
		{"  ", ""},
		{"the a an", ""},
		{"x" + strings.Repeat("y", 100), "x" + strings.Repeat("y", 63) + " "},
		{"日本語のテキスト", "日本語のテキスト "},
		{"tab\tnew\nline\r\n", "tab new line "},
		{"\xff\xfebad utf8", "bad utf8 "},
	} {
		if got := string(appendIndexText(nil, tc.in)); got != tc.want {
			t.Errorf("appendIndexText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		// Queries fold words the same way.
		want := strings.Fields(tc.want)
		if got := indexWords(tc.in); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("indexWords(%q) = %q, want %q", tc.in, got, want)
		}
	}
}

func BenchmarkIndexText(b *testing.B) {
	text := strings.Repeat("If the set is lazy, the registry should scan the lock iterator next to _unused_! Über café. ", 1000)
	b.SetBytes(int64(len(text)))
	var buf []byte
	for b.Loop() {
		buf = appendIndexText(buf[:0], text)
	}
}
