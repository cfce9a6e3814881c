package render

import (
	"bytes"
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/piexport/piexport/internal/termtext"
)

// ansiStyle is the SGR state that applies to the text being written.
// Colours are indexes into the 16 basic colours, -1 for the default: the
// page's CSP forbids inline styles, so 256-colour and truecolour values
// are mapped to the nearest class the stylesheet defines.
type ansiStyle struct {
	fg, bg                                        int8
	bold, dim, italic, underline, inverse, strike bool
}

var ansiDefault = ansiStyle{fg: -1, bg: -1}

// Terminal turns terminal output into HTML text: SGR colours and
// attributes become <span class="ansi-…"> (see assets/content.css), OSC 8
// hyperlinks to http, https and mailto URLs become links (as pi 1.6 shows
// them; other targets keep their text and lose the link), every other
// escape sequence and control character is dropped, and where a
// line was redrawn with \r (progress bars) only the text after the last
// \r is kept. The result is inline content meant for a <pre>. It runs in
// one pass with no backtracking.
func Terminal(s string) template.HTML {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	c := ansiConverter{cur: ansiDefault, open: ansiDefault}
	c.out.Grow(len(s) + len(s)/8)
	if !hasControls(s) {
		// Most tool output: nothing but text to escape.
		escapeTextTo(&c.out, s)
		return trusted(c.out.Bytes())
	}
	text, escape := c.text, c.escape
	for len(s) > 0 {
		line, rest, nl := strings.Cut(s, "\n")
		termtext.Line(line, text, escape)
		if nl {
			if c.cur != c.open {
				// Close a finished style before the newline, not after.
				c.setOpen(ansiDefault)
			}
			c.out.WriteByte('\n')
		}
		s = rest
	}
	c.setOpen(ansiDefault)
	if c.inLink {
		c.out.WriteString("</a>")
	}
	return trusted(c.out.Bytes())
}

