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
// The view knows nothing of what an article holds: make turns HTML into
// the element (and prepares it: times, badges, buttons), and the store
// says where each article is.
(function (lib) {
  'use strict';

  // Sums: a Fenwick tree of the entries' heights, so that the height of
  // everything above an entry, and the entry at a given height, take
  // time in the logarithm of the path's length.
  function Sums(values) {
    var n = values.length;
    this.n = n;
    this.v = Float64Array.from(values);
    this.t = new Float64Array(n + 1);
    for (var j = 1; j <= n; j++) {
      this.t[j] += this.v[j - 1];
      var p = j + (j & -j);
      if (p <= n) this.t[p] += this.t[j];
    }
    this.top = 1;
    while (this.top * 2 <= n) this.top *= 2;
  }
  Sums.prototype.set = function (k, x) {
    var d = x - this.v[k];
    if (!d) return;
    this.v[k] = x;
    for (var j = k + 1; j <= this.n; j += j & -j) this.t[j] += d;
  };
  // before is the sum of the heights of entries 0..k-1.
  Sums.prototype.before = function (k) {
    var s = 0;
    for (var j = k; j > 0; j -= j & -j) s += this.t[j];
    return s;
  };
  Sums.prototype.total = function () { return this.before(this.n); };
  // at is the entry at height y: the last k with before(k) <= y.
  Sums.prototype.at = function (y) {
    var k = 0;
    for (var bit = this.top; bit > 0; bit >>= 1) {
      if (k + bit <= this.n && this.t[k + bit] <= y) {
        k += bit;
        y -= this.t[k];
      }
    }
    return Math.max(0, Math.min(k, this.n - 1));
  };
  lib.Sums = Sums;

  // How far beyond the viewport entries are drawn, in viewport heights,
  // and how much farther before they are dropped again.
  var MARGIN = 0.75;
  var KEEP = 1.5;
  // Entries beyond the viewport are drawn only while the view holds
  // fewer elements than this.
  var ELEMENT_BUDGET = 8000;
  // A path whose estimated height is at most this many viewports is drawn
  // whole.
  var SHORT = 6;

  // PathView draws the path in el. opt: ids (the entries' ids), store,
  // make(i, html) -> element, missing(i) (entry i's article is not at
  // hand: get it and refresh), estimate(i) -> height in px, drawn(i, el)
  // (called once el is in the page), offset() -> the height the sticky
  // bar covers at the top.
  function PathView(el, n, opt) {
    this.el = el;
    this.n = n;
    this.opt = opt;
    this.list = new Int32Array(0); // the path's entries with an article
    this.posOf = new Int32Array(n).fill(-1);
    this.measured = new Float64Array(n); // 0 until drawn
    this.sums = new Sums([]);
    this.first = 0; // the drawn entries are list[first..last)
    this.last = 0;
    this.els = []; // their elements
    this.elementCount = 0;
    this.counts = []; // elements of each drawn entry
    this.above = document.createElement('div');
    this.below = document.createElement('div');
    this.above.className = 'path-spacer';
    this.below.className = 'path-spacer';
    this.above.setAttribute('aria-hidden', 'true');
    this.below.setAttribute('aria-hidden', 'true');
    el.textContent = '';
    el.appendChild(this.above);
    el.appendChild(this.below);
    this.pending = false;
    this.gap = 0; // the margin below each article, px
    var self = this;
    this.resizes = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(function (list) { self.resized(list); });
    window.addEventListener('scroll', function () { self.schedule(); }, { passive: true });
    window.addEventListener('resize', function () { self.schedule(); });
  }

  PathView.prototype.height = function (i) {
    return this.measured[i] || this.opt.estimate(i);
  };

  // setPath shows the entries of list (indexes with an article, in path
  // order); nothing is drawn until the next update or jump.
  PathView.prototype.setPath = function (list) {
    this.clear();
    for (var j = 0; j < this.list.length; j++) this.posOf[this.list[j]] = -1;
    this.list = list;
    var h = new Float64Array(list.length);
    for (j = 0; j < list.length; j++) {
      this.posOf[list[j]] = j;
      h[j] = this.height(list[j]);
    }
    this.sums = new Sums(h);
    this.first = this.last = 0;
    this.spacers();
  };

  PathView.prototype.has = function (i) { return this.posOf[i] >= 0; };

  // element returns entry i's drawn article, or null.
  PathView.prototype.element = function (i) {
    var k = this.posOf[i];
    if (k < this.first || k >= this.last || k < 0) return null;
    var el = this.els[k - this.first];
    return el.hasAttribute('data-placeholder') ? null : el;
  };

  PathView.prototype.drawnEntries = function () {
    var out = [];
    for (var k = this.first; k < this.last; k++) out.push(this.list[k]);
    return out;
  };

  PathView.prototype.clear = function () {
    for (var j = 0; j < this.els.length; j++) this.drop(this.els[j]);
    this.els = [];
    this.counts = [];
    this.elementCount = 0;
    this.first = this.last = 0;
  };

  PathView.prototype.drop = function (el) {
    if (this.resizes) this.resizes.unobserve(el);
    el.remove();
  };

  PathView.prototype.spacers = function () {
    this.above.style.height = this.sums.before(this.first) + 'px';
    this.below.style.height = Math.max(0, this.sums.total() - this.sums.before(this.last)) + 'px';
  };

  // viewport is the part of the path in view, in px from the path's top.
  PathView.prototype.viewport = function () {
    var top = this.el.getBoundingClientRect().top;
    var off = this.opt.offset();
    return { from: off - top, to: innerHeight - top, height: innerHeight - off };
  };

  // make draws entry list[k]: its article, or a placeholder.
  PathView.prototype.make = function (k) {
    var i = this.list[k];
    var html = this.opt.store.html(i);
    var el = typeof html === 'string' ? this.opt.make(i, html) : null;
    if (html === undefined) this.opt.missing(i);
    if (!el) {
      el = document.createElement('article');
      el.className = 'entry placeholder';
      el.setAttribute('data-entry', this.opt.ids[i]);
      el.setAttribute('data-placeholder', '');
      el.setAttribute('aria-busy', 'true');
      var p = document.createElement('p');
      p.className = 'muted';
      p.textContent = html === null ? 'This browser could not unpack this entry (it needs DecompressionStream).' : 'Loading…';
      el.appendChild(p);
      el.style.height = Math.max(40, this.height(i) - this.gap) + 'px';
      if (html === null) el.removeAttribute('aria-busy');
    }
    return el;
  };

  // count is the number of elements el brings into the page.
  function count(el) { return el.getElementsByTagName('*').length + 1; }

  // draw makes list[from..to) the drawn entries, keeping those already
  // drawn, and returns the elements it made.
  PathView.prototype.draw = function (from, to, budget) {
    var made = [];
    var j;
    if (to <= this.first || from >= this.last || this.last === this.first) {
      this.clear();
      this.first = this.last = from;
    }
    // Drop what lies outside.
    while (this.first < from) {
      this.drop(this.els.shift());
      this.elementCount -= this.counts.shift();
      this.first++;
    }
    while (this.last > to) {
      this.drop(this.els.pop());
      this.elementCount -= this.counts.pop();
      this.last--;
    }
    // Make what is missing, nearest the drawn ones first.
    while (this.first > from) {
      if (budget && this.elementCount > ELEMENT_BUDGET && this.first <= budget.from) break;
      var el = this.make(this.first - 1);
      this.el.insertBefore(el, this.els.length ? this.els[0] : this.below);
      this.els.unshift(el);
      var c = count(el);
      this.counts.unshift(c);
      this.elementCount += c;
      this.first--;
      made.push(el);
    }
    while (this.last < to) {
      if (budget && this.elementCount > ELEMENT_BUDGET && this.last >= budget.to) break;
      el = this.make(this.last);
      this.el.insertBefore(el, this.below);
      this.els.push(el);
      c = count(el);
      this.counts.push(c);
      this.elementCount += c;
      this.last++;
      made.push(el);
    }
    for (j = 0; j < made.length; j++) {
      if (this.resizes) this.resizes.observe(made[j]);
    }
    return made;
  };

  // measure takes the heights of the elements made.
  PathView.prototype.measure = function (made) {
    if (!this.gap && made.length) {
      this.gap = parseFloat(getComputedStyle(made[0]).marginBottom) || 0;
    }
    for (var j = 0; j < made.length; j++) {
      var el = made[j];
      var k = this.first + this.els.indexOf(el);
      var h = el.getBoundingClientRect().height + this.gap;
      if (!el.hasAttribute('data-placeholder')) this.measured[this.list[k]] = h;
      this.sums.set(k, h);
    }
    this.spacers();
  };

  // anchor is the drawn entry at the top of the viewport, and where it is.
  PathView.prototype.anchor = function () {
    var off = this.opt.offset();
    for (var j = 0; j < this.els.length; j++) {
      var r = this.els[j].getBoundingClientRect();
      if (r.bottom > off) return { el: this.els[j], top: r.top };
    }
    return null;
  };

  PathView.prototype.hold = function (a) {
    if (!a || !a.el.isConnected) return;
    var d = a.el.getBoundingClientRect().top - a.top;
    if (Math.abs(d) >= 0.5) window.scrollBy(0, d);
  };

  PathView.prototype.schedule = function () {
    if (this.pending) return;
    this.pending = true;
    var self = this;
    requestAnimationFrame(function () {
      self.pending = false;
      self.update();
    });
  };

  // short says whether the path is short enough to be drawn whole: a few
  // screens, which a virtual list would only make jerkier.
  PathView.prototype.short = function () {
    return this.sums.total() <= SHORT * innerHeight;
  };

  // update draws the entries in and near the viewport and drops those far
  // from it.
  PathView.prototype.update = function () {
    var n = this.list.length;
    if (!n) { this.clear(); this.spacers(); return; }
    if (this.short()) {
      if (this.first === 0 && this.last === n) return;
      var all = this.anchor();
      var drawnAll = this.draw(0, n, null);
      this.measure(drawnAll);
      this.hold(all);
      this.drawn(drawnAll);
      return;
    }
    var v = this.viewport();
    var margin = v.height * MARGIN;
    var from = this.sums.at(Math.max(0, v.from - margin));
    var to = Math.min(n, this.sums.at(Math.max(0, v.to + margin)) + 1);
    var keepFrom = this.sums.at(Math.max(0, v.from - v.height * KEEP));
    var keepTo = Math.min(n, this.sums.at(Math.max(0, v.to + v.height * KEEP)) + 1);
    var seen = { from: this.sums.at(Math.max(0, v.from)), to: Math.min(n, this.sums.at(Math.max(0, v.to)) + 1) };
    // Keep what is drawn within the wider band; draw the narrower one.
    if (this.last > this.first && to > this.first && from < this.last) {
      from = Math.min(from, Math.max(this.first, keepFrom));
      to = Math.max(to, Math.min(this.last, keepTo));
    }
    if (from === this.first && to === this.last) return;
    var a = this.anchor();
    var made = this.draw(from, to, seen);
    this.measure(made);
    this.hold(a);
    this.drawn(made);
  };

  // drawn tells each article made where it is in the path (a feed's
  // article: its position and the feed's size, for a screen reader) and
  // hands it to opt.drawn.
  PathView.prototype.drawn = function (made) {
    for (var j = 0; j < made.length; j++) {
      var el = made[j];
      var k = this.first + this.els.indexOf(el);
      el.setAttribute('aria-posinset', String(k + 1));
      el.setAttribute('aria-setsize', String(this.list.length));
      if (!el.hasAttribute('data-placeholder')) this.opt.drawn(this.list[k], el);
    }
  };

  // jump draws the entries around entry i and scrolls it to the top of
  // the viewport.
  PathView.prototype.jump = function (i) {
    var k = this.posOf[i];
    if (k < 0) return null;
    var top = this.el.getBoundingClientRect().top + window.scrollY;
    var off = this.opt.offset();
    var v = innerHeight - off;
    // Draw from the entry down a viewport and a margin, and a margin up.
    var from = this.sums.at(Math.max(0, this.sums.before(k) - v * MARGIN));
    var to = Math.min(this.list.length, this.sums.at(this.sums.before(k) + v * (1 + MARGIN)) + 1);
    var made = this.draw(Math.min(from, k), Math.max(to, k + 1), { from: k, to: k + 1 });
    this.measure(made);
    var el = this.els[k - this.first];
    window.scrollTo(0, top + (el.getBoundingClientRect().top - this.el.getBoundingClientRect().top) - off);
    this.drawn(made);
    // The entries above the target may have drawn at other heights than
    // their estimates: settle around the target once more.
    var a = { el: el, top: el.getBoundingClientRect().top };
    this.update();
    this.hold(a);
    return this.element(i);
  };

  // refresh redraws the placeholders of entries in list (whose articles
  // have arrived, or been unpacked), holding the scroll position.
  PathView.prototype.refresh = function (list) {
    var redo = [];
    for (var j = 0; j < list.length; j++) {
      var k = this.posOf[list[j]];
      if (k >= this.first && k < this.last && this.els[k - this.first].hasAttribute('data-placeholder')) redo.push(k);
    }
    if (!redo.length) { this.schedule(); return; }
    var a = this.anchor();
    var made = [];
    for (j = 0; j < redo.length; j++) {
      var at = redo[j] - this.first;
      var old = this.els[at];
      var el = this.make(redo[j]);
      if (el.hasAttribute('data-placeholder')) continue;
      this.el.replaceChild(el, old);
      if (this.resizes) { this.resizes.unobserve(old); this.resizes.observe(el); }
      this.els[at] = el;
      var c = count(el);
      this.elementCount += c - this.counts[at];
      this.counts[at] = c;
      made.push(el);
    }
    this.measure(made);
    this.hold(a);
    this.drawn(made);
    this.schedule();
  };

  // resized takes the new heights of drawn entries (an image loaded, a
  // fold opened, the window narrowed).
  PathView.prototype.resized = function (entries) {
    var off = this.opt.offset();
    var shift = 0;
    for (var j = 0; j < entries.length; j++) {
      var el = entries[j].target;
      var at = this.els.indexOf(el);
      if (at < 0) continue;
      var k = this.first + at;
      var h = el.getBoundingClientRect().height + this.gap;
      var was = this.sums.v[k];
      if (Math.abs(h - was) < 0.5) continue;
      if (!el.hasAttribute('data-placeholder')) this.measured[this.list[k]] = h;
      this.sums.set(k, h);
      // An entry above the viewport that grew or shrank moves what the
      // reader is looking at: move the page by as much.
      if (el.getBoundingClientRect().bottom <= off) shift += h - was;
    }
    this.spacers();
    if (shift) window.scrollBy(0, shift);
    this.schedule();
  };

  // drawAll draws every entry of the path: for printing.
  PathView.prototype.drawAll = function () {
    var a = this.anchor();
    var made = this.draw(0, this.list.length, null);
    this.measure(made);
    this.hold(a);
    this.drawn(made);
  };

  lib.PathView = PathView;
})(window.piexportLib = window.piexportLib || {});
