// @ts-check
// Path view: the entries of the path in view, as a virtual list.
//
// Only the entries near the viewport are elements; the others are two
// spacers, above and below, as tall as those entries would be: their
// measured heights once they have been drawn, estimates before. When
// entries are made or dropped, or a height turns out other than its
// estimate, the scroll position is held on the entry the reader is
// looking at (the anchor), so the page never jumps. An entry whose
// article has not arrived yet is a placeholder of its estimated height.
//
// A browser lays out a document of some 2^25 px at most (Chromium's
// limit; Firefox's is lower), and a long session on a narrow screen is
// far taller. So the path never asks for more than CAP px of spacers:
// past that, the spacers stand for the entries they replace at a scale
// (scale < 1), while the entries drawn keep their own heights. Near the
// entries drawn the page scrolls as it always does, a pixel for a pixel;
// a jump into a spacer (the scroll bar dragged, End) lands where the
// scale says, at the same fraction of the path. A scaled path holds the
// reader's place by changing the upper spacer, not the scroll position,
// while the page scrolls (a scroll by script would stop a smooth scroll
// half way), and gives the spacer its height back once scrolling stops.
//
// The view knows nothing of what an article holds: make turns HTML into
// the element (and prepares it: times, badges, buttons), and the store
// says where each article is.

// Sums: a Fenwick tree of the entries' heights, so that the height of
// everything above an entry, and the entry at a given height, take time
// in the logarithm of the path's length.
class Sums {
  /** @param {ArrayLike<number>} values */
  constructor(values) {
    const n = values.length;
    this.n = n;
    this.v = Float64Array.from(values);
    this.t = new Float64Array(n + 1);
    for (let j = 1; j <= n; j++) {
      this.t[j] += this.v[j - 1];
      const p = j + (j & -j);
      if (p <= n) this.t[p] += this.t[j];
    }
    this.top = 1;
    while (this.top * 2 <= n) this.top *= 2;
  }

  /** @param {number} k @param {number} x */
  set(k, x) {
    const d = x - this.v[k];
    if (!d) return;
    this.v[k] = x;
    for (let j = k + 1; j <= this.n; j += j & -j) this.t[j] += d;
  }

  /** before is the sum of the heights of entries 0..k-1. @param {number} k */
  before(k) {
    let s = 0;
    for (let j = k; j > 0; j -= j & -j) s += this.t[j];
    return s;
  }

  total() { return this.before(this.n); }

  /** at is the entry at height y: the last k with before(k) <= y. @param {number} y */
  at(y) {
    let k = 0;
    for (let bit = this.top; bit > 0; bit >>= 1) {
      if (k + bit <= this.n && this.t[k + bit] <= y) {
        k += bit;
        y -= this.t[k];
      }
    }
    return Math.max(0, Math.min(k, this.n - 1));
  }
}

/**
 * @typedef {object} PathViewHooks
 * @property {string[]} ids the entries' ids
 * @property {Store} store where the articles are
 * @property {(i: number, html: string) => HTMLElement | null} make turns entry i's HTML into its element
 * @property {(i: number) => void} missing entry i's article is not at hand: get it, then refresh
 * @property {(i: number) => number} estimate entry i's height before it is drawn, px
 * @property {(i: number, el: HTMLElement) => void} drawn el, entry i's article, is in the page
 * @property {() => number} offset the height the sticky bar covers at the top, px
 */

/** @typedef {{el: HTMLElement, top: number}} PathAnchor a drawn entry and where its top was */

class PathView {
  // How far beyond the viewport entries are drawn, in viewport heights,
  // and how much farther before they are dropped again.
  static MARGIN = 0.75;
  static KEEP = 1.5;
  // Entries beyond the viewport are drawn only while the view holds
  // fewer elements than this.
  static ELEMENT_BUDGET = 8000;
  // A path whose estimated height is at most this many viewports is drawn
  // whole.
  static SHORT = 6;
  // The most height the spacers take, px: well below every browser's
  // limit, whatever the entries drawn add.
  static CAP = 4194304; // 4 Mi px
  // How long scrolling has stopped before the upper spacer is settled, ms.
  static SETTLE_MS = 150;