// hasControls reports whether s holds a byte Terminal acts on: a control
// character other than tab and newline (ESC, \r, NUL…) or DEL.
func hasControls(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\n' && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}

type ansiConverter struct {
	out  bytes.Buffer
	cur  ansiStyle // what SGR sequences have set so far
	open ansiStyle // what the open <span> shows; ansiDefault when none is open
	// linkTo is the target of the OSC 8 hyperlink the text is in, "" out
	// of one; inLink is set once its <a> is written. Style spans nest
	// inside the <a>.
	linkTo string
	inLink bool
}

func (c *ansiConverter) text(t string) {
	if c.linkTo != "" && !c.inLink {
		c.setOpen(ansiDefault)
		c.out.WriteString(`<a href="`)
		c.out.WriteString(template.HTMLEscapeString(c.linkTo))
		c.out.WriteString(`" ` + relLink + `>`)
		c.inLink = true
	}
	if c.cur != c.open {
		c.setOpen(c.cur)
	}
	escapeTextTo(&c.out, t)
}

func (c *ansiConverter) setOpen(st ansiStyle) {
	if c.open != ansiDefault {
		c.out.WriteString("</span>")
	}
	c.open = st
	if st == ansiDefault {
		return
	}
	c.out.WriteString(`<span class="`)
	var classes []string
	fg, bg := st.fg, st.bg
	fgName, bgName := "ansi-fg-", "ansi-bg-"
	if st.inverse {
		fg, bg = bg, fg
	}
	switch {
	case fg >= 0:
		classes = append(classes, fgName+strconv.Itoa(int(fg)))
	case st.inverse:
		classes = append(classes, "ansi-fg-inverse")
	}
	switch {
	case bg >= 0:
		classes = append(classes, bgName+strconv.Itoa(int(bg)))
	case st.inverse:
		classes = append(classes, "ansi-bg-inverse")
	}
	for _, a := range []struct {
		on   bool
		name string
	}{
		{st.bold, "ansi-bold"}, {st.dim, "ansi-dim"}, {st.italic, "ansi-italic"},
		{st.underline, "ansi-underline"}, {st.strike, "ansi-strike"},
	} {
		if a.on {
			classes = append(classes, a.name)
		}
	}
	c.out.WriteString(strings.Join(classes, " "))
	c.out.WriteString(`">`)
}

// escape acts on an escape sequence: SGR sets the style, an OSC 8
// hyperlink with an allowed target (termtext.LinkTarget) starts a link
// and an empty one ends it; every other sequence is dropped.
func (c *ansiConverter) escape(seq termtext.Seq) {
	switch {
	case seq.SGR:
		c.sgr(seq.Params)
	case seq.Link:
		c.link(seq.URL)
	}
}

// link ends the open link, if any, and starts one to url when it may lead
// anywhere. The <a> is written with the link's first text, so that a link
// without text leaves nothing.
func (c *ansiConverter) link(url string) {
	if c.inLink {
		c.setOpen(ansiDefault)
		c.out.WriteString("</a>")
		c.inLink = false
	}
	c.linkTo, _ = termtext.LinkTarget(url)
}

// sgrParam is one ';'-separated SGR parameter with its ':' sub-parameters;
// -1 stands for an empty one.
type sgrParam []int

func parseSGR(params string) []sgrParam {
	var out []sgrParam
	for p := range strings.SplitSeq(params, ";") {
		var sub sgrParam
		for s := range strings.SplitSeq(p, ":") {
			n := -1
			for k := 0; k < len(s); k++ {
				if s[k] < '0' || s[k] > '9' {
					continue
				}
				if n < 0 {
					n = 0
				}
				if n < 1<<16 {
					n = n*10 + int(s[k]-'0')
				}
			}
			sub = append(sub, n)
		}
		out = append(out, sub)
	}
	return out
}

func (c *ansiConverter) sgr(params string) {
	ps := parseSGR(params)
	st := &c.cur
	for k := 0; k < len(ps); k++ {
		p := ps[k]
		code := max(p[0], 0) // an empty parameter means 0
		switch {
		case code == 0:
			*st = ansiDefault
		case code == 1:
			st.bold = true
		case code == 2:
			st.dim = true
		case code == 3:
			st.italic = true
		case code == 4:
			st.underline = len(p) < 2 || p[1] != 0 // 4:0 is "no underline"
		case code == 7:
			st.inverse = true
		case code == 9:
			st.strike = true
		case code == 21:
			st.underline = true
		case code == 22:
			st.bold, st.dim = false, false
		case code == 23:
			st.italic = false
		case code == 24:
			st.underline = false
		case code == 27:
			st.inverse = false
		case code == 29:
			st.strike = false
		case code >= 30 && code <= 37:
			st.fg = int8(code - 30)
		case code == 39:
			st.fg = -1
		case code >= 40 && code <= 47:
			st.bg = int8(code - 40)
		case code == 49:
			st.bg = -1
		case code >= 90 && code <= 97:
			st.fg = int8(code - 90 + 8)
		case code >= 100 && code <= 107:
			st.bg = int8(code - 100 + 8)
		case code == 38 || code == 48 || code == 58:
			var col int
			if len(p) > 1 {
				col = extendedColour(p[1:])
			} else {
				var used int
				col, used = extendedColourSemicolons(ps[k+1:])
				k += used
			}
			// 58 (underline colour) is parsed only so that its
			// arguments are not read as attributes.
			if col >= 0 && code == 38 {
				st.fg = int8(col)
			} else if col >= 0 && code == 48 {
				st.bg = int8(col)
			}
		}
	}
}

// extendedColour reads the colon form: 5:n, 2:r:g:b or 2:cs:r:g:b.
func extendedColour(p sgrParam) int {
	switch {
	case p[0] == 5 && len(p) >= 2:
		return colour256(p[1])
	case p[0] == 2 && len(p) >= 5:
		return nearestBasic(p[2], p[3], p[4])
	case p[0] == 2 && len(p) == 4:
		return nearestBasic(p[1], p[2], p[3])
	}
	return -1
}

// extendedColourSemicolons reads the common form 38;5;n or 38;2;r;g;b
// from the parameters after the 38 and says how many it used.
func extendedColourSemicolons(ps []sgrParam) (col, used int) {
	if len(ps) == 0 {
		return -1, 0
	}
	switch ps[0][0] {
	case 5:
		if len(ps) < 2 {
			return -1, len(ps)
		}
		return colour256(ps[1][0]), 2
	case 2:
		if len(ps) < 4 {
			return -1, len(ps)
		}
		return nearestBasic(ps[1][0], ps[2][0], ps[3][0]), 4
	}
	return -1, 1
}

// basicRGB is xterm's default palette for the 16 basic colours, the
// reference for mapping other colours onto them.
var basicRGB = [16][3]int{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0},
	{0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0},
	{92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}

// colour256 maps an xterm 256-colour index to one of the 16.
func colour256(n int) int {
	switch {
	case n < 0 || n > 255:
		return -1
	case n < 16:
		return n
	case n < 232:
		levels := [6]int{0, 95, 135, 175, 215, 255}
		n -= 16
		return nearestBasic(levels[n/36], levels[n/6%6], levels[n%6])
	default:
		v := 8 + 10*(n-232)
		return nearestBasic(v, v, v)
	}
}

func nearestBasic(r, g, b int) int {
	if r < 0 || g < 0 || b < 0 {
		return -1
	}
	best, bestD := -1, 1<<62
	for i, c := range basicRGB {
		dr, dg, db := r-c[0], g-c[1], b-c[2]
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
