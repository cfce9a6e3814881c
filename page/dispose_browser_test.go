package page

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/piexport/piexport/internal/browsertest"
)

// listenerProbe keeps count, in a page, of the event listeners its
// scripts have added and not yet removed (by removeEventListener, by
// the abort of their signal, or once they ran, for a once), and of the
// elements ResizeObservers watch: __listening() names each listener,
// __observed() counts the elements.
const listenerProbe = `(() => {
	const live = new Set();
	const add = EventTarget.prototype.addEventListener;
	const remove = EventTarget.prototype.removeEventListener;
	const captures = (o) => typeof o === 'boolean' ? o : !!(o && o.capture);
	const name = (t) => t === window ? 'window' : t === document ? 'document' :
		t instanceof Element ? t.tagName.toLowerCase() + (t.id ? '#' + t.id : '') : t.constructor.name;
	const find = (target, type, fn, capture) => {
		for (const r of live) if (r.target === target && r.type === type && r.fn === fn && r.capture === capture) return r;
		return null;
	};
	EventTarget.prototype.addEventListener = function (type, fn, opts) {
		const signal = opts && typeof opts === 'object' ? opts.signal : null;
		const capture = captures(opts);
		if (fn && !(signal && signal.aborted) && !find(this, type, fn, capture)) {
			const rec = { target: this, type, fn, capture };
			live.add(rec);
			if (signal) add.call(signal, 'abort', () => live.delete(rec), { once: true });
			if (opts && typeof opts === 'object' && opts.once) add.call(this, type, () => live.delete(rec), { once: true, capture });
		}
		return add.call(this, type, fn, opts);
	};
	EventTarget.prototype.removeEventListener = function (type, fn, opts) {
		const rec = find(this, type, fn, captures(opts));
		if (rec) live.delete(rec);
		return remove.call(this, type, fn, opts);
	};
	const watching = new Map();
	const Observer = window.ResizeObserver;
	window.ResizeObserver = class extends Observer {
		constructor(fn) { super(fn); watching.set(this, new Set()); }
		observe(el, o) { watching.get(this).add(el); return super.observe(el, o); }
		unobserve(el) { watching.get(this).delete(el); return super.unobserve(el); }
		disconnect() { watching.get(this).clear(); return super.disconnect(); }
	};
	window.__listening = () => Array.from(live, (r) => r.type + ' on ' + name(r.target));
	window.__observed = () => { let n = 0; for (const s of watching.values()) n += s.size; return n; };
})()`

// openProbed opens a page of the session file with its session file to
// download (so that every part has something to do), the probe in place.
func openProbed(t *testing.T, tb *browsertest.Tab) {
	t.Helper()
	file := "../testdata/corpus/pi-v3-sdk-branches-labels.jsonl"
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tb.BeforeScripts(listenerProbe)
	tb.Navigate(writeExport(t, loadCorpus(t, "pi-v3-sdk-branches-labels.jsonl"), Options{JSONL: raw, JSONLName: "s.jsonl"}))
}

