package browsertest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// EmulateMedia makes the tab render as for media ("screen", "print")
// with the system's colour scheme ("light", "dark").
func (tb *Tab) EmulateMedia(media, scheme string) {
	tb.T.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Media:    media,
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	}))
}

// SetTimeZone makes the tab run in the time zone tz ("UTC",
// "America/New_York"), whatever the machine's: pages show dates in the
// reader's zone.
func (tb *Tab) SetTimeZone(tz string) {
	tb.T.Helper()
	tb.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: tz})
		return err
	}))
}

// ChartProblems looks at every chart of the page (package insights'
// figure.chart) as drawn: each must be visible, its box (which may scroll
// a wide chart sideways) fit the viewport's width, a chart over time
// that scrolls open at its newest end and say so, every label lie
// whole inside its SVG (which clips what passes its edges), and the
// chart be legible on what is behind it: its text at 4.5:1 contrast or
// more, its series (bars, lines, bands) at 2.2:1. It returns what is
// wrong, one line each, and how many charts it saw.
func ChartProblems(tb *Tab) (problems []string, charts int) {
	tb.T.Helper()
	type result struct {
		Problems []string `json:"problems"`
		Charts   int      `json:"charts"`
	}
	r := Eval[result](tb, chartCheckJS)
	return r.Problems, r.Charts
}

const chartCheckJS = `(() => {
	const problems = [];
	const rgb = c => {
		const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/.exec(c || '');
		return m ? { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] } : null;
	};
	const lum = c => {
		const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
	};
	const contrast = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const background = el => {
		for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
			const c = rgb(getComputedStyle(e).backgroundColor);
			if (c && c.a > 0.5) return c;
		}
		return { r: 255, g: 255, b: 255, a: 1 };
	};
	// The charts whose x axis is time, oldest at the left.
	const overTime = '.chart-context, .chart-turns, .chart-timeline, .chart-usage-period, .chart-usage-tokens';
	const figures = document.querySelectorAll('figure.chart');
	figures.forEach((fig, i) => {
		const name = (fig.querySelector('figcaption') || {}).textContent || 'chart ' + i;
		const svg = fig.querySelector('svg.plot');
		if (!svg) { problems.push(name + ': no svg'); return; }
		const box = svg.getBoundingClientRect();
		if (!svg.checkVisibility() || box.width < 200 || box.height < 16) {
			problems.push(name + ': not visible (' + Math.round(box.width) + 'x' + Math.round(box.height) + ')');
			return;
		}
		const wrap = svg.closest('.plot-wrap') || svg;
		const frame = wrap.getBoundingClientRect();
		if (frame.right > innerWidth + 1) problems.push(name + ': ends at ' + Math.round(frame.right) + ' px in a ' + innerWidth + ' px window');
		if (wrap.scrollWidth <= wrap.clientWidth + 1 && Math.abs(box.left - frame.left) > 1) {
			problems.push(name + ': starts ' + Math.round(box.left - frame.left) + ' px right of its box, where the others start at its left');
		}
		if (fig.matches(overTime) && wrap.scrollWidth > wrap.clientWidth + 1) {
			if (Math.abs(box.right - frame.right) > 1) problems.push(name + ': scrolls sideways but does not open at its newest end (the chart ends ' + Math.round(box.right - frame.right) + ' px right of its box)');
			const cue = getComputedStyle(fig.querySelector('figcaption'), '::after').content;
			if (!cue || cue === 'none' || cue === 'normal') problems.push(name + ': scrolls sideways with no cue that earlier data lies to the left');
		}
		const bg = background(svg);
		svg.querySelectorAll('text').forEach(t => {
			const r = t.getBoundingClientRect();
			if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
				problems.push(name + ': text "' + t.textContent + '" is cut: it spans ' + Math.round(r.left - box.left) + ' to ' +
					Math.round(r.right - box.left) + ' px across, ' + Math.round(r.top - box.top) + ' to ' + Math.round(r.bottom - box.top) +
					' px down a ' + Math.round(box.width) + 'x' + Math.round(box.height) + ' px chart');
			}
			const c = rgb(getComputedStyle(t).fill);
			if (!c) { problems.push(name + ': text "' + t.textContent + '" has no fill'); return; }
			const k = contrast(c, bg);
			if (k < 4.5) problems.push(name + ': text "' + t.textContent + '" at contrast ' + k.toFixed(2));
		});
		svg.querySelectorAll('path.bar, path.line, .span, path.prompt').forEach(s => {
			const st = getComputedStyle(s);
			const c = rgb(s.classList.contains('line') || s.classList.contains('prompt') ? st.stroke : st.fill);
			if (!c) { problems.push(name + ': ' + s.getAttribute('class') + ' is not painted'); return; }
			const k = contrast(c, bg);
			if (k < 2.2) problems.push(name + ': ' + s.getAttribute('class') + ' at contrast ' + k.toFixed(2));
		});
	});
	return { problems, charts: figures.length };
})()`
