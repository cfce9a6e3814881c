package insights

import (
	"math"
	"strconv"
	"time"

	"github.com/piexport/piexport/humanize"
)

// Chart is one SVG chart with the table of its numbers, ready for
// templates/insights.html, whose "chart" template draws any chart from
// these few kinds of shape. Geometry is in the units of the SVG's
// viewBox; text is plain text, escaped by html/template. Colours and line
// styles come from the classes (assets/insights.css), never from
// attributes: the pages' Content-Security-Policy allows no inline style.
type Chart struct {
	// ID is unique in the page; the SVG's title and description are
	// ID-t and ID-d.
	ID string
	// Title names the chart; Desc says in words what it shows, for a
	// reader who cannot see it.
	Title, Desc string
	// Class is added to the figure's classes: "context", "turns", …
	Class string
	// OverTime says the chart runs from the oldest at its left to the
	// newest at its right: where it scrolls sideways (on a phone), it
	// opens at its newest end.
	OverTime bool
	// W and H are the viewBox's size.
	W, H int
	// Legend names the series, by class.
	Legend []Legend
	// Rules are the grid lines and axes; Shapes the series and marks,
	// drawn in order; Texts the labels.
	Rules  []Rule
	Shapes []Shape
	Texts  []Text
	// Points are the focusable marks: each links to what it stands for
	// and names it on hover.
	Points []Point
	// Note says in a line what the chart leaves out, if anything;
	// Command, when set, ends it: a command line that shows the rest.
	Note, Command string
	// Table holds the numbers the chart draws.
	Table Table
}

// Legend is one series of a chart: its class and its name.
type Legend struct{ Class, Label string }

// Rule is a straight line.
type Rule struct {
	Class          string
	X1, Y1, X2, Y2 Num
}

// Shape is a path: a series, or marks drawn alike.
type Shape struct{ Class, D string }

// Text is one label. Anchor is start, middle or end.
type Text struct {
	Class, Anchor string
	X, Y          Num
	Text          string
}

// Point is a focusable mark: a link around a circle (R > 0) or a
// rectangle, with Label as its hover text and accessible name.
type Point struct {
	Class      string
	Href       string
	Label      string
	X, Y, W, H Num
	R          Num
}

// Table is the numbers of a chart as a table.
type Table struct {
	Caption string
	Head    []string
	Rows    []Row
	// Foot is a totals row, if any.
	Foot *Row
}

// Row is one row of a table; its first cell heads it.
type Row struct{ Cells []Cell }

// Cell is one table cell: text, a link, or a time (shown in the
// reader's time zone where the page's script can).
type Cell struct {
	Text string
	Href string
	Time time.Time
	// Num aligns the cell as a figure.
	Num bool
}

// Num is a coordinate, written with at most one decimal: charts a few
// hundred units wide need no more, and the SVG stays small.
type Num float64

func (n Num) String() string {
	v := math.Round(float64(n)*10) / 10
	if v == 0 {
		return "0" // never "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// Geometry shared by the charts: the viewBox is chartW wide, and the plot
// area leaves room for the y axis's labels at the left and the x axis's
// below.
const (
	chartW     = 600
	plotLeft   = 52
	plotRight  = chartW - 12
	plotTop    = 10
	axisBelow  = 22
	tickLength = 4
)

// frame is the plot area of a chart of height h.
type frame struct{ x0, x1, y0, y1 float64 }

func newFrame(h int) frame {
	return frame{x0: plotLeft, x1: plotRight, y0: plotTop, y1: float64(h - axisBelow)}
}

func (f frame) w() float64 { return f.x1 - f.x0 }
func (f frame) h() float64 { return f.y1 - f.y0 }

// scale maps values from 0 to top onto the frame's height.
func (f frame) y(v, top float64) float64 {
	if top <= 0 {
		return f.y1
	}
	return f.y1 - v/top*f.h()
}

// yAxis adds the horizontal grid lines and their labels for values from 0
// to top in steps of step, and the x axis's line.
func (c *Chart) yAxis(f frame, top, step float64, label func(float64) string) {
	for v := 0.0; v <= top+step/2; v += step {
		y := Num(f.y(v, top))
		if v > 0 {
			c.Rules = append(c.Rules, Rule{Class: "grid", X1: Num(f.x0), Y1: y, X2: Num(f.x1), Y2: y})
		}
		c.Texts = append(c.Texts, Text{Class: "tick", Anchor: "end", X: Num(f.x0 - 6), Y: y + 4, Text: label(v)})
	}
	c.Rules = append(c.Rules, Rule{Class: "axis", X1: Num(f.x0), Y1: Num(f.y1), X2: Num(f.x1), Y2: Num(f.y1)})
}

// tokenTick labels an axis of token counts. The axis's top is a float
// that can pass int64's range (a usage of 1e30 tokens); Go's conversion
// would wrap it to -9223372036854775808, so it saturates first.
func tokenTick(v float64) string {
	if v >= math.MaxInt64 {
		return humanize.Tokens(math.MaxInt64)
	}
	return humanize.Tokens(int64(v))
}

// niceScale returns a round step and the top of an axis that shows values
// up to max in about n steps: 1, 2, 2.5 or 5 times a power of ten.
func niceScale(max float64, n int) (step, top float64) {
	if max <= 0 || math.IsNaN(max) || math.IsInf(max, 0) {
		return 1, 1
	}
	raw := max / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	top = math.Ceil(max/step-1e-9) * step
	return step, top
}

// integerScale is niceScale for counts: whole steps only.
func integerScale(max float64, n int) (step, top float64) {
	step, top = niceScale(max, n)
	if step < 1 {
		step, top = 1, math.Max(1, math.Ceil(max))
	}
	if step == 2.5 {
		step, top = niceScale(max, n-1)
		step = math.Max(2, math.Round(step))
		top = math.Ceil(max/step) * step
	}
	return step, top
}

// bucket is a run of consecutive items drawn as one: a chart draws at
// most a few dozen bars or points, whatever the session's length, so its
// SVG stays a few kilobytes.
type bucket struct{ from, to int } // items [from, to)

// buckets splits n items into at most max runs of near-equal length.
func buckets(n, max int) []bucket {
	if n <= 0 {
		return nil
	}
	k := min(n, max)
	out := make([]bucket, k)
	for i := range k {
		out[i] = bucket{from: i * n / k, to: (i + 1) * n / k}
	}
	return out
}