// TestBrowserPageTornDown: piexportPage.dispose tears the whole page
// down: no listener of its scripts is left and no element is watched,
// and what a reader does to the page then changes nothing in it.
func TestBrowserPageTornDown(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	openProbed(t, tb)
	listening := browsertest.Eval[[]string](tb, `__listening()`)
	for _, want := range []string{"keydown on document", "scroll on window", "click on button#theme-toggle", "input on input#tree-search", "beforeprint on window", "popstate on window"} {
		if !slices.Contains(listening, want) {
			t.Fatalf("the probe does not see %q among the page's listeners %q", want, listening)
		}
	}
	if browsertest.Eval[int](tb, `__observed()`) == 0 {
		t.Fatal("the probe sees no element watched for its size")
	}
	// The page answers the keyboard before it is torn down.
	tb.Press("t")
	if pressed := browsertest.Eval[string](tb, `document.querySelector('[data-toggle-all="thinking"]').getAttribute('aria-pressed')`); pressed != "true" {
		t.Fatalf("t does not open the thinking before the page is torn down (aria-pressed %s)", pressed)
	}

	tb.Do(chromedp.Evaluate[chromedp.Void](`piexportPage.dispose()`))
	if left := browsertest.Eval[[]string](tb, `__listening()`); len(left) != 0 {
		t.Errorf("torn down, the page still listens: %q", left)
	}
	if n := browsertest.Eval[int](tb, `__observed()`); n != 0 {
		t.Errorf("torn down, the page still watches %d elements' sizes", n)
	}
	snapshot := `JSON.stringify({html: document.body.innerHTML, root: document.documentElement.outerHTML.slice(0, 300), highlights: CSS.highlights.size})`
	before := browsertest.Eval[string](tb, snapshot)
	tb.Do(chromedp.Evaluate[chromedp.Void](`(() => {
		const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
		for (const k of ['/', 't', 'o', 'Escape']) key(k);
		for (const sel of ['#theme-toggle', '#side-toggle', '[data-filter="all"]', '[data-toggle-all="output"]', '#to-leaf', '#tree a[data-row]', 'a[data-copy]', 'button.copy-code', '#download-jsonl']) {
			const el = document.querySelector(sel);
			if (el) el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
		}
		const tree = document.getElementById('tree');
		tree.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowDown', bubbles: true}));
		const search = document.getElementById('tree-search');
		search.value = 'the';
		search.dispatchEvent(new Event('input', {bubbles: true}));
		window.scrollTo(0, 400);
		tree.scrollTop = 200;
		for (const type of ['resize', 'beforeprint', 'afterprint', 'hashchange', 'popstate']) window.dispatchEvent(new Event(type));
	})()`))
	// Long enough for a search's pause, a scheduled frame and a timer.
	tb.Do(chromedp.Evaluate[chromedp.Void](`new Promise(done => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 300))`, chromedp.EvalAwaitPromise))
	if after := browsertest.Eval[string](tb, snapshot); after != before {
		t.Errorf("torn down, the page still changes when the reader acts: %s", firstDifference(before, after))
	}
}