  /** @param {HTMLElement} el @param {number} n the number of entries @param {PathViewHooks} opt */
  constructor(el, n, opt) {
    this.el = el;
    this.n = n;
    this.opt = opt;
    /** @type {Int32Array} the path's entries with an article */
    this.list = new Int32Array(0);
    this.posOf = new Int32Array(n).fill(-1);
    this.measured = new Float64Array(n); // 0 until drawn
    this.sums = new Sums([]);
    this.first = 0; // the drawn entries are list[first..last)
    this.last = 0;
    this.scale = 1; // the spacers' px per px of the entries they stand for
    this.aboveHeight = 0; // the spacers' heights, px
    this.belowHeight = 0;
    this.delta = 0; // px the upper spacer has been given or taken to hold the reader's place (see nudge)
    this.whole = false; // every entry is drawn, for printing (drawAll)
    this.settleTimer = 0;
    /** @type {HTMLElement[]} the drawn entries' elements */
    this.els = [];
    /** @type {WeakMap<Element, number>} the entry each element of the view draws */
    this.entryOf = new WeakMap();
    this.elementCount = 0;
    /** @type {number[]} elements of each drawn entry */
    this.counts = [];
    this.above = document.createElement('div');
    this.below = document.createElement('div');
    this.above.className = 'path-spacer';
    this.below.className = 'path-spacer';
    this.above.setAttribute('aria-hidden', 'true');
    this.below.setAttribute('aria-hidden', 'true');
    el.textContent = '';
    el.appendChild(this.above);
    el.appendChild(this.below);
    this.frame = 0; // the update scheduled, or 0
    this.gap = 0; // the margin below each article, px
    this.resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver((list) => { this.resized(list); });
    this.stop = new AbortController();
    const schedule = () => { this.schedule(); };
    // Scrolling has stopped: the browser says so (scrollend, which waits
    // for a smooth scroll to end), else a pause in the scroll events does.
    this.scrollEnd = 'onscrollend' in window;
    window.addEventListener('scroll', () => {
      this.schedule();
      this.settleLater();
    }, { passive: true, signal: this.stop.signal });
    if (this.scrollEnd) window.addEventListener('scrollend', () => { this.settle(); }, { signal: this.stop.signal });
    window.addEventListener('resize', schedule, { signal: this.stop.signal });
  }

  /** dispose stops the view: it no longer follows scrolling, resizing or its entries' heights. */
  dispose() {
    this.stop.abort();
    if (this.resizes) this.resizes.disconnect();
    cancelAnimationFrame(this.frame);
    clearTimeout(this.settleTimer);
    this.frame = 0;
  }

  /** @param {number} i */
  height(i) {
    return this.measured[i] || this.opt.estimate(i);
  }

  /**
   * setPath shows the entries of list (indexes with an article, in path
   * order); nothing is drawn until the next update or jump.
   * @param {Int32Array} list
   */
  setPath(list) {
    this.clear();
    for (let j = 0; j < this.list.length; j++) this.posOf[this.list[j]] = -1;
    this.list = list;
    const h = new Float64Array(list.length);
    for (let j = 0; j < list.length; j++) {
      this.posOf[list[j]] = j;
      h[j] = this.height(list[j]);
    }
    this.sums = new Sums(h);
    this.scale = PathView.scaleFor(this.sums.total());
    this.delta = 0;
    clearTimeout(this.settleTimer);
    this.first = this.last = 0;
    this.spacers();
  }

  /** scaleFor is the spacers' scale for a path of total px. @param {number} total */
  static scaleFor(total) { return total > PathView.CAP ? PathView.CAP / total : 1; }

  /** has says whether entry i is on the path. @param {number} i */
  has(i) { return this.posOf[i] >= 0; }

  /** element returns entry i's drawn article, or null. @param {number} i */
  element(i) {
    const k = this.posOf[i];
    if (k < this.first || k >= this.last || k < 0) return null;
    const el = this.els[k - this.first];
    return el.hasAttribute('data-placeholder') ? null : el;
  }

  /**
   * at is the position in the path of the entry el draws, -1 when el is
   * not one of the view's drawn elements: the view keeps which entry each
   * element draws, so that this takes no search.
   * @param {Element} el
   */
  at(el) {
    const i = this.entryOf.get(el);
    if (i === undefined) return -1;
    const k = this.posOf[i];
    return k >= this.first && k < this.last && this.els[k - this.first] === el ? k : -1;
  }

  drawnEntries() {
    const out = [];
    for (let k = this.first; k < this.last; k++) out.push(this.list[k]);
    return out;
  }

