// Search: the full text of every entry, from the index at the end of the
// page (see page/search.go), for the tree's search box (tree.js); and the
// words found, marked in the entry a search opens.
//
// The index is unpacked the first time the search box is used, so it
// costs the page nothing to open; it is searched a slice at a time, so
// typing stays responsive on a session of tens of thousands of entries,
// and a search that only narrows the one before it looks only at what
// that one found.
(window.piexportParts = window.piexportParts || []).push(function (page) {
  'use strict';

  var doc = document;
  var n = page.n;
  var indexEl = doc.getElementById('search-index');
  var searchEl = doc.getElementById('tree-search');

  var texts = null; // the entries' lowercased text, in tree order
  var loading = null; // a Promise of texts
  var whole = true; // false when only the rows' text could be searched

  function unpack() {
    return new Promise(function (ok) { setTimeout(ok, 0); }).then(function () {
      var bin = atob(indexEl.textContent.replace(/-/g, '+').replace(/_/g, '/'));
      var bytes = new Uint8Array(bin.length);
      for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).text();
    }).then(function (text) {
      var lines = text.split('\n');
      if (lines.length < n) throw new Error('short index');
      return lines;
    });
  }

  // rowTexts is what a browser that cannot unpack the index searches: the
  // rows' own text.
  function rowTexts() {
    whole = false;
    var out = new Array(n);
    for (var j = 0; j < n; j++) out[j] = page.rows[j] ? page.rows[j].textContent.toLowerCase() : '';
    return out;
  }

  function load() {
    if (!loading) {
      var can = indexEl && typeof DecompressionStream !== 'undefined' && typeof Response !== 'undefined';
      loading = (can ? unpack() : Promise.reject(new Error('no index'))).then(null, rowTexts).then(function (t) {
        texts = t;
        return t;
      });
    }
    return loading;
  }
  // The search box's first use starts unpacking, before the first word
  // is typed.
  if (searchEl) {
    searchEl.addEventListener('focus', load);
    searchEl.addEventListener('input', function () { if (!searchEl.value.trim()) clearMarks(); });
  }

  var lastWords = null;
  var lastHits = null;

  // searchEntries finds the entries whose text holds every word, and
  // calls done with them (1 for a hit, by tree index), later; progress is
  // told what is going on while it takes. It returns a function that
  // cancels it.
  page.searchEntries = function (words, progress, done) {
    var cancelled = false;
    if (!texts) progress('preparing the search…');
    load().then(function (t) {
      if (cancelled) return;
      // Each word of the last search inside a word of this one: this one
      // can only find fewer.
      var within = lastWords && lastWords.every(function (old) {
        return words.some(function (w) { return w.indexOf(old) >= 0; });
      });
      var from = within ? lastHits : null;
      var hits = new Uint8Array(n);
      var i = 0;
      function slice() {
        if (cancelled) return;
        var until = performance.now() + 12;
        for (; i < n; i++) {
          if ((i & 63) === 0 && performance.now() > until) break;
          if (from && !from[i]) continue;
          var text = t[i];
          var ok = true;
          for (var k = 0; ok && k < words.length; k++) ok = text.indexOf(words[k]) >= 0;
          if (ok) hits[i] = 1;
        }
        if (i < n) {
          progress('searching… ' + Math.floor(100 * i / n) + '%');
          setTimeout(slice, 0);
          return;
        }
        lastWords = words;
        lastHits = hits;
        done(hits);
        if (!whole) progress('in the rows\u2019 text only');
      }
      slice();
    });
    return function () { cancelled = true; };
  };

  // ---- the words in the entry a search opens ------------------------------

  var HIGHLIGHT = 'piexport-hit';
  var canMark = typeof CSS !== 'undefined' && CSS.highlights && typeof Highlight !== 'undefined';

  function clearMarks() {
    if (canMark) CSS.highlights.delete(HIGHLIGHT);
  }

  // showHits marks the words of the search in entry i (or, for a tool
  // result shown in its call's card, in that card), opens the folds that
  // hide them, and scrolls the first into view.
  page.showHits = function (i) {
    var words = page.searchWords || [];
    clearMarks();
    var owner = page.ownerOf(i);
    var article = owner >= 0 ? page.entries[owner] : null;
    if (!words.length || !article) return;
    page.ready(article);
    page.readyFolds(article);
    var scope = (owner !== i && doc.getElementById('e:' + page.ids[i])) || article;
    var ranges = [];
    var walker = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node && ranges.length < 1000; node = walker.nextNode()) {
      var text = node.data.toLowerCase();
      // Letters whose lowercase is longer would shift the offsets.
      if (text.length !== node.data.length) continue;
      for (var k = 0; k < words.length; k++) {
        for (var at = text.indexOf(words[k]); at >= 0; at = text.indexOf(words[k], at + words[k].length)) {
          var r = doc.createRange();
          r.setStart(node, at);
          r.setEnd(node, at + words[k].length);
          ranges.push(r);
        }
      }
    }
    if (!ranges.length) return;
    ranges.sort(function (a, b) { return a.compareBoundaryPoints(Range.START_TO_START, b); });
    for (var j = 0; j < ranges.length; j++) {
      for (var d = ranges[j].startContainer.parentElement; d && d !== scope.parentElement; d = d.parentElement) {
        if (d.tagName === 'DETAILS' && !d.open) d.open = true;
      }
    }
    if (canMark) {
      var marks = new Highlight();
      for (j = 0; j < ranges.length; j++) marks.add(ranges[j]);
      CSS.highlights.set(HIGHLIGHT, marks);
    }
    // After the page has scrolled to the entry and settled (page.js does
    // so over the next frame).
    var first = ranges[0];
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        var box = first.getBoundingClientRect();
        if (box.top < 80 || box.bottom > innerHeight - 40) window.scrollBy(0, box.top - innerHeight / 3);
      });
    });
  };

  var clear = page.clearSearch;
  page.clearSearch = function () {
    clearMarks();
    return clear ? clear() : false;
  };
});