// TestBrowserModulesTornDown makes each of the page's modules on its
// own, in a page whose script was torn down: each listens (the probe
// counts its listeners), acts on what it listens to (its hook is
// called), and once disposed leaves no listener, watches no element and
// no longer acts.
func TestBrowserModulesTornDown(t *testing.T) {
	browser := browsertest.Start(t)
	t.Parallel()
	tb := browsertest.OpenTab(t, browser)
	openProbed(t, tb)
	tb.Do(chromedp.Evaluate[chromedp.Void](`piexportPage.dispose()`))
	tb.Do(chromedp.Evaluate[chromedp.Void](`window.__check = async (make, poke) => {
		const frames = () => new Promise(done => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(done)), 150));
		const base = __listening().length, watched = __observed();
		const calls = {n: 0};
		const hook = () => { calls.n++; };
		const part = make(hook);
		const added = __listening().length - base + __observed() - watched;
		await poke(part);
		await frames();
		const acting = calls.n;
		part.dispose();
		const left = __listening().length - base + __observed() - watched;
		await poke(part);
		await frames();
		return {added, acting, left, after: calls.n - acting};
	}`))
	// A tree of one row, for the modules that need an index.
	tb.Do(chromedp.Evaluate[chromedp.Void](`window.__idx = {ids: ['a'], parents: [-1], kinds: [0], kindNames: ['user'], roles: [0], roleNames: [''],
		labels: {}, absorbed: [], lines: [2], usage: {}, edits: {}, leaf: 0, view: 0, filters: {default: [true]},
		config: {entryPrefix: 'e:', rowBlock: 2048, foldStart: '<!--f-->', foldEnd: '<!--/f-->', groupType: 'x', toolCard: '<section', toolOutput: '<div'},
		preview: () => 'a row'}`))
	for _, tc := range []struct {
		name, make, poke string
		listens          bool // it listens to events; else it has only its hooks or its work to stop
	}{
		{"Keys", `(hook) => new Keys(document, {t: hook})`,
			`() => document.dispatchEvent(new KeyboardEvent('keydown', {key: 't', bubbles: true}))`, true},
		{"Sidebar", `(hook) => new Sidebar(document, {opened: hook, toggled: hook})`,
			`() => document.getElementById('side-toggle').click()`, true},
		{"Printing", `(hook) => new Printing(window, document.getElementById('path'), {entries: () => 1, screen: () => ({from: 0, to: 1}), at: () => 0, size: () => 0, draw: () => Promise.resolve(), drawNow: hook, after: hook})`,
			`() => { dispatchEvent(new Event('beforeprint')); dispatchEvent(new Event('afterprint')); }`, true},
		{"DeepLinks", `(hook) => new DeepLinks(window, document.getElementById('path'), new Map([['a', 0]]), 'e:', hook)`,
			`() => { history.replaceState(null, '', '#e:a'); dispatchEvent(new PopStateEvent('popstate')); }`, true},
		{"CopyLinks", `(hook) => new CopyLinks(document, {url: () => 'x', chosen: hook})`,
			`() => document.querySelector('a[data-copy]').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))`, true},
		{"SearchUI", `(hook) => new SearchUI(document, {n: 1, matching: 0, hits: null, selected: -1, setHits() {}, passes: () => true}, null, {open: hook, cleared: hook})`,
			`() => { const s = document.getElementById('tree-search'); s.value = ''; s.dispatchEvent(new Event('input')); }`, true},
		{"ThemeToggle", `(hook) => { new MutationObserver(hook).observe(document.documentElement, {attributes: true, attributeFilter: ['data-theme']}); return new ThemeToggle(document.getElementById('theme-toggle'), document.documentElement); }`,
			`() => document.getElementById('theme-toggle').click()`, true},
		{"CodeBlocks", `(hook) => { const box = document.createElement('div'); box.className = 'code-box';
			box.innerHTML = '<pre class="output">x</pre><button type="button" class="copy-code">Copy</button>'; document.body.appendChild(box);
			new MutationObserver(hook).observe(box, {characterData: true, childList: true, subtree: true});
			navigator.clipboard.writeText = () => Promise.resolve();
			const c = new CodeBlocks(document, () => {}); c.box = box; return c; }`,
			`(c) => c.box.querySelector('button').click()`, true},
		{"Articles", `(hook) => { new MutationObserver(hook).observe(document.querySelector('[data-toggle-all="thinking"]'), {childList: true}); return new Articles(document, document.getElementById('path'), new Store(0, 'x'), __idx.config); }`,
			`() => document.querySelector('[data-toggle-all="thinking"]').click()`, true},
		{"SessionDownload", `(hook) => { HTMLAnchorElement.prototype.click = hook; return new SessionDownload(document); }`,
			`() => document.getElementById('download-jsonl').click()`, true},
		{"PathView", `(hook) => { const el = document.createElement('div'); document.body.appendChild(el);
			const v = new PathView(el, 1, {ids: ['a'], store: new Store(1, 'x'), make: () => null, missing: () => {}, estimate: () => 50, drawn: () => {}, offset: () => 0});
			v.setPath(Int32Array.of(0)); v.update(); v.update = hook; return v; }`,
			`() => dispatchEvent(new Event('scroll'))`, true},
		{"TreeView", `(hook) => { const el = document.createElement('div'); document.body.appendChild(el);
			const v = new TreeView(el, __idx, {open: hook}); v.apply(); return v; }`,
			`(v) => v.el.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}))`, true},
		{"HitMarks", `(hook) => { const m = new HitMarks(document); m.show(document.getElementById('path'), ['the'], false); m.hook = hook; return m; }`,
			`async (m) => { await new Promise(done => setTimeout(done, 50)); if (CSS.highlights.has('piexport-hit')) m.hook(); }`, false},
		{"Store", `(hook) => { const s = new Store(1, 'x'); s.onArrive(hook); return s; }`,
			`(s) => s.finish()`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type checked struct{ Added, Acting, Left, After int }
			got := browsertest.Eval[checked](tb, `__check(`+tc.make+`, `+tc.poke+`)`, chromedp.EvalAwaitPromise)
			if tc.listens && got.Added == 0 {
				t.Errorf("made, %s adds no listener", tc.name)
			}
			if got.Acting == 0 {
				t.Fatalf("made, %s does not act: the test pokes it wrong", tc.name)
			}
			if got.Left != 0 {
				t.Errorf("disposed, %s leaves %d listeners or watched elements", tc.name, got.Left)
			}
			if got.After != 0 {
				t.Errorf("disposed, %s still acts (%d times)", tc.name, got.After)
			}
		})
	}
}

// firstDifference shows where two long strings part.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return "…" + strings.ToValidUTF8(a[from:min(len(a), i+120)], "") + "… became …" + strings.ToValidUTF8(b[from:min(len(b), i+120)], "") + "…"
}
