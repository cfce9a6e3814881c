package insights

import "strings"

// pathData writes the d attribute of an SVG path, compactly.
type pathData struct{ b strings.Builder }

func (p *pathData) cmd(c byte, nums ...float64) {
	p.b.WriteByte(c)
	for i, n := range nums {
		if i > 0 {
			p.b.WriteByte(',')
		}
		p.b.WriteString(Num(n).String())
	}
}

func (p *pathData) M(x, y float64) { p.cmd('M', x, y) }
func (p *pathData) L(x, y float64) { p.cmd('L', x, y) }
func (p *pathData) V(y float64)    { p.cmd('V', y) }

// rect adds a closed rectangle, unless it is too thin to draw: a
// tenth of a unit, which is what Num keeps.
func (p *pathData) rect(x, y, w, h float64) {
	if w < 0.05 || h < 0.05 {
		return
	}
	p.M(x, y)
	p.cmd('h', w)
	p.cmd('v', h)
	p.cmd('h', -w)
	p.b.WriteByte('z')
}

func (p *pathData) String() string { return p.b.String() }

// shape is a Shape of p's path, or none when p is empty.
func shape(class string, p *pathData) []Shape {
	if p.b.Len() == 0 {
		return nil
	}
	return []Shape{{Class: class, D: p.String()}}
}
