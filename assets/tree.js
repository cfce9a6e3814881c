// Tree: the sidebar as a reader finds their way in it. Filters and the
// search box choose the rows shown; the lines that draw the tree's
// branches follow what is shown; a branch point folds; and the keyboard
// moves as in a tree view (the WAI-ARIA tree pattern: arrows, Home, End,
// Enter, one stop for Tab).
//
// The page comes laid out for the default filter (see session.Layout and
// page.railClasses); this lays it out again, the same way, when the rows
// shown change. Nothing here recurses: trees reach tens of thousands of
// rows.
(window.piexportParts = window.piexportParts || []).push(function (page) {
  'use strict';

  var doc = document;
  var n = page.n;
  var parents = page.parents;
  var kinds = page.kinds;
  var rows = page.rows;
  var treeEl = page.tree;
  var searchEl = doc.getElementById('tree-search');
  var statusEl = doc.getElementById('tree-status');
  if (!treeEl) return;

  // ---- what is shown ------------------------------------------------------

  var filter = 'default';
  // Settings, context edits and usage entries are bookkeeping: pi's own
  // tree hides them but under "All" (usage entries even there).
  function bookkeeping(kind) {
    return kind === 'settings' || kind === 'context-edit' || kind === 'usage';
  }
  function passes(i) {
    var kind = kinds[i];
    switch (filter) {
      // page/kinds.go: shownByDefault
      case 'default': return !bookkeeping(kind) && kind !== 'assistant-tools';
      case 'no-tools': return !bookkeeping(kind) && kind !== 'assistant-tools' && kind !== 'tool';
      case 'user': return kind === 'user';
      case 'labeled': return page.labeled[i] === 1;
      default: return true;
    }
  }

  // hits marks the entries the search finds; null when there is no search.
  var hits = null;
  var folded = new Uint8Array(n);
  var anyFolded = false;
  var shown = new Uint8Array(n).fill(1); // the row is not hidden now
  var count = 0; // rows the filter and the search let through

  // ---- layout (session.Layout, the same algorithm) ------------------------

  // layout returns, for the rows vis marks, the rails each draws (one
  // letter per level: ' ' none, 'v' a line, 't' ├, 'l' └) and how many
  // branches each branch point has.
  function layout(vis) {
    var up = new Int32Array(n);
    var kids = new Int32Array(n + 1);
    var last = new Int32Array(n + 1).fill(-1);
    var i, a, p;
    for (i = 0; i < n; i++) {
      a = n;
      p = parents[i];
      if (p >= 0 && p < i) a = vis[p] ? p : up[p];
      up[i] = a;
      if (vis[i]) { kids[a]++; last[a] = i; }
    }
    var lane = new Array(n + 1);
    lane[n] = '';
    var rails = new Array(n);
    var forks = new Int32Array(n);
    for (i = 0; i < n; i++) {
      a = up[i];
      var base = lane[a];
      if (!vis[i]) {
        rails[i] = base;
      } else if (kids[a] > 1 && last[a] === i) {
        rails[i] = base + 'l';
        lane[i] = base + ' ';
      } else if (kids[a] > 1) {
        rails[i] = base + 't';
        lane[i] = base + 'v';
      } else {
        rails[i] = base;
        lane[i] = base;
      }
      if (vis[i] && kids[i] > 1) forks[i] = kids[i];
    }
    return { rails: rails, forks: forks };
  }

  // The layout the rows show now; null until the first change, when it
  // is the default filter's, which the page came with.
  var drawn = null;
  var MAX_RAILS = 16; // page.maxRails

  function defaultVisible() {
    var vis = new Uint8Array(n);
    var keep = filter;
    filter = 'default';
    for (var i = 0; i < n; i++) vis[i] = passes(i) ? 1 : 0;
    filter = keep;
    return vis;
  }

  // railsHTML is page.railClasses in markup: a run of levels without a
  // line, or with one going on, is one element.
  function railsHTML(rails) {
    var html = '';
    for (var k = 0; k < rails.length;) {
      var c = rails[k];
      var run = 1;
      if (c === ' ' || c === 'v') while (k + run < rails.length && rails[k + run] === c) run++;
      var cls = (c === ' ' ? '' : c) + (run > 1 ? (c === ' ' ? '' : ' ') + 'k' + run : '');
      html += cls ? '<i class="' + cls + '"></i>' : '<i></i>';
      k += run;
    }
    return html;
  }

  function drawRails(a, rails) {
    var span = a.firstElementChild;
    if (span && !span.classList.contains('rails')) span = null;
    if (!rails) {
      if (span) span.remove();
      return;
    }
    if (!span) {
      span = doc.createElement('span');
      span.className = 'rails';
      span.setAttribute('aria-hidden', 'true');
      a.insertBefore(span, a.firstChild);
    }
    // Fixed markup made here, nothing from the session.
    span.innerHTML = railsHTML(rails.slice(-MAX_RAILS));
  }

  function drawFork(a, forks) {
    var mark = a.querySelector(':scope > .fork');
    if (!forks) {
      if (mark) mark.remove();
      a.removeAttribute('aria-expanded');
      return;
    }
    if (!mark) {
      mark = doc.createElement('span');
      mark.className = 'fork';
      var rails = a.firstElementChild && a.firstElementChild.classList.contains('rails') ? a.firstElementChild : null;
      a.insertBefore(mark, rails ? rails.nextSibling : a.firstChild);
      a.insertBefore(doc.createTextNode(' '), mark.nextSibling);
    }
    if (mark.textContent !== String(forks)) {
      mark.textContent = String(forks);
      mark.title = forks + ' branches';
    }
  }

  // relayout draws the tree for the rows vis marks, touching only the rows
  // whose lines change.
  function relayout(vis) {
    if (!drawn) drawn = layout(defaultVisible());
    var next = layout(vis);
    for (var i = 0; i < n; i++) {
      var a = rows[i];
      if (!a || !vis[i]) continue;
      var r = next.rails[i];
      if (r !== drawn.rails[i]) {
        drawRails(a, r);
        if (r.length) a.setAttribute('aria-level', String(r.length + 1));
        else a.removeAttribute('aria-level');
        drawn.rails[i] = r;
      }
      if (next.forks[i] !== drawn.forks[i]) {
        drawFork(a, next.forks[i]);
        drawn.forks[i] = next.forks[i];
      }
    }
  }

  // depth and forks of row i in the layout drawn now.
  function depth(i) {
    if (drawn) return drawn.rails[i].length;
    var level = rows[i] && rows[i].getAttribute('aria-level');
    return level ? Number(level) - 1 : 0;
  }
  function isFork(i) {
    return drawn ? drawn.forks[i] > 0 : !!(rows[i] && rows[i].hasAttribute('aria-expanded'));
  }

  // ---- applying ------------------------------------------------------------

  // apply shows the rows that pass the filter and the search, lays them
  // out, and hides those inside folded branches.
  function apply() {
    var vis = new Uint8Array(n);
    count = 0;
    for (var i = 0; i < n; i++) {
      if (passes(i) && (!hits || hits[i])) { vis[i] = 1; count++; }
    }
    if (drawn || filter !== 'default' || hits) relayout(vis);
    var foldAt = -1; // the depth of the folded branch point being passed
    for (i = 0; i < n; i++) {
      var want = vis[i] === 1;
      if (want && anyFolded) {
        var d = depth(i);
        if (foldAt >= 0 && d > foldAt) {
          want = false;
        } else {
          foldAt = -1;
          if (folded[i] && isFork(i)) foldAt = d;
        }
      }
      if (!rows[i] || shown[i] === (want ? 1 : 0)) continue;
      shown[i] = want ? 1 : 0;
      rows[i].hidden = !want;
    }
    status();
  }

  var searchNote = ''; // what the search says about itself, if anything
  function status() {
    if (!statusEl) return;
    var text;
    if (hits) {
      text = count === 1 ? '1 entry matches' : count + ' entries match';
      var at = page.selected();
      if (count && at >= 0 && hits[at] && passes(at)) {
        var k = 0;
        for (var i = 0; i <= at; i++) if (hits[i] && passes(i)) k++;
        text = k + ' of ' + text;
      }
    } else {
      text = count + ' / ' + n + ' entries';
    }
    if (searchNote) text += ' · ' + searchNote;
    if (statusEl.textContent !== text) statusEl.textContent = text;
  }
  page.onSelect.push(function () { if (hits) status(); });

  var filterButtons = doc.querySelectorAll('[data-filter]');
  for (var b = 0; b < filterButtons.length; b++) {
    filterButtons[b].addEventListener('click', function (ev) {
      filter = ev.currentTarget.getAttribute('data-filter');
      // Usage entries show in the path too under "All" (see cards.css).
      doc.documentElement.classList.toggle('show-usage', filter === 'all');
      for (var j = 0; j < filterButtons.length; j++) {
        filterButtons[j].setAttribute('aria-pressed', String(filterButtons[j] === ev.currentTarget));
      }
      apply();
    });
  }

  // ---- search --------------------------------------------------------------

  // page.searchEntries (fulltext.js) searches the entries' full text:
  // search(words, progress, done) calls done(hits) once, later, unless the
  // function it returns cancels it.
  var cancelSearch = null;
  var searchTimer = 0;
  var query = '';
  function words(text) { return text.toLowerCase().split(/\s+/).filter(Boolean); }

  function runSearch(then) {
    clearTimeout(searchTimer);
    var text = searchEl ? searchEl.value : '';
    if (cancelSearch) { cancelSearch(); cancelSearch = null; }
    var w = words(text);
    query = text;
    if (!w.length) {
      searchNote = '';
      hits = null;
      page.searchWords = [];
      apply();
      done(text);
      if (then) then();
      return;
    }
    page.searchWords = w;
    if (!page.searchEntries) return;
    cancelSearch = page.searchEntries(w, function (note) {
      searchNote = note;
      status();
    }, function (found) {
      cancelSearch = null;
      searchNote = '';
      hits = found;
      apply();
      done(text);
      if (then) then();
    });
  }

  // done marks the status with the search it reports on, for whoever
  // waits for a search to finish.
  function done(text) {
    if (statusEl) statusEl.setAttribute('data-query', text);
  }

  // step opens the next search hit after the entry selected (back: the one
  // before it), in the tree's order, going round at the end.
  function step(back) {
    if (!hits || !count) return;
    var from = page.selected();
    if (from < 0) from = back ? n : -1;
    for (var k = 1; k <= n; k++) {
      var i = ((back ? from - k : from + k) % n + n) % n;
      if (hits[i] && passes(i) && rows[i]) {
        page.closeNarrow();
        page.open(i, { hash: true, flash: true, then: function () { if (page.showHits) page.showHits(i); } });
        return;
      }
    }
  }

  if (searchEl) {
    searchEl.addEventListener('input', function () {
      clearTimeout(searchTimer);
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

  page.clearSearch = function () {
    if (!searchEl || !searchEl.value) return false;
    searchEl.value = '';
    runSearch();
    return true;
  };

  // ---- folding and the keyboard ----------------------------------------------

  function fold(i, on) {
    if (!isFork(i) || (folded[i] === 1) === on) return;
    folded[i] = on ? 1 : 0;
    if (on) anyFolded = true;
    rows[i].setAttribute('aria-expanded', on ? 'false' : 'true');
    apply();
  }

  // The row a Tab into the tree lands on: the one last focused, else the
  // entry selected, else the first shown.
  var current = -1;
  function index(a) { var k = a && page.pos.get(a.getAttribute('data-tree-node')); return k === undefined ? -1 : k; }
  function visibleRow(i) { return i >= 0 && i < n && rows[i] && !rows[i].hidden; }
  function focusRow(i) {
    if (!visibleRow(i)) return;
    current = i;
    rows[i].focus({ preventScroll: true });
    rows[i].scrollIntoView({ block: 'nearest' });
  }
  function nextRow(i, dir) {
    for (var j = i + dir; j >= 0 && j < n; j += dir) if (visibleRow(j)) return j;
    return -1;
  }
  // parentRow is the row above i drawn one level up: its branch point.
  function parentRow(i) {
    var d = depth(i);
    for (var j = i - 1; j >= 0; j--) if (visibleRow(j) && depth(j) < d) return j;
    return -1;
  }

  // A click focuses the row clicked; only Tab is sent to the current one.
  var pointing = false;
  treeEl.addEventListener('pointerdown', function () { pointing = true; });
  doc.addEventListener('pointerup', function () { pointing = false; });
  treeEl.addEventListener('focusin', function (ev) {
    var i = index(ev.target);
    if (i < 0) return;
    if (!pointing && !treeEl.contains(ev.relatedTarget)) {
      // Tab came in: to the current row, not the first.
      var want = visibleRow(current) ? current : visibleRow(page.selected()) ? page.selected() : i;
      if (want !== i) { focusRow(want); return; }
    }
    current = i;
  });

  treeEl.addEventListener('keydown', function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var i = index(ev.target);
    if (i < 0) return;
    var to = -2;
    switch (ev.key) {
      case 'ArrowDown': to = nextRow(i, 1); break;
      case 'ArrowUp': to = nextRow(i, -1); break;
      case 'Home': to = nextRow(-1, 1); break;
      case 'End': to = nextRow(n, -1); break;
      case 'ArrowRight':
        if (isFork(i) && folded[i]) fold(i, false);
        else if (isFork(i)) to = nextRow(i, 1);
        break;
      case 'ArrowLeft':
        if (isFork(i) && !folded[i]) fold(i, true);
        else to = parentRow(i);
        break;
      case 'Enter':
      case ' ':
        page.closeNarrow();
        page.open(i, { hash: true, flash: true });
        break;
      case 'Tab':
        // One stop for the whole tree: Tab leaves it.
        if (!ev.shiftKey) {
          var after = doc.getElementById('resizer');
          if (!after || after.offsetParent === null) after = doc.getElementById('main');
          ev.preventDefault();
          if (after) after.focus();
        } else {
          ev.preventDefault();
          var before = doc.getElementById('to-leaf') || searchEl;
          if (before) before.focus();
        }
        return;
      default:
        return;
    }
    ev.preventDefault();
    if (to >= 0) focusRow(to);
  });

  treeEl.addEventListener('click', function (ev) {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest('a[data-tree-node]');
    var i = index(a);
    if (i < 0) return;
    ev.preventDefault();
    current = i;
    if (ev.target.closest('.fork')) {
      fold(i, !folded[i]);
      return;
    }
    page.closeNarrow();
    page.open(i, { hash: true, flash: true });
  });

  // Opening an entry unfolds the branches it is in.
  page.onSelect.push(function (i) {
    if (i < 0 || !rows[i] || !rows[i].hidden || (hits && !hits[i]) || !passes(i)) return;
    var changed = false;
    for (var p = parents[i], steps = 0; p >= 0 && steps < n; p = parents[p], steps++) {
      if (folded[p]) { folded[p] = 0; changed = true; }
    }
    if (changed) apply();
  });

  apply();
});
