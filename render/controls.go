package render

import (
	"encoding/binary"
	"io"
)

// controlReplacement says, per byte, what a page writes instead: nothing
// for a byte that stays, else the replacement's UTF-8.
var controlReplacement = func() (t [256]string) {
	for c := range 0x20 {
		switch c {
		case '\t', '\n', '\r', '\f': // HTML's white space
		case 0:
			t[c] = "\uFFFD" // as HTML parsers read NUL
		default:
			t[c] = string(rune(0x2400 + c)) // Control Pictures: ESC shows as ␛
		}
	}
	t[0x7f] = "\u2421" // ␡
	return t
}()

// WithoutControls returns a writer that passes a page through to w with
// its C0 control characters and DEL replaced: NUL by U+FFFD, the others
// by their visible Control Pictures (ESC by "␛", BEL by "␇"). Session
// text holds them (terminal output, or a JSON "\u001b"); in a page they
// are parse errors, invisible, and copied to a terminal an ESC sequence
// acts there. Tab, newline, carriage return and form feed stay: they are
// HTML's white space. Markup holds no control characters, so it passes
// unchanged; a replacement is valid UTF-8 that needs no escaping.
func WithoutControls(w io.Writer) io.Writer { return controlFilter{w} }

type controlFilter struct{ w io.Writer }

func (f controlFilter) Write(p []byte) (int, error) {
	last := 0
	for i := 0; i < len(p); i++ {
		// Eight bytes at a time while none is a control: nearly every
		// page has none, and the filter sees all of it.
		for i+8 <= len(p) && !hasControl(binary.LittleEndian.Uint64(p[i:])) {
			i += 8
		}
		if i >= len(p) {
			break
		}
		r := controlReplacement[p[i]]
		if r == "" {
			continue
		}
		if _, err := f.w.Write(p[last:i]); err != nil {
			return last, err
		}
		if _, err := io.WriteString(f.w, r); err != nil {
			return i, err
		}
		last = i + 1
	}
	if _, err := f.w.Write(p[last:]); err != nil {
		return last, err
	}
	return len(p), nil
}

// hasControl reports whether one of the eight bytes of x is below 0x20 or
// is 0x7f (a byte of 0x80 or more, part of a UTF-8 sequence, never counts).
func hasControl(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x & highs
	d := x ^ 0x7f*ones
	del := (d - ones) &^ d & highs
	return below|del != 0
}
