package catalog

import (
	"slices"
	"strings"
	"testing"
)

func TestIndexText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Fix the Compaction bug in session/load.go", "fix the compaction bug in session load go "},
		{"Über straße: naïve CAFÉ — 42x", "uber straße naive cafe 42x "},
		{"  ", ""},
		{"the a an", "the a an "},
		{"x" + strings.Repeat("y", 100), "x" + strings.Repeat("y", 63) + " "},
		{"日本語のテキスト", "日本語のテキスト "},
		// A syllable is no accented form of its first jamo: 한국 is
		// not 하고.
		{"한국어 하고", "한국어 하고 "},
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

// appendIndexText agrees with the word-by-word functions queries use, on
// text of every kind of rune.
func TestIndexTextAgrees(t *testing.T) {
	pieces := []string{"a", "Z", "9", " ", "\n", "-", "é", "É", "ß", "日本", "—", "\xff", "ǅ", "Ⱥ", "ſ", "x_y", strings.Repeat("w", 70), strings.Repeat("é", 40)}
	r := uint32(1)
	for range 2000 {
		var b strings.Builder
		for range 12 {
			r = r*1664525 + 1013904223
			b.WriteString(pieces[r>>16%uint32(len(pieces))])
		}
		text := b.String()
		got := strings.Fields(string(appendIndexText([]byte("prefix "), text)))
		want := append([]string{"prefix"}, indexWords(text)...)
		if !slices.Equal(got, want) {
			t.Fatalf("appendIndexText(%q) = %q, want %q", text, got, want)
		}
	}
}
