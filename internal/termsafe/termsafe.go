// Package termsafe makes untrusted text safe to write to a terminal or a
// log. Session text, labels and file names can hold escape sequences
// that a terminal would obey: OSC 0 sets the window title, OSC 52 writes
// the clipboard, CSI 2J clears the screen, SGR 8 hides what follows. A
// newline in a file name forges a line of its own in a log, and a
// right-to-left override makes text read other than it is. Everything
// piexport writes to a terminal or a log goes through Escape; the
// machine-readable JSON it prints goes through JSON.
package termsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// unsafeRune reports whether r must not reach a terminal as it is: the C0
// controls (newline and tab included: every string escaped here is one
// line), DEL, the C1 controls (U+009B is CSI on terminals that take 8-bit
// controls), the line and paragraph separators, and the bidirectional
// formatting characters.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, 0x80 <= r && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, // Arabic letter mark, LRM, RLM
		0x202a <= r && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		0x2066 <= r && r <= 0x2069, // LRI, RLI, FSI, PDI
		r == 0x2028, r == 0x2029:   // line and paragraph separators
		return true
	}
	return false
}

// Escape returns s with every character a terminal could act on written
// as a Go escape: ESC as \x1b, a newline as \n, U+202E as \u202e, a byte
// that is not UTF-8 as \xff. Printable text, backslashes included, is
// left as it is. s is returned unchanged, without copying, when nothing
// needs escaping.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case !unsafeRune(r):
			b.WriteString(s[i : i+size])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			b.WriteString(`\x`)
			b.WriteString(hex2(byte(r)))
		default:
			b.WriteString(`\u`)
			b.WriteString(hex4(r))
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the index of the first byte of s that Escape would
// change, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// JSON returns the JSON text b with the characters Escape would escape
// that JSON encoders leave raw (the C1 controls and the bidirectional
// formatting characters) written as \u escapes. JSON's structure is
// ASCII, so such characters only occur inside strings, where the escape
// means the same character: the document still decodes to the same
// values.
func JSON(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] < 0x80 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError && unsafeRune(r) {
			if out == nil {
				out = make([]byte, 0, len(b)+16)
			}
			out = append(out, b[last:i]...)
			out = append(out, `\u`...)
			out = append(out, hex4(r)...)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func hex2(c byte) string {
	s := strconv.FormatUint(uint64(c), 16)
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}

func hex4(r rune) string {
	s := strconv.FormatUint(uint64(r), 16)
	return strings.Repeat("0", max(0, 4-len(s))) + s
}
