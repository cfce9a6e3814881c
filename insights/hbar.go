package insights

import "strings"

// Horizontal bar charts: one labelled row per thing (a model, a tool, a
// project), the bar stacked from segments, its figure at its end.

// hbar is one row of a horizontal bar chart.
type hbar struct {
	// Label names the row; it is cut to fit, and said whole in Title.
	// Short, when set, is what the row is called where Label does not
	// fit: a model without its provider.
	Label, Short string
	// Segments are the bar's parts, drawn from the left in the classes
	// the chart is given.
	Segments []float64
	// Value is written at the bar's end.
	Value string
	// Title is the row's hover text; Href, when set, links the row.
	Title, Href string
}

const (
	hbarRow    = 22
	hbarHeight = 14
	// The labels at the left take what the longest needs, between
	// hbarLabelMin and hbarLabelMax; the figures at the bars' ends take
	// what the longest needs; the bars have the rest.
	hbarLabelMin = 40
	hbarLabelMax = 230
	hbarGap      = 8 // between a label and its bar, and a bar and its figure
)

// hbars fills c with rows drawn in classes (one per segment), scaled to
// the largest row's total.
func (c *Chart) hbars(rows []hbar, classes []string) {
	c.W = chartW
	c.H = len(rows)*hbarRow + 8
	labelSize, valueSize := fontSize("label"), fontSize("value")
	labelW, valueW := 0.0, 0.0
	for _, r := range rows {
		labelW = max(labelW, textWidth(r.Label, labelSize))
		valueW = max(valueW, textWidth(r.Value, valueSize))
	}
	const margin = 2
	labelW = min(max(labelW, hbarLabelMin), hbarLabelMax)
	x0 := margin + labelW + hbarGap
	x1 := float64(chartW) - margin - valueW - hbarGap
	biggest := 0.0
	for _, r := range rows {
		sum := 0.0
		for _, v := range r.Segments {
			sum += v
		}
		biggest = max(biggest, sum)
	}
	paths := make([]pathData, len(classes))
	for i, r := range rows {
		y := float64(4 + i*hbarRow)
		mid := y + hbarRow/2
		label := r.Label
		if r.Short != "" && textWidth(label, labelSize) > labelW {
			label = r.Short
		}
		c.Texts = append(c.Texts, Text{Class: "label", Anchor: "end", X: Num(x0 - hbarGap), Y: Num(mid + 4), Text: fitWidth(label, labelSize, labelW)})
		x := x0
		for k, v := range r.Segments {
			if biggest <= 0 || k >= len(classes) {
				break
			}
			w := v / biggest * (x1 - x0)
			paths[k].rect(x, mid-hbarHeight/2, w, hbarHeight)
			x += w
		}
		c.Texts = append(c.Texts, Text{Class: "value", Anchor: "start", X: Num(x + hbarGap), Y: Num(mid + 4), Text: r.Value})
		c.Points = append(c.Points, Point{Class: "hit", Href: r.Href, X: 0, Y: Num(y), W: chartW, H: hbarRow, Label: r.Title})
	}
	c.Rules = append(c.Rules, Rule{Class: "axis", X1: Num(x0), Y1: 2, X2: Num(x0), Y2: Num(c.H - 2)})
	for k, class := range classes {
		c.Shapes = append(c.Shapes, shape("bar "+class, &paths[k])...)
	}
}

// modelShort is a model's name without its provider ("claude-sonnet-4-5"
// for "anthropic/claude-sonnet-4-5"), "" when it has none.
func modelShort(key string) string {
	if _, model, ok := strings.Cut(key, "/"); ok && model != "" {
		return model
	}
	return ""
}
