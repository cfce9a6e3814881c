// Tree search: the full text of every entry, read from the articles the
// page carries (store.js), not from a second copy. The first search reads
// each article's HTML as text, a slice at a time so typing stays
// responsive, and keeps it; later searches look through what was kept,
// and one that only narrows the last looks only at what that one found.
//
// A tool result shown in its call's card has no article of its own: the
// card's output is its text, and the rest of the card its call's.
(function (lib) {
  'use strict';

  var SLICE_MS = 12;

  // Elements that break a line: their tags become spaces, the others
  // nothing, so that a word split into highlighted tokens stays one word.
  var BREAKS = /<\/?(?:p|div|li|ul|ol|br|tr|td|th|h[1-6]|pre|section|summary|details|article|blockquote|table|hr)\b[^>]*>/gi;
  var TAGS = /<[^>]*>/g;
  var ENTITIES = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
  var NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: '\u00a0' };

  function entity(all, name) {
    if (name[0] === '#') {
      var code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    var c = NAMED[name.toLowerCase()];
    return c === undefined ? all : c;
  }

  // plain turns HTML into the lowercased text a search looks through.
  function plain(html) {
    return html.replace(BREAKS, ' ').replace(TAGS, '').replace(ENTITIES, entity).toLowerCase();
  }
  lib.plainText = plain;

  // words splits a query into the words an entry must all hold.
  function words(text) { return text.toLowerCase().split(/\s+/).filter(Boolean); }
  lib.searchWords = words;

  var CARD = '<section class="tool"';
  var OUTPUT = '<div class="tool-output">';
  var RESULT = /^[^>]*\sdata-result="([^"]*)"/;

  // TreeSearch searches the entries of the page's index (idx) through
  // store; pos maps an entry id to its index.
  function TreeSearch(store, idx, pos) {
    this.store = store;
    this.idx = idx;
    this.pos = pos;
    this.n = idx.ids.length;
    this.texts = new Array(this.n); // lowercased text, once read
    this.read = 0; // entries read so far, in order
    this.absorbed = new Uint8Array(this.n);
    for (var j = 0; j < idx.absorbed.length; j++) this.absorbed[idx.absorbed[j]] = 1;
    this.lastWords = null;
    this.lastHits = null;
  }

  // take reads the article of entry i into texts, the results its cards
  // show included; false when the article cannot be read yet.
  TreeSearch.prototype.take = function (i) {
    var html = this.store.html(i);
    if (html === undefined) return false;
    var own = this.idx.preview(i) + ' ' + (this.idx.labels[i] || '');
    if (html === null) { this.texts[i] = own.toLowerCase(); return true; }
    var parts = html.split(CARD);
    var mine = [own, parts[0]];
    for (var k = 1; k < parts.length; k++) {
      var card = parts[k];
      var m = RESULT.exec(card);
      var r = m ? this.pos.get(unescape(m[1])) : undefined;
      var at = card.indexOf(OUTPUT);
      if (r === undefined || !this.absorbed[r] || at < 0) {
        mine.push(card);
        continue;
      }
      mine.push(card.slice(0, at));
      this.texts[r] = plain(this.idx.preview(r) + ' ' + card.slice(at));
    }
    this.texts[i] = plain(mine.join(' '));
    return true;
  };

  function unescape(s) {
    return s.replace(ENTITIES, entity);
  }

  // search finds the entries whose text holds every word, and calls
  // done(hits) once, later (hits[i] is 1 for a hit); progress is told
  // what is going on meanwhile. It returns a function that cancels it.
  TreeSearch.prototype.search = function (list, progress, done) {
    var self = this;
    var cancelled = false;
    var n = this.n;
    // Each word of the last search inside a word of this one: this one
    // can only find fewer.
    var within = this.lastWords && this.lastHits && this.lastWords.every(function (old) {
      return list.some(function (w) { return w.indexOf(old) >= 0; });
    });
    var from = within ? this.lastHits : null;
    var hits = new Uint8Array(n);
    var i = 0;
    var missing = 0; // articles not arrived yet
    function slice() {
      if (cancelled) return;
      var until = performance.now() + SLICE_MS;
      for (; i < n; i++) {
        if ((i & 31) === 0 && performance.now() > until) break;
        if (from && !from[i]) continue;
        if (self.texts[i] === undefined && !self.absorbed[i]) {
          if (!self.store.known(i)) { missing++; continue; }
          if (!self.store.ready(i)) {
            // Unpack the chunk it is in, then go on from here.
            var at = i;
            self.store.fetch([at]).then(function () {
              if (!self.store.ready(at)) self.texts[at] = (self.idx.preview(at) || '').toLowerCase();
              setTimeout(slice, 0);
            });
            progress('searching… ' + Math.floor(100 * i / n) + '%');
            return;
          }
          self.take(i);
        }
        var text = self.texts[i];
        if (text === undefined) continue;
        var ok = true;
        for (var k = 0; ok && k < list.length; k++) ok = text.indexOf(list[k]) >= 0;
        if (ok) hits[i] = 1;
      }
      if (i < n) {
        progress('searching… ' + Math.floor(100 * i / n) + '%');
        setTimeout(slice, 0);
        return;
      }
      if (missing === 0) {
        self.lastWords = list;
        self.lastHits = hits;
      }
      done(hits, missing);
    }
    slice();
    return function () { cancelled = true; };
  };

  lib.TreeSearch = TreeSearch;
})(window.piexportLib = window.piexportLib || {});
