// Page: the session page's script, which joins the parts (store.js,
// pathview.js, treeview.js, treesearch.js, code.js) into the page a
// reader uses: the path in view, any other path chosen in the tree, deep
// links, search, the keyboard, themes and printing.
//
// The HTML already holds everything (see the package doc of page/): the
// path in view reads without this script. The script starts as soon as the
// index has been read (piexportPage.arrived after it), long before the
// rest of the page, and is told of each block of entries as it arrives.
(function (lib) {
  'use strict';

  var doc = document;
  var root = doc.documentElement;
  var THEME_KEY = 'piexport:theme';
  var WIDTH_KEY = 'piexport:sidebar-width';
  // Entries' element ids start with this (see entryIDPrefix in
  // page/view.go), so that an entry's id never names a page element.
  var ENTRY = 'e:';
  var FOLD = /<!--piexport:fold-->([\s\S]*?)<!--\/piexport:fold-->/g;

  function load(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (e) { /* storage may be off; the choice then lasts one visit */ }
  }

  // Runs before the body is parsed, so the first paint has the right theme
  // and width and shows the controls that need this script.
  root.classList.add('js');
  if (root.getAttribute('data-theme') === 'auto') {
    var saved = load(THEME_KEY);
    if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
  }
  var savedWidth = Number(load(WIDTH_KEY));
  if (savedWidth >= 180) root.style.setProperty('--side-w', savedWidth + 'px');
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

  var page = null; // the page once its index has arrived

  // arrived is called by the inline script after the index and after each
  // block of entries: what precedes it has been read whole.
  window.piexportPage = {
    arrived: function () {
      var el = doc.currentScript && doc.currentScript.previousElementSibling;
      if (!el) return;
      if (!page) {
        // The index, and the blocks of its rows after it.
        while (el && el.classList.contains('rows')) el = el.previousElementSibling;
        if (el && el.id === 'session-index') page = start(JSON.parse(el.textContent));
        return;
      }
      page.store.arrived(el);
    }
  };
  doc.addEventListener('DOMContentLoaded', function () {
    if (!page) {
      var el = doc.getElementById('session-index');
      if (!el) return;
      page = start(JSON.parse(el.textContent));
    }
    page.store.finish();
    lib.offerDownload();
  });

  // rowsOf gives the index the previews of its rows, which come apart, in
  // blocks of ROW_BLOCK (page/view.go: rowBlock): each is parsed when a
  // row of it is first needed, so that a long session's tree starts
  // without parsing megabytes it does not show.
  var ROW_BLOCK = 2048;
  function rowsOf(idx) {
    var els = doc.querySelectorAll('script.rows');
    var blocks = new Array(els.length);
    idx.preview = function (i) {
      var b = Math.floor(i / ROW_BLOCK);
      if (b < 0 || b >= els.length) return '';
      if (!blocks[b]) {
        try { blocks[b] = JSON.parse(els[b].textContent); } catch (e) { blocks[b] = []; }
      }
      return blocks[b][i - b * ROW_BLOCK] || '';
    };
  }

  function start(idx) {
    rowsOf(idx);
    var ids = idx.ids || [];
    var parents = idx.parents || [];
    var n = ids.length;
    var pos = new Map();
    for (var i = 0; i < n; i++) pos.set(ids[i], i);
    var absorbed = new Uint8Array(n);
    (idx.absorbed || []).forEach(function (j) { if (j >= 0 && j < n) absorbed[j] = 1; });
    // Children come oldest first, so the last one seen is the newest.
    var lastChild = new Int32Array(n).fill(-1);
    for (i = 0; i < n; i++) {
      var p = parents[i];
      if (p >= 0 && p < n) lastChild[p] = i;
    }
    function clampIndex(v, fallback) {
      return typeof v === 'number' && v >= 0 && v < n ? v : fallback;
    }
    var viewEnd = clampIndex(idx.view, clampIndex(idx.leaf, n - 1));

    function newestLeaf(i) {
      for (var steps = 0; lastChild[i] >= 0 && steps < n; steps++) i = lastChild[i];
      return i;
    }
    function pathTo(end) {
      var list = [];
      for (var j = end, steps = 0; j >= 0 && j < n && steps <= n; j = parents[j], steps++) list.push(j);
      return list.reverse();
    }
    // A tool result shown in its call's card has no article of its own
    // (idx.absorbed): it is shown, and scrolled to, in the nearest entry
    // above it that has one.
    function ownerOf(i) {
      for (var steps = 0; i >= 0 && absorbed[i] && steps < n; steps++) i = parents[i];
      return i;
    }

    var entriesStore = new lib.Store(n);
    var code = new lib.Code(openFolds, copyText);
    var pathEl = doc.getElementById('path');
    var topbar = doc.querySelector('.topbar');
    var lineHeight = 21;

    // ---- articles ------------------------------------------------------

    // folds holds, per article, the HTML of its folded lines: they stay
    // text until the fold opens.
    var folds = new WeakMap();
    var tmpl = doc.createElement('template');
    function make(i, html) {
      var parts = [];
      html = html.replace(FOLD, function (all, inner) {
        parts.push(inner);
        return '<span class="fold-slot" data-fold="' + (parts.length - 1) + '"></span>';
      });
      tmpl.innerHTML = html;
      var el = tmpl.content.firstElementChild;
      if (!el) return null;
      tmpl.content.textContent = '';
      if (parts.length) folds.set(el, parts);
      return el;
    }
    // openFolds makes the folded lines inside el elements.
    function openFolds(el) {
      var art = el.closest ? el.closest('article[data-entry]') : null;
      var parts = art && folds.get(art);
      if (!parts) return;
      var slots = el.querySelectorAll('.fold-slot');
      for (var j = 0; j < slots.length; j++) {
        var t = doc.createElement('template');
        t.innerHTML = parts[Number(slots[j].getAttribute('data-fold'))] || '';
        var content = t.content;
        slots[j].replaceWith(content);
      }
      if (slots.length) code.decorate(el);
    }
    pathEl.addEventListener('toggle', function (ev) {
      var d = ev.target;
      if (d.tagName === 'DETAILS' && d.open) openFolds(d);
    }, true);

    var modes = { thinking: false, output: false };
    var TOGGLES = { thinking: 'details.thinking', output: 'details.more, .tool details:not(.thinking)' };
    function applyModes(el) {
      for (var kind in modes) {
        if (!modes[kind]) continue;
        var list = el.querySelectorAll(TOGGLES[kind]);
        for (var j = 0; j < list.length; j++) {
          if (kind === 'output') openFolds(list[j]);
          list[j].open = true;
        }
      }
    }

    // drawn prepares an article the path view has put in the page.
    function drawn(i, el) {
      localTimes(el);
      editBadges(el);
      code.decorate(el);
      applyModes(el);
      markLinked(i);
    }

    var fetching = new Set();
    var fetchTimer = 0;
    // missing gets the articles the path view wants but does not have:
    // chunks are unpacked a few at a time, then the view is refreshed.
    function missing(i) {
      if (!entriesStore.known(i)) return;
      fetching.add(i);
      if (fetchTimer) return;
      fetchTimer = setTimeout(function () {
        fetchTimer = 0;
        var list = Array.from(fetching);
        fetching.clear();
        entriesStore.fetch(list).then(function () { path.refresh(list); });
      }, 0);
    }

    // estimate guesses an entry's height before it is drawn. A phone wraps
    // a line of a hundred characters about twice. (The width is read once
    // per path: reading it costs a layout.)
    var wrap = 1;
    function estimate(i) {
      var lines = (idx.lines && idx.lines[i]) || 2;
      return Math.round(28 + lines * lineHeight * wrap);
    }

    var path = new lib.PathView(pathEl, n, {
      ids: ids,
      store: entriesStore,
      make: make,
      missing: missing,
      estimate: estimate,
      drawn: drawn,
      offset: function () { return topbar ? topbar.getBoundingClientRect().bottom : 0; }
    });

    entriesStore.onArrive(function (list) {
      if (list === null) {
        path.refresh(path.drawnEntries());
        if (searchAgain) runSearch();
        return;
      }
      var want = [];
      for (var j = 0; j < list.length; j++) if (path.has(list[j])) want.push(list[j]);
      if (!want.length) return;
      entriesStore.fetch(want).then(function () { path.refresh(want); });
    });

    // ---- the path in view ------------------------------------------------

    var onPath = new Uint8Array(n);
    var pathList = [];
    function setPath(end) {
      pathList = pathTo(end);
      onPath = new Uint8Array(n);
      var arts = [];
      for (var j = 0; j < pathList.length; j++) {
        onPath[pathList[j]] = 1;
        if (!absorbed[pathList[j]]) arts.push(pathList[j]);
      }
      wrap = (pathEl.clientWidth || 800) < 600 ? 1.8 : 1;
      path.setPath(Int32Array.from(arts));
      tree.setPath(onPath);
      pathTokens();
    }

    // A switch to another path waits for the chunks that hold the
    // entries around its target; a later switch supersedes it.
    var switching = 0;
    function busy(on) {
      if (on) pathEl.setAttribute('aria-busy', 'true');
      else pathEl.removeAttribute('aria-busy');
    }

    // show brings entry i into view: on the path in view if it is there,
    // else on the path through it to the newest leaf below it. then runs
    // once it is drawn.
    function show(i, then) {
      var turn = ++switching;
      if (!onPath[i]) setPath(newestLeaf(i));
      var owner = ownerOf(i);
      var k = path.posOf[owner];
      var near = [];
      for (var j = Math.max(0, k - 6); j < Math.min(path.list.length, k + 12); j++) near.push(path.list[j]);
      busy(true);
      entriesStore.fetch(near).then(function () {
        if (turn !== switching) return;
        busy(false);
        var el = path.jump(owner);
        var target = el && owner !== i ? doc.getElementById(ENTRY + ids[i]) : el;
        if (target && target !== el) {
          // A tool's card taller than the window is scrolled to its
          // output, which is what a link to the result is for.
          var output = target.querySelector(':scope > .tool-output');
          var to = output && target.getBoundingClientRect().height > innerHeight * 0.7 ? output : target;
          window.scrollBy(0, to.getBoundingClientRect().top - (topbar ? topbar.getBoundingClientRect().bottom : 0) - 8);
        }
        if (then) then(target || el);
      });
    }

    function setHash(id) {
      var url = location.href.split('#')[0];
      try { history.replaceState(null, '', id === null ? url : url + '#' + encodeURIComponent(id)); } catch (e) { /* opaque origins */ }
    }

    // open shows entry i, selects it in the tree, and (how.hash) puts it
    // in the address.
    function open(i, how) {
      tree.select(i);
      tree.reveal(i, true);
      if (how.hash) setHash(ids[i]);
      show(i, function (el) {
        if (el && how.flash) {
          el.classList.remove('flash');
          requestAnimationFrame(function () { el.classList.add('flash'); });
        }
        if (how.then) how.then(el);
      });
    }

    function reset() {
      tree.select(viewEnd);
      tree.reveal(viewEnd, true);
      setHash(null);
      if (!onPath[viewEnd] || pathList[pathList.length - 1] !== viewEnd) setPath(viewEnd);
      show(viewEnd);
    }

    // ---- times, token figures, context edits ------------------------------

    var dateFmt, zonedFmt;
    try {
      dateFmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
      // The header's times name their zone, as the index's do; an
      // entry's, read beside them, need not repeat it.
      zonedFmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    } catch (e) { dateFmt = zonedFmt = null; }
    function localTime(el, fmt) {
      var d = new Date(el.getAttribute('datetime'));
      fmt = fmt || dateFmt;
      if (!fmt || isNaN(d.getTime())) return;
      el.title = el.textContent;
      el.textContent = fmt.format(d);
    }
    function localTimes(art) {
      var head = art.firstElementChild;
      var t = head && head.getElementsByTagName('time')[0];
      if (t) localTime(t);
    }
    var headTimes = doc.querySelectorAll('.page-head time');
    for (i = 0; i < headTimes.length; i++) localTime(headTimes[i], zonedFmt);

    // The usage of each entry that records some, five figures from
    // usage[5*at[i]]: read from the index's object once, so that summing a
    // path of thousands of entries looks up no property.
    var usageAt = new Int32Array(n).fill(-1);
    var usage = [];
    Object.keys(idx.usage || {}).forEach(function (k) {
      var i = Number(k);
      if (!(i >= 0 && i < n)) return;
      usageAt[i] = usage.length / 5;
      var u = idx.usage[k];
      for (var f = 0; f < 5; f++) usage.push(Number(u[f]) || 0);
    });
    var pathCells = doc.querySelectorAll('[data-path-tokens]');
    var FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cost'];
    function pathTokens() {
      var sum = [0, 0, 0, 0, 0];
      for (var j = 0; j < pathList.length; j++) {
        var at = usageAt[pathList[j]];
        if (at < 0) continue;
        for (var f = 0; f < 5; f++) sum[f] += usage[5 * at + f];
      }
      for (j = 0; j < pathCells.length; j++) {
        var field = FIELDS.indexOf(pathCells[j].getAttribute('data-path-tokens'));
        if (field < 0) continue;
        var text = field === 4 ? lib.figures.cost(sum[4]) : lib.figures.tokens(sum[field]);
        if (pathCells[j].textContent !== text) pathCells[j].textContent = text;
      }
    }

    // An entry a context edit changes for the model carries a badge for
    // each edit aimed at it; the one shown is the latest edit on the path
    // in view (see editBadges in page/settings.go).
    var edits = idx.edits || {};
    var editTarget = new Map(); // edit -> the entry it is aimed at
    Object.keys(edits).forEach(function (t) {
      edits[t].forEach(function (e) { editTarget.set(e, Number(t)); });
    });
    function editBadges(art) {
      var list = art.firstElementChild ? art.firstElementChild.querySelectorAll('.edit-badge') : [];
      for (var j = 0; j < list.length; j++) {
        var e = pos.get(list[j].getAttribute('data-edit'));
        var t = editTarget.get(e);
        if (t === undefined) continue;
        var shown = -1;
        var all = edits[t];
        for (var k = 0; k < all.length; k++) if (onPath[all[k]]) shown = all[k];
        list[j].hidden = shown !== e;
      }
    }

    // ---- sub-agent transcripts ---------------------------------------------

    // A task call lists the agents it started; each one's transcript comes
    // packed (see page/subagents.go) and opens under the agent's line.
    doc.addEventListener('click', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a.open-subagent') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      var id = a.getAttribute('data-subagent');
      var li = a.closest('li') || a.parentElement;
      var panel = li.querySelector(':scope > section.subagent');
      if (panel) {
        panel.remove();
        a.setAttribute('aria-expanded', 'false');
        return;
      }
      a.setAttribute('aria-expanded', 'true');
      entriesStore.panel(id).then(function (html) {
        var section;
        if (typeof html === 'string') {
          var t = doc.createElement('template');
          t.innerHTML = html.replace(FOLD, '$1');
          section = t.content.firstElementChild;
        }
        if (!section) {
          section = doc.createElement('p');
          section.className = 'unpack-failed';
          section.textContent = 'This browser could not unpack this transcript (it needs DecompressionStream).';
        }
        li.appendChild(section);
        section.querySelectorAll('time').forEach(function (t) { localTime(t); });
        code.decorate(section);
      });
    });

    // ---- copy link ---------------------------------------------------------

    doc.addEventListener('click', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a[data-copy]') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      var id = a.getAttribute('data-copy');
      var url = location.href.split('#')[0] + '#' + encodeURIComponent(id);
      var j = pos.get(id);
      if (j !== undefined) { tree.select(j); setHash(id); }
      copyText(url, function () {
        a.classList.add('copied');
        setTimeout(function () { a.classList.remove('copied'); }, 1200);
      });
    });

    // Links inside the conversation to another entry (a context edit's
    // target, a label's entry) are followed in the page.
    pathEl.addEventListener('click', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a[href^="#"]') : null;
      if (!a || a.hasAttribute('data-copy') || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      var j = indexOfHash(a.getAttribute('href'));
      if (j < 0) return;
      ev.preventDefault();
      open(j, { hash: true, flash: true });
    });

    // ---- the tree ----------------------------------------------------------

    var treeEl = doc.getElementById('tree');
    var tree = new lib.TreeView(treeEl, idx, {
      open: function (i) {
        closeNarrow();
        open(i, { hash: true, flash: true });
      }
    });

    var statusEl = doc.getElementById('tree-status');
    var searchNote = '';
    function status() {
      if (!statusEl) return;
      var text;
      var count = tree.matching;
      if (tree.hits) {
        text = count === 1 ? '1 entry matches' : count + ' entries match';
        var at = tree.selected;
        if (count && at >= 0 && tree.hits[at] && tree.passes(at)) {
          var k = 0;
          for (var j = 0; j <= at; j++) if (tree.hits[j] && tree.passes(j)) k++;
          text = k + ' of ' + text;
        }
      } else {
        text = count + ' / ' + n + ' entries';
      }
      if (searchNote) text += ' · ' + searchNote;
      if (statusEl.textContent !== text) statusEl.textContent = text;
    }

    var filterButtons = doc.querySelectorAll('[data-filter]');
    for (i = 0; i < filterButtons.length; i++) {
      filterButtons[i].addEventListener('click', function (ev) {
        var filter = ev.currentTarget.getAttribute('data-filter');
        // Usage entries show in the path too under "All" (see cards.css).
        root.classList.toggle('show-usage', filter === 'all');
        for (var j = 0; j < filterButtons.length; j++) {
          filterButtons[j].setAttribute('aria-pressed', String(filterButtons[j] === ev.currentTarget));
        }
        tree.setFilter(filter);
        status();
      });
    }

    // ---- search ------------------------------------------------------------

    var searcher = new lib.TreeSearch(entriesStore, idx, pos);
    var searchEl = doc.getElementById('tree-search');
    var cancelSearch = null;
    var searchTimer = 0;
    var query = '';
    var searchWords = [];
    var linked = null; // {i, words}: the entry a link named, and its ?hl= words
    var searchAgain = false; // the page was still loading when it searched

    function runSearch(then) {
      clearTimeout(searchTimer);
      var text = searchEl ? searchEl.value : '';
      if (cancelSearch) { cancelSearch(); cancelSearch = null; }
      var w = lib.searchWords(text);
      query = text;
      searchAgain = false;
      if (!w.length) {
        searchNote = '';
        searchWords = [];
        tree.setHits(null);
        status();
        done(text);
        if (then) then();
        return;
      }
      searchWords = w;
      cancelSearch = searcher.search(w, function (note) {
        searchNote = note;
        status();
      }, function (hits, missing) {
        cancelSearch = null;
        searchNote = missing ? 'the page is still loading' : '';
        searchAgain = missing > 0;
        tree.setHits(hits);
        status();
        done(text);
        if (then) then();
      });
    }
    // done marks the status with the search it reports on, for whoever
    // waits for a search to finish.
    function done(text) {
      if (statusEl) statusEl.setAttribute('data-query', text);
    }
    // step opens the next search hit after the entry selected (back: the
    // one before it), in the tree's order, going round at the end.
    function step(back) {
      var hits = tree.hits;
      if (!hits || !tree.matching) return;
      var from = tree.selected;
      if (from < 0) from = back ? n : -1;
      for (var k = 1; k <= n; k++) {
        var j = ((back ? from - k : from + k) % n + n) % n;
        if (hits[j] && tree.passes(j)) {
          closeNarrow();
          tree.activate(j);
          open(j, { hash: true, flash: true, then: function () { showHits(j); } });
          status();
          return;
        }
      }
    }
    if (searchEl) {
      searchEl.addEventListener('input', function () {
        clearTimeout(searchTimer);
        if (!searchEl.value.trim()) clearMarks();
        searchTimer = setTimeout(runSearch, 120);
      });
      searchEl.addEventListener('keydown', function (ev) {
        if (ev.key !== 'Enter') return;
        ev.preventDefault();
        var back = ev.shiftKey;
        if (searchEl.value !== query || cancelSearch) runSearch(function () { step(back); });
        else step(back);
      });
    }
    function clearSearch() {
      clearMarks();
      if (!searchEl || !searchEl.value) return false;
      searchEl.value = '';
      runSearch();
      return true;
    }

    // The words of the search, marked in the entry a search opens (CSS
    // highlights), with the folds that hide them opened.
    var HIGHLIGHT = 'piexport-hit';
    var canMark = typeof CSS !== 'undefined' && CSS.highlights && typeof Highlight !== 'undefined';
    function clearMarks() {
      if (canMark) CSS.highlights.delete(HIGHLIGHT);
    }
    // showHits marks words in entry i: the tree search's (parts of words,
    // lowercased), or a link's (linked: whole words folded as the index
    // folds them, see wordMatches).
    function showHits(i, words, linked) {
      words = words || searchWords;
      clearMarks();
      var owner = ownerOf(i);
      var article = path.element(owner);
      if (!words.length || !article) return;
      openFolds(article);
      var scope = (owner !== i && doc.getElementById(ENTRY + ids[i])) || article;
      var ranges = [];
      var walker = doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node && ranges.length < 1000; node = walker.nextNode()) {
        var found = linked ? wordMatches(node.data, words) : partMatches(node.data, words);
        for (var k = 0; k < found.length; k++) {
          var r = doc.createRange();
          r.setStart(node, found[k][0]);
          r.setEnd(node, found[k][1]);
          ranges.push(r);
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
      var first = ranges[0];
      requestAnimationFrame(function () {
        var box = first.getBoundingClientRect();
        if (box.top < 80 || box.bottom > innerHeight - 40) window.scrollBy(0, box.top - innerHeight / 3);
      });
    }

    // partMatches finds words (lowercase) anywhere in text, as the tree's
    // search does; it returns [start, end] offsets in text.
    function partMatches(text, words) {
      var out = [];
      var low = text.toLowerCase();
      // Letters whose lowercase is longer would shift the offsets.
      if (low.length !== text.length) return out;
      for (var k = 0; k < words.length; k++) {
        var w = words[k];
        for (var at = low.indexOf(w); at >= 0; at = low.indexOf(w, at + w.length)) out.push([at, at + w.length]);
      }
      return out;
    }

    // wordMatches finds a link's words in text as the index reads words
    // (fold.js): folded ("cafe" marks "Café"), and whole, or at the start
    // of a word for a prefix ({text, prefix}). It returns [start, end]
    // offsets in text.
    var ASCII = /^[\x00-\x7f]*$/;
    // isWordEnd: the character before at in s is part of a word;
    // isWordStart: the one at at is.
    function isWordEnd(s, at) {
      var c = s.codePointAt(at - 1);
      if (at >= 2 && c >= 0xdc00 && c <= 0xdfff) c = s.codePointAt(at - 2);
      return lib.fold.WORD.test(String.fromCodePoint(c));
    }
    function isWordStart(s, at) { return lib.fold.WORD.test(String.fromCodePoint(s.codePointAt(at))); }
    function wordMatches(text, words) {
      var folded = '';
      var at = null; // at[j]: the offset in text of folded's unit j (null: j)
      if (ASCII.test(text)) {
        folded = text.toLowerCase();
      } else {
        at = [];
        var off = 0;
        for (var c of text) {
          var f = lib.fold.fold(c);
          for (var j = 0; j < f.length; j++) at.push(off);
          folded += f;
          off += c.length;
        }
        at.push(off);
      }
      var out = [];
      for (var k = 0; k < words.length; k++) {
        var w = words[k];
        if (!w.text) continue;
        for (var p = folded.indexOf(w.text); p >= 0; p = folded.indexOf(w.text, p + 1)) {
          var end = p + w.text.length;
          if (p > 0 && isWordEnd(folded, p)) continue;
          if (!w.prefix && end < folded.length && isWordStart(folded, end)) continue;
          if (!at) out.push([p, end]);
          else if (at[end] > at[p]) out.push([at[p], at[end]]);
        }
      }
      return out;
    }

    // ---- copying -------------------------------------------------------------

    function copyText(text, then) {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(then, function () { if (legacyCopy(text)) then(); });
      } else if (legacyCopy(text)) {
        then();
      }
    }
    function legacyCopy(text) {
      var ta = doc.createElement('textarea');
      ta.value = text;
      ta.setAttribute('readonly', '');
      ta.className = 'sr';
      doc.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = doc.execCommand('copy'); } catch (e) { ok = false; }
      ta.remove();
      return ok;
    }

    // ---- sidebar: toggle, off-canvas, resize ------------------------------

    var narrow = window.matchMedia('(max-width: 900px)');
    function closeNarrow() {
      if (narrow.matches) root.classList.remove('side-open');
      syncToggle();
    }
    var sideToggle = doc.getElementById('side-toggle');
    function syncToggle() {
      if (!sideToggle) return;
      var opened = narrow.matches ? root.classList.contains('side-open') : !root.classList.contains('side-closed');
      sideToggle.setAttribute('aria-expanded', String(opened));
    }
    if (sideToggle) {
      sideToggle.addEventListener('click', function () {
        if (narrow.matches) {
          root.classList.toggle('side-open');
          if (root.classList.contains('side-open')) { tree.draw(); if (tree.selected >= 0) tree.reveal(tree.selected, true); }
        } else {
          root.classList.toggle('side-closed');
        }
        syncToggle();
        path.schedule();
      });
    }
    var scrim = doc.getElementById('scrim');
    if (scrim) scrim.addEventListener('click', closeNarrow);
    if (narrow.addEventListener) narrow.addEventListener('change', syncToggle);
    syncToggle();

    var resizer = doc.getElementById('resizer');
    var sidebar = doc.getElementById('sidebar');
    function setWidth(px, save) {
      var max = Math.max(200, Math.min(900, window.innerWidth - 360));
      px = Math.round(Math.max(200, Math.min(max, px)));
      root.style.setProperty('--side-w', px + 'px');
      if (save) store(WIDTH_KEY, String(px));
    }
    if (resizer && sidebar) {
      resizer.addEventListener('pointerdown', function (ev) {
        if (narrow.matches || ev.button !== 0) return;
        ev.preventDefault();
        var startX = ev.clientX;
        var startW = sidebar.getBoundingClientRect().width;
        var frame = 0;
        resizer.setPointerCapture(ev.pointerId);
        root.classList.add('resizing');
        function move(e) {
          cancelAnimationFrame(frame);
          frame = requestAnimationFrame(function () { setWidth(startW + e.clientX - startX, false); });
        }
        function up(e) {
          cancelAnimationFrame(frame);
          resizer.removeEventListener('pointermove', move);
          resizer.removeEventListener('pointerup', up);
          resizer.removeEventListener('pointercancel', up);
          root.classList.remove('resizing');
          setWidth(startW + e.clientX - startX, true);
        }
        resizer.addEventListener('pointermove', move);
        resizer.addEventListener('pointerup', up);
        resizer.addEventListener('pointercancel', up);
      });
      resizer.addEventListener('dblclick', function () {
        root.style.removeProperty('--side-w');
        store(WIDTH_KEY, null);
      });
      resizer.addEventListener('keydown', function (ev) {
        var d = ev.key === 'ArrowLeft' ? -24 : ev.key === 'ArrowRight' ? 24 : 0;
        if (!d) return;
        ev.preventDefault();
        setWidth(sidebar.getBoundingClientRect().width + d, true);
      });
    }

    var themeToggle = doc.getElementById('theme-toggle');
    if (themeToggle) {
      themeToggle.addEventListener('click', function () {
        var current = root.getAttribute('data-theme');
        if (current !== 'light' && current !== 'dark') {
          current = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
        }
        var next = current === 'dark' ? 'light' : 'dark';
        root.setAttribute('data-theme', next);
        store(THEME_KEY, next);
      });
    }

    var toLeaf = doc.getElementById('to-leaf');
    if (toLeaf) toLeaf.addEventListener('click', function () { closeNarrow(); reset(); });

    // ---- the keyboard ----------------------------------------------------------

    // toggleAll opens every block of a kind, or closes them all; the kind's
    // button says which. Entries drawn later follow.
    function toggleAll(kind) {
      modes[kind] = !modes[kind];
      var list = pathEl.querySelectorAll(TOGGLES[kind]);
      for (var j = 0; j < list.length; j++) {
        if (modes[kind] && kind === 'output') openFolds(list[j]);
        if (list[j].open !== modes[kind]) list[j].open = modes[kind];
      }
      var button = doc.querySelector('[data-toggle-all="' + kind + '"]');
      if (button) {
        button.setAttribute('aria-pressed', String(modes[kind]));
        button.textContent = (modes[kind] ? 'Hide' : 'Show') + ' all ' + (kind === 'thinking' ? 'thinking' : 'tool output');
      }
    }
    var toggleButtons = doc.querySelectorAll('[data-toggle-all]');
    for (i = 0; i < toggleButtons.length; i++) {
      toggleButtons[i].addEventListener('click', function (ev) {
        toggleAll(ev.currentTarget.getAttribute('data-toggle-all'));
      });
    }

    doc.addEventListener('keydown', function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
      var t = ev.target;
      var typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
      if (ev.key === 'Escape') {
        if (clearSearch()) return;
        if (typing) t.blur();
        if (narrow.matches && root.classList.contains('side-open')) {
          closeNarrow();
          return;
        }
        reset();
        return;
      }
      if (typing) return;
      if (ev.key === '/') {
        ev.preventDefault();
        if (narrow.matches) { root.classList.add('side-open'); syncToggle(); }
        if (searchEl) searchEl.focus();
      } else if (ev.key === 't') {
        toggleAll('thinking');
      } else if (ev.key === 'o') {
        toggleAll('output');
      }
    });

    // ---- print: the whole path ---------------------------------------------

    // A printout shows the path as the screen does: folded outputs as
    // their first lines and "N more lines", thinking closed unless opened.
    // Cards short enough to fit on a page are kept whole (.keep); longer
    // ones break where they must, so no page is left nearly empty.
    var KEEP_PX = 480;
    var kept = [];
    window.addEventListener('beforeprint', function () {
      path.drawAll();
      var list = pathEl.querySelectorAll(':scope > article, :scope > article .tool');
      for (var j = 0; j < list.length; j++) {
        if (list[j].getBoundingClientRect().height < KEEP_PX) kept.push(list[j]);
      }
      for (j = 0; j < kept.length; j++) kept[j].classList.add('keep');
    });
    window.addEventListener('afterprint', function () {
      for (var j = 0; j < kept.length; j++) kept[j].classList.remove('keep');
      kept = [];
      path.schedule();
    });

    // ---- deep links and the first view ------------------------------------

    // A link names an entry by its id, or by its element id: both are
    // taken, the bare id first.
    function indexOfHash(h) {
      h = (h || '').replace(/^#/, '');
      if (!h) return -1;
      try { h = decodeURIComponent(h); } catch (e) { /* keep it raw */ }
      var j = pos.get(h);
      if (j === undefined && h.lastIndexOf(ENTRY, 0) === 0) j = pos.get(h.slice(ENTRY.length));
      return j === undefined ? -1 : j;
    }
    window.addEventListener('hashchange', function () {
      linked = null;
      var j = indexOfHash(location.hash);
      if (j >= 0) open(j, { hash: false, flash: true });
    });

    // A search's hit links to its entry with the words it found
    // (?hl=words, as the index folds them; a prefix ends in *): they are
    // marked there, and the folds that hide them opened, once the entry
    // is drawn (which, early in a large page, waits for its block).
    function markLinked(owner) {
      if (!linked || ownerOf(linked.i) !== owner) return;
      var l = linked;
      linked = null;
      setTimeout(function () { showHits(l.i, l.words, true); }, 0);
    }
    function linkedWords() {
      var hl = null;
      try { hl = new URLSearchParams(location.search).get('hl'); } catch (e) { /* no query */ }
      if (!hl) return [];
      return hl.split(/\s+/).filter(Boolean).map(function (w) {
        var prefix = /\*$/.test(w);
        return { text: w.replace(/\*+$/, '').toLowerCase(), prefix: prefix };
      });
    }

    setPath(viewEnd);
    var target = indexOfHash(location.hash);
    if (target >= 0) {
      var words = linkedWords();
      if (words.length) linked = { i: target, words: words };
      open(target, { hash: false, flash: true, then: function (el) {
        if (el) markLinked(ownerOf(target));
      } });
    } else if (path.short()) {
      // A path that fits in a few screens opens at its start; a longer
      // one at its end, where the session left off.
      path.update();
    } else {
      show(viewEnd);
    }
    // The tree is laid out in a task of its own, so that a long session's
    // leaf is drawn without waiting for it.
    setTimeout(function () {
      tree.apply();
      status();
      var at = target >= 0 ? target : viewEnd;
      tree.select(at);
      tree.reveal(at, true);
      if (window.performance && performance.mark) performance.mark('piexport:interactive');
    }, 0);

    // where and goTo tell the reader's place in the path and go back to
    // it: the server's live follow (follow.js) keeps the place across a
    // reload.
    window.piexportPage.where = function () {
      var a = path.anchor();
      if (!a) return null;
      return { entry: a.el.getAttribute('data-entry'), into: (topbar ? topbar.getBoundingClientRect().bottom : 0) - a.top };
    };
    window.piexportPage.goTo = function (id, into) {
      var j = pos.get(id);
      if (j === undefined) return;
      show(j, function (el) { if (el && into) window.scrollBy(0, into); });
    };

    return { store: entriesStore };
  }
})(window.piexportLib = window.piexportLib || {});