  clear() {
    for (const el of this.els) this.drop(el);
    this.els = [];
    this.counts = [];
    this.elementCount = 0;
    this.first = this.last = 0;
  }

  /** @param {HTMLElement} el */
  drop(el) {
    if (this.resizes) this.resizes.unobserve(el);
    el.remove();
  }

  /**
   * spacers sizes the spacers for the entries not drawn, and returns how
   * much taller the upper one has become, px. The scale is worked out
   * again only when measured heights have moved the path's height far
   * from what it was set for: each new scale moves what lies below the
   * upper spacer.
   */
  spacers() {
    const total = this.sums.total();
    const tall = total * this.scale;
    if (tall > PathView.CAP * 1.25 || (this.scale < 1 && tall < PathView.CAP * 0.75)) this.scale = PathView.scaleFor(total);
    // What the upper spacer gains the lower one loses, so that the page
    // is as tall whatever delta is: a scroll to the end, under way,
    // still ends at the end. Above the first entry and below the last
    // the spacers stand for nothing.
    const above0 = this.sums.before(this.first) * this.scale;
    const below0 = Math.max(0, total - this.sums.before(this.last)) * this.scale;
    if (this.first === 0 || this.last === this.list.length) this.delta = 0;
    this.delta = Math.min(below0, Math.max(-above0, this.delta));
    const above = above0 + this.delta;
    const grown = above - this.aboveHeight;
    this.aboveHeight = above;
    this.above.style.height = above + 'px';
    this.belowHeight = below0 - this.delta;
    this.below.style.height = this.belowHeight + 'px';
    return grown;
  }

  /**
   * virtual is where y (px from the path's top, as the page draws it) is
   * in the path at its full height: the spacers stand for their entries
   * at the scale, the entries drawn for themselves.
   * @param {number} y
   */
  virtual(y) {
    const top = this.sums.before(this.first);
    const bottom = this.sums.before(this.last);
    if (y < this.aboveHeight) return Math.max(0, y / this.aboveHeight * top);
    y -= this.aboveHeight;
    if (y < bottom - top) return top + y;
    y -= bottom - top;
    const rest = this.sums.total() - bottom;
    return y >= this.belowHeight ? bottom + rest : bottom + y / this.belowHeight * rest;
  }

  /**
   * nudge moves what the page shows up by d px (down for d < 0): a
   * scroll, but on a scaled path, while the upper spacer has the room, a
   * change of its height (see the top of this file).
   * @param {number} d
   */
  nudge(d) {
    if (Math.abs(d) < 0.5) return;
    if (this.scale < 1) {
      const was = this.delta;
      this.delta -= d;
      this.spacers(); // which keeps delta within what the spacers have
      d -= was - this.delta;
      this.settleLater();
    }
    if (Math.abs(d) >= 0.5) window.scrollBy(0, d);
  }

