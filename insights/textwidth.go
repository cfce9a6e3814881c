package insights

// Labels are laid out on the server, where no font can be measured: the
// width of a text is estimated from the advance widths of DejaVu Sans,
// the widest of the fonts the pages' sans-serif stack meets in practice
// (it is Linux's default; system-ui, Segoe UI, Helvetica and Roboto are
// narrower), so a label given room for that width fits in any of them.
// The SVG clips whatever passes its edges.

// fontSize is the size, in the viewBox's units, assets/insights.css gives
// the texts of class.
func fontSize(class string) float64 {
	switch class {
	case "label", "value":
		return 13
	case "gap":
		return 11
	}
	return 12
}

// ascent and descent are DejaVu Sans's, in ems: how far a text's box
// reaches above and below its baseline.
const ascent, descent = 0.93, 0.24

// advance holds DejaVu Sans's advance widths of printable ASCII, in
// thousandths of an em, from ' ' on.
var advance = [95]uint16{
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, // ' ' to '/'
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, // '0' to '?'
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // '@' to 'O'
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, // 'P' to '_'
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, // '`' to 'o'
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, // 'p' to '~'
}

// textWidth estimates how wide s is drawn at size.
func textWidth(s string, size float64) float64 {
	w := 0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			w += int(advance[r-' '])
		case r == '·' || r == '’' || r == '‘':
			w += 318
		case r == '–':
			w += 500
		case r == '…' || r == '—':
			w += 1000
		case r >= 0x1100 && isWide(r):
			w += 1000
		default:
			w += 800
		}
	}
	return float64(w) / 1000 * size
}

// isWide reports whether r is drawn a full em wide: East Asian scripts
// and their punctuation, and emoji.
func isWide(r rune) bool {
	return r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe4f) || (r >= 0xff00 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1f300 && r <= 0x1faff) || (r >= 0x20000 && r <= 0x3fffd)
}

// fitWidth shortens s until it is drawn within room at size, cutting it
// in the middle with "…" (a path keeps its start and its file, a name
// its family and its version); s when it fits whole.
func fitWidth(s string, size, room float64) string {
	if textWidth(s, size) <= room {
		return s
	}
	r := []rune(s)
	for n := len(r) - 1; n > 1; n-- {
		if t := shorten(s, n); textWidth(t, size) <= room {
			return t
		}
	}
	if len(r) > 0 && textWidth(string(r[0])+"…", size) <= room {
		return string(r[0]) + "…"
	}
	return "…"
}

// box is the area a text of c covers in the viewBox, as estimated.
func (t Text) box() (x0, y0, x1, y1 float64) {
	size := fontSize(t.Class)
	w := textWidth(t.Text, size)
	x0 = float64(t.X)
	switch t.Anchor {
	case "middle":
		x0 -= w / 2
	case "end":
		x0 -= w
	}
	return x0, float64(t.Y) - ascent*size, x0 + w, float64(t.Y) + descent*size
}

// keepTextsInside moves each text that would pass an edge of the chart
// back inside it, by at most what it passes by: the SVG would clip it.
// Charts lay out their labels to fit; this catches what a layout cannot
// foresee (a tick at the last moment of a timeline, a text longer than
// its room in a narrower font's estimate).
func (c *Chart) keepTextsInside() {
	const margin = 1
	for i := range c.Texts {
		t := &c.Texts[i]
		x0, y0, x1, y1 := t.box()
		switch {
		case x0 < margin:
			t.X += Num(margin - x0)
		case x1 > float64(c.W)-margin:
			t.X -= Num(min(x1-(float64(c.W)-margin), x0-margin))
		}
		switch {
		case y0 < margin:
			t.Y += Num(margin - y0)
		case y1 > float64(c.H)-margin:
			t.Y -= Num(y1 - (float64(c.H) - margin))
		}
	}
}
