package termsafe

import (
	"encoding/json"
	"testing"
)

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "user: fix the bug in ~/p/main.go", "user: fix the bug in ~/p/main.go"},
		{"unicode", "café ✓ 日本語 \\ \"q\"", "café ✓ 日本語 \\ \"q\""},
		{"OSC 0 window title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4K\x1b\\", `\x1b]52;c;cm0gLXJmIH4K\x1b\`},
		{"CSI 2J clear screen", "\x1b[2J\x1b[H", `\x1b[2J\x1b[H`},
		{"SGR 8 hidden text", "ok \x1b[8msecret\x1b[0m", `ok \x1b[8msecret\x1b[0m`},
		{"newline in a name", "a\nwarning: forged", `a\nwarning: forged`},
		{"CR, tab, NUL, DEL", "a\rb\tc\x00d\x7f", `a\rb\tc\x00d\x7f`},
		{"C1 CSI as UTF-8", "\u009b2J", `\u009b2J`},
		{"C1 CSI as a raw byte", "\x9b2J", `\x9b2J`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"bidi override", "evil\u202egnp.exe", `evil\u202egnp.exe`},
		{"bidi isolates", "\u2066x\u2069 \u200f", `\u2066x\u2069 \u200f`},
		{"line separator", "a\u2028b", `a\u2028b`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	in := map[string]string{"text": "a\x1b[2Jb\u009bc\u202ed\u00e9", "label": "plain"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := JSON(b)
	for _, c := range got {
		if c == 0x1b || c == 0x9b || c == 0xc2 {
			t.Fatalf("raw control byte %#x left in %s", c, got)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["text"] != in["text"] || back["label"] != "plain" {
		t.Errorf("%s does not decode to the same values: %v %q", got, err, back)
	}
	if plain := []byte(`{"a":"é"}`); &JSON(plain)[0] != &plain[0] {
		t.Error("clean JSON was copied")
	}
}