  /** settleLater settles the spacers once scrolling has stopped. */
  settleLater() {
    if (!this.delta || this.scrollEnd) return;
    clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => { this.settle(); }, PathView.SETTLE_MS);
  }

  /**
   * settle gives the upper spacer back the height its entries stand for,
   * scrolling by as much, so that nothing moves: once scrolling has
   * stopped, a scroll by script interrupts nothing.
   */
  settle() {
    clearTimeout(this.settleTimer);
    this.settleTimer = 0;
    if (!this.delta) return;
    // What the page shows where scrolling stopped, drawn first.
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.update();
    }
    const d = this.delta;
    if (!d) return;
    this.delta = 0;
    this.spacers();
    window.scrollBy(0, -d);
  }

  /** viewport is the part of the path in view, in px from the path's top. */
  viewport() {
    const r = this.el.getBoundingClientRect();
    const off = this.opt.offset();
    return { from: off - r.top, to: innerHeight - r.top, height: innerHeight - off, pathHeight: r.height };
  }

  /** make draws entry list[k]: its article, or a placeholder. @param {number} k */
  make(k) {
    const i = this.list[k];
    const html = this.opt.store.html(i);
    let el = typeof html === 'string' ? this.opt.make(i, html) : null;
    if (html === undefined) this.opt.missing(i);
    if (!el) {
      el = document.createElement('article');
      el.className = 'entry placeholder';
      el.setAttribute('data-entry', this.opt.ids[i]);
      el.setAttribute('data-placeholder', '');
      el.setAttribute('aria-busy', 'true');
      const p = document.createElement('p');
      p.className = 'muted';
      p.textContent = html === null ? 'This browser could not unpack this entry (it needs DecompressionStream).' : 'Loading…';
      el.appendChild(p);
      el.style.height = Math.max(40, this.height(i) - this.gap) + 'px';
      if (html === null) el.removeAttribute('aria-busy');
    }
    this.entryOf.set(el, i);
    return el;
  }

  /** count is the number of elements el brings into the page. @param {Element} el */
  static count(el) { return el.getElementsByTagName('*').length + 1; }

  /**
   * draw makes list[from..to) the drawn entries, keeping those already
   * drawn, and returns the elements it made. Its work is in the number
   * of entries made and dropped: drawing a whole path (printing) makes
   * each entry once.
   * @param {number} from @param {number} to
   * @param {{from: number, to: number} | null} budget the entries that must be drawn however many elements the view holds
   */
  draw(from, to, budget) {
    /** @type {HTMLElement[]} */
    const made = [];
    if (to <= this.first || from >= this.last || this.last === this.first) {
      this.clear();
      this.first = this.last = from;
    }
    // Drop what lies outside.
    if (this.first < from) {
      const cut = from - this.first;
      for (let j = 0; j < cut; j++) {
        this.drop(this.els[j]);
        this.elementCount -= this.counts[j];
      }
      this.els.splice(0, cut);
      this.counts.splice(0, cut);
      this.first = from;
    }
    if (this.last > to) {
      const keep = to - this.first;
      for (let j = keep; j < this.els.length; j++) {
        this.drop(this.els[j]);
        this.elementCount -= this.counts[j];
      }
      this.els.length = keep;
      this.counts.length = keep;
      this.last = to;
    }
    // Make what is missing, nearest the drawn ones first. The entries
    // above join the lists once made, in one step.
    /** @type {HTMLElement[]} */
    const above = [];
    const aboveCounts = [];
    let first = this.first;
    const top = this.els.length ? this.els[0] : this.below;
    while (first > from) {
      if (budget && this.elementCount > PathView.ELEMENT_BUDGET && first <= budget.from) break;
      const el = this.make(first - 1);
      this.el.insertBefore(el, above.length ? above[above.length - 1] : top);
      above.push(el);
      const c = PathView.count(el);
      aboveCounts.push(c);
      this.elementCount += c;
      first--;
      made.push(el);
    }
    if (above.length) {
      this.els = above.reverse().concat(this.els);
      this.counts = aboveCounts.reverse().concat(this.counts);
      this.first = first;
    }
    while (this.last < to) {
      if (budget && this.elementCount > PathView.ELEMENT_BUDGET && this.last >= budget.to) break;
      const el = this.make(this.last);
      this.el.insertBefore(el, this.below);
      this.els.push(el);
      const c = PathView.count(el);
      this.counts.push(c);
      this.elementCount += c;
      this.last++;
      made.push(el);
    }
    if (this.resizes) for (const el of made) this.resizes.observe(el);
    return made;
  }

  /** measure takes the heights of the elements made. @param {HTMLElement[]} made */
  measure(made) {
    if (!this.gap && made.length) {
      this.gap = parseFloat(getComputedStyle(made[0]).marginBottom) || 0;
    }
    for (const el of made) {
      const k = this.at(el);
      if (k < 0) continue;
      const h = el.getBoundingClientRect().height + this.gap;
      if (!el.hasAttribute('data-placeholder')) this.measured[this.list[k]] = h;
      this.sums.set(k, h);
    }
    this.spacers();
  }

  /**
   * anchor is the drawn entry at the top of the viewport, and where it
   * is. An entry of skip (positions in the path) is passed over for the
   * next one in view: a placeholder about to be replaced is not what the
   * reader is looking at, and holding it would move what is.
   * @param {Set<number>} [skip]
   * @returns {PathAnchor | null}
   */
  anchor(skip) {
    const off = this.opt.offset();
    /** @type {PathAnchor | null} */
    let passed = null;
    for (let j = 0; j < this.els.length; j++) {
      const el = this.els[j];
      const r = el.getBoundingClientRect();
      if (r.bottom <= off) continue;
      if (!skip || !skip.has(this.first + j)) return passed && r.top >= innerHeight ? passed : { el, top: r.top };
      if (!passed) passed = { el, top: r.top };
    }
    return passed;
  }

  /** hold scrolls so that a's entry is where it was. @param {PathAnchor | null} a */
  hold(a) {
    if (!a || !a.el.isConnected) return;
    this.nudge(a.el.getBoundingClientRect().top - a.top);
  }

  /** schedule updates the view at the next frame. */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.update();
    });
  }

  /**
   * short says whether the path is short enough to be drawn whole: a few
   * screens, which a virtual list would only make jerkier.
   */
  short() {
    return this.sums.total() <= PathView.SHORT * innerHeight;
  }

  /** update draws the entries in and near the viewport and drops those far from it. */
  update() {
    if (this.whole) return;
    const n = this.list.length;
    if (!n) { this.clear(); this.spacers(); return; }
    if (this.short()) {
      if (this.first === 0 && this.last === n) return;
      const all = this.anchor();
      const drawnAll = this.draw(0, n, null);
      this.measure(drawnAll);
      this.hold(all);
      this.drawn(drawnAll);
      return;
    }
    const v = this.viewport();
    const a = this.scale < 1 ? this.anchor() : null;
    // Where the viewport is in the path at its full height: beside an
    // entry drawn in view, a pixel for a pixel from it; else, in a
    // scaled spacer, where the spacer stands for, at the point of the
    // viewport as far down it as the page is scrolled (the top of the
    // viewport at the top of the page, its bottom at the end).
    /** @type {{v: number, y: number} | null} */
    let end = null;
    let jump = -1;
    let from0 = v.from;
    if (this.scale < 1) {
      if (a && a.top < innerHeight) {
        from0 = this.sums.before(this.at(a.el)) + (this.opt.offset() - a.top);
      } else {
        const doc = document.documentElement;
        const most = Math.max(1, doc.scrollHeight - innerHeight);
        const f = Math.min(1, Math.max(0, window.scrollY / most));
        // A point above the path or below it (the header, the footer)
        // stands for the path's first or last pixel.
        const y = Math.min(Math.max(0, v.from + f * v.height), v.pathHeight);
        jump = this.virtual(y);
        from0 = jump - f * v.height;
        // The entries drawn there start where their spacer ends: what
        // the viewport shows is within a screen of where the scroll bar
        // says. At the end of the page, though, the end of the path is
        // brought to the bottom of the viewport (see land).
        if (window.scrollY >= most - 1) end = { v: jump, y: y - v.from + this.opt.offset() };
      }
    }
    const to0 = from0 + v.height;
    const margin = v.height * PathView.MARGIN;
    let from = this.sums.at(Math.max(0, from0 - margin));
    let to = Math.min(n, this.sums.at(Math.max(0, to0 + margin)) + 1);
    const keepFrom = this.sums.at(Math.max(0, from0 - v.height * PathView.KEEP));
    const keepTo = Math.min(n, this.sums.at(Math.max(0, to0 + v.height * PathView.KEEP)) + 1);
    const seen = { from: this.sums.at(Math.max(0, from0)), to: Math.min(n, this.sums.at(Math.max(0, to0)) + 1) };
    // Keep what is drawn within the wider band; draw the narrower one.
    if (this.last > this.first && to > this.first && from < this.last) {
      from = Math.min(from, Math.max(this.first, keepFrom));
      to = Math.max(to, Math.min(this.last, keepTo));
    }
    if (from === this.first && to === this.last) return;
    const held = this.scale < 1 ? a : this.anchor();
    if (jump >= 0) this.delta = 0;
    const made = this.draw(from, to, seen);
    this.measure(made);
    if (end) this.land(end.v, end.y);
    else this.hold(held);
    this.drawn(made);
  }

  /**
   * land scrolls so that place v of the path (px at its full height) is
   * y px from the top of the window, once the entries around it are
   * drawn: a jump to the end of a scaled path shows its end.
   * @param {number} v @param {number} y
   */
  land(v, y) {
    const k = this.sums.at(v);
    if (k < this.first || k >= this.last) return;
    const el = this.els[k - this.first];
    this.nudge(el.getBoundingClientRect().top + (v - this.sums.before(k)) - y);
  }

  /**
   * drawn tells each article made where it is in the path (a feed's
   * article: its position and the feed's size, for a screen reader) and
   * hands it to opt.drawn.
   * @param {HTMLElement[]} made
   */
  drawn(made) {
    for (const el of made) {
      const k = this.at(el);
      if (k < 0) continue;
      el.setAttribute('aria-posinset', String(k + 1));
      el.setAttribute('aria-setsize', String(this.list.length));
      if (!el.hasAttribute('data-placeholder')) this.opt.drawn(this.list[k], el);
    }
  }

  /**
   * jump draws the entries around entry i and scrolls it to the top of
   * the viewport.
   * @param {number} i
   */
  jump(i) {
    const k = this.posOf[i];
    if (k < 0) return null;
    const top = this.el.getBoundingClientRect().top + window.scrollY;
    const off = this.opt.offset();
    const v = innerHeight - off;
    // Draw from the entry down a viewport and a margin, and a margin up.
    const from = this.sums.at(Math.max(0, this.sums.before(k) - v * PathView.MARGIN));
    const to = Math.min(this.list.length, this.sums.at(this.sums.before(k) + v * (1 + PathView.MARGIN)) + 1);
    const made = this.draw(Math.min(from, k), Math.max(to, k + 1), { from: k, to: k + 1 });
    this.measure(made);
    const el = this.els[k - this.first];
    window.scrollTo(0, top + (el.getBoundingClientRect().top - this.el.getBoundingClientRect().top) - off);
    this.drawn(made);
    // The entries above the target may have drawn at other heights than
    // their estimates: settle around the target once more.
    const a = { el, top: el.getBoundingClientRect().top };
    this.update();
    this.hold(a);
    return this.element(i);
  }

  /**
   * refresh redraws the placeholders of entries in list (whose articles
   * have arrived, or been unpacked), holding the scroll position.
   * @param {number[]} list
   */
  refresh(list) {
    const redo = [];
    for (const i of list) {
      const k = this.posOf[i];
      if (k >= this.first && k < this.last && this.els[k - this.first].hasAttribute('data-placeholder')) redo.push(k);
    }
    if (!redo.length) { this.schedule(); return; }
    const a = this.anchor(new Set(redo));
    const made = [];
    for (const k of redo) {
      const at = k - this.first;
      const old = this.els[at];
      const el = this.make(k);
      if (el.hasAttribute('data-placeholder')) continue;
      this.el.replaceChild(el, old);
      if (this.resizes) { this.resizes.unobserve(old); this.resizes.observe(el); }
      this.els[at] = el;
      const c = PathView.count(el);
      this.elementCount += c - this.counts[at];
      this.counts[at] = c;
      made.push(el);
    }
    this.measure(made);
    this.hold(a);
    this.drawn(made);
    this.schedule();
  }

  /**
   * resized takes the new heights of drawn entries (an image loaded, a
   * fold opened, the window narrowed).
   * @param {ResizeObserverEntry[]} entries
   */
  resized(entries) {
    const off = this.opt.offset();
    let shift = 0;
    for (const entry of entries) {
      const el = /** @type {HTMLElement} */ (entry.target);
      const k = this.at(el);
      if (k < 0) continue;
      const h = el.getBoundingClientRect().height + this.gap;
      const was = this.sums.v[k];
      if (Math.abs(h - was) < 0.5) continue;
      if (!el.hasAttribute('data-placeholder')) this.measured[this.list[k]] = h;
      this.sums.set(k, h);
      // An entry above the viewport that grew or shrank moves what the
      // reader is looking at: move the page by as much.
      if (el.getBoundingClientRect().bottom <= off) shift += h - was;
    }
    // So does the upper spacer, when the path's new height scales it anew.
    shift += this.spacers();
    this.nudge(shift);
    this.schedule();
  }

  /**
   * drawAll draws every entry of the path, and keeps them drawn until
   * drawInView: for printing, which a scroll or a resize meanwhile must
   * not cut short.
   */
  drawAll() { this.drawRange(0, this.list.length); }

  /**
   * drawRange draws the entries of positions from..to of the path, and
   * only them, until drawInView: for printing, which nothing meanwhile
   * (a frame, a scroll, a resize, an article unpacked) may change. The
   * spacers stand for nothing while it lasts (.printing).
   * @param {number} from @param {number} to
   */
  drawRange(from, to) {
    this.whole = true;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.el.classList.add('printing');
    const a = this.anchor();
    const made = this.draw(from, to, null);
    this.measure(made);
    this.hold(a);
    this.drawn(made);
  }

  /** drawInView goes back to drawing the entries in and near the viewport. */
  drawInView() {
    this.whole = false;
    this.el.classList.remove('printing');
    this.schedule();
  }
}
