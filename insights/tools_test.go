package insights

import (
	"slices"
	"strings"
	"testing"
)

// Calls the user stopped with Esc (pi 1.6's "Operation aborted") are
// counted apart in the tool mix: not as errors, in a segment, a legend
// entry and a column of their own, and marked in the lists of calls.
func TestToolMixAborted(t *testing.T) {
	s := load(t, "pi16-sdk-links-diagnostics.jsonl")
	ins := Of(s, s.Path(s.Leaf), "/home/dev", nil)
	got := map[string]ToolStat{}
	for _, st := range ins.Tools {
		got[st.Name] = st
	}
	if b, e := got["bash"], got["edit"]; b.Calls != 2 || b.Errors != 0 || b.Aborted != 1 || e.Calls != 2 || e.Errors != 1 || e.Aborted != 1 {
		t.Errorf("bash %+v, edit %+v: want 2 calls each, 1 aborted each, the edit's second failed", b, e)
	}
	chart := ins.toolsChart()
	svg := execute(t, "svg", chart)
	checkXML(t, svg)
	if !strings.Contains(svg, `class="bar s-abort"`) || !slices.ContainsFunc(chart.Legend, func(l Legend) bool { return l.Label == "aborted" }) {
		t.Errorf("no segment or legend entry for aborted calls:\n%s", svg)
	}
	if !slices.Contains(chart.Table.Head, "Aborted") {
		t.Errorf("table head %q has no Aborted column", chart.Table.Head)
	}
	if !strings.Contains(chart.Desc, "1 error, 2 aborted by the user") {
		t.Errorf("description %q", chart.Desc)
	}
	sec := ins.Section(link)
	var aborted int
	for _, c := range append(sec.Slowest, sec.Largest...) {
		if c.Aborted {
			aborted++
			if c.Error {
				t.Errorf("%+v is both aborted and failed", c)
			}
		}
	}
	if html := execute(t, "insights", sec); aborted == 0 || !strings.Contains(html, `<span class="call-aborted">aborted</span>`) {
		t.Errorf("the lists do not mark the aborted calls (%d listed)", aborted)
	}

	// Without an aborted call the chart is as it was: two segments.
	plain := load(t, "pi-v3-civ6.jsonl")
	c := Of(plain, plain.Path(plain.Leaf), "/home/dev", nil).toolsChart()
	if len(c.Legend) != 2 || slices.Contains(c.Table.Head, "Aborted") {
		t.Errorf("a session without aborted calls: legend %v, head %q", c.Legend, c.Table.Head)
	}
}
