// Page script: walks the conversation tree of a server-rendered page.
//
// The HTML already shows the path in view, so everything here is an
// enhancement. Sessions reach tens of thousands of entries: nothing recurses,
// the tree is read from the JSON index once, and switching paths touches only
// the entries whose visibility changes.
(function () {
  'use strict';

  var doc = document;
  var root = doc.documentElement;
  var THEME_KEY = 'piexport:theme';
  // Entries' element ids start with this (see entryIDPrefix in
  // page/view.go), so that an entry's id never names a page element.
  var ENTRY = 'e:';
  var WIDTH_KEY = 'piexport:sidebar-width';

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

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', init);
  else init();

  function init() {
    var indexEl = doc.getElementById('session-index');
    if (!indexEl) return;
    var idx = JSON.parse(indexEl.textContent);
    var ids = idx.ids || [];
    var parents = idx.parents || [];
    var kinds = idx.kinds || [];
    var usage = idx.usage || {};
    var n = ids.length;

    var pos = new Map();
    for (var i = 0; i < n; i++) pos.set(ids[i], i);

    var nodeEls = new Array(n);
    var entryEls = new Array(n);
    var anchors = doc.querySelectorAll('#tree a[data-tree-node]');
    for (i = 0; i < anchors.length; i++) {
      var k = pos.get(anchors[i].getAttribute('data-tree-node'));
      if (k !== undefined) nodeEls[k] = anchors[i];
    }
    var articles = doc.querySelectorAll('article[data-entry]');
    for (i = 0; i < articles.length; i++) {
      k = pos.get(articles[i].getAttribute('data-entry'));
      if (k !== undefined) entryEls[k] = articles[i];
    }

    // The page shows the entries in tree order through the slots of a
    // declarative shadow root, whatever their order in the file (the end
    // of the path comes first: see pageView.Order in export/view.go). A
    // browser without declarative shadow DOM leaves the slots inert, so
    // the entries are put in order here instead.
    var entriesEl = doc.getElementById('entries');
    if (entriesEl && !entriesEl.shadowRoot) {
      for (i = 0; i < n; i++) if (entryEls[i]) entriesEl.appendChild(entryEls[i]);
    }

    // Children come oldest first, so the last one seen is the newest.
    var lastChild = new Int32Array(n).fill(-1);
    for (i = 0; i < n; i++) {
      var p = parents[i];
      if (p >= 0 && p < n) lastChild[p] = i;
    }
    var labeled = new Uint8Array(n);
    (idx.labeled || []).forEach(function (j) { if (j >= 0 && j < n) labeled[j] = 1; });

    var viewEnd = clampIndex(idx.view, clampIndex(idx.leaf, n - 1));

    function clampIndex(v, fallback) {
      return typeof v === 'number' && v >= 0 && v < n ? v : fallback;
    }

    // ---- path in view -------------------------------------------------

    var onPath = new Uint8Array(n);
    var pathList = pathTo(viewEnd);
    for (i = 0; i < pathList.length; i++) onPath[pathList[i]] = 1;

    // A tool result shown in its call's card has no article of its own
    // (see entryView.Absorbed): it is shown, and scrolled to, in the
    // nearest entry above it that has one.
    function ownerOf(i) {
      for (var steps = 0; i >= 0 && !entryEls[i] && steps < n; steps++) i = parents[i];
      return i;
    }

    function newestLeaf(i) {
      for (var steps = 0; lastChild[i] >= 0 && steps < n; steps++) i = lastChild[i];
      return i;
    }

    function pathTo(end) {
      var list = [];
      for (var j = end, steps = 0; j >= 0 && j < n && steps <= n; j = parents[j], steps++) list.push(j);
      return list.reverse();
    }

    // ---- lazy parts -----------------------------------------------------

    // Entries off the path in view, and the folded lines of long outputs,
    // arrive inside <noscript class="lazy">. With scripting on the browser
    // keeps that as text, so even a huge page parses quickly; it becomes DOM
    // here, the first time it is shown. Without JavaScript it is plain HTML.
    var onMaterialize = []; // called with an element whose lazy parts became DOM
    function materialize(el, selector) {
      var list = el.querySelectorAll(selector);
      for (var j = 0; j < list.length; j++) {
        var t = doc.createElement('template');
        t.innerHTML = list[j].textContent;
        list[j].replaceWith(t.content);
      }
      if (list.length) for (j = 0; j < onMaterialize.length; j++) onMaterialize[j](el);
    }
    var LAZY_BODY = ':scope > .entry-body > noscript.lazy';
    var LAZY_FOLD = ':scope > noscript.lazy';
    var READY_AT_ONCE = 200;

    // On a long path only the last entries come ready; the others are
    // lazy too, so the page shows quickly. They become DOM a few at a time
    // while the page is idle, from the top down, and at once around
    // wherever the reader scrolls or jumps to.
    function isLazy(el) { return el && el.querySelector(LAZY_BODY) !== null; }
    function ready(el) { if (isLazy(el)) materialize(el, LAZY_BODY); }
    var idleQueue = [];
    var idleAt = 0;
    var urgent = []; // made ready before the queue
    var idleRunning = false;
    function whenIdle(fn) {
      if (window.requestIdleCallback) requestIdleCallback(fn, { timeout: 300 });
      else setTimeout(fn, 16);
    }
    // An entry whose lazy HTML is larger than IDLE_MAX_CHARS would keep
    // the page busy for a long task on its own: idle time leaves it, and
    // it becomes DOM only when the reader comes near it (readyAround).
    var IDLE_MAX_CHARS = 256 * 1024;
    function readyIfSmall(el) {
      var lazy = el && el.querySelector(LAZY_BODY);
      if (lazy && lazy.textContent.length <= IDLE_MAX_CHARS) materialize(el, LAZY_BODY);
    }
    function idleWork() {
      var until = Date.now() + 10;
      while (urgent.length && Date.now() < until) ready(urgent.shift());
      while (idleAt < idleQueue.length && Date.now() < until) readyIfSmall(idleQueue[idleAt++]);
      if (urgent.length || idleAt < idleQueue.length) whenIdle(idleWork);
      else { idleQueue = []; idleAt = 0; idleRunning = false; }
    }
    function runIdle() {
      if (!idleRunning) { idleRunning = true; whenIdle(idleWork); }
    }
    // later queues el, shown but perhaps still lazy, to be made ready.
    function later(el) {
      if (!el) return;
      idleQueue.push(el);
      runIdle();
    }
    // readyAround makes el ready now, and the entries of the path around
    // it nearest first while AROUND_MS lasts; the rest of them go first
    // when the page is next idle. A long entry takes a while to become
    // DOM, so a jump or a scroll never does many at once.
    var AROUND = 12;
    var AROUND_MS = 20;
    function readyAround(el) {
      var k = el ? pos.get(el.getAttribute('data-entry')) : undefined;
      if (k === undefined || !onPath[k]) return;
      ready(el);
      var at = pathList.indexOf(k);
      var until = Date.now() + AROUND_MS;
      for (var d = 1; d <= AROUND; d++) {
        for (var j = at - d; j <= at + d; j += 2 * d) {
          if (j < 0 || j >= pathList.length) continue;
          var e = entryEls[pathList[j]];
          if (!isLazy(e)) continue;
          if (Date.now() < until) ready(e);
          else { urgent.push(e); runIdle(); }
        }
      }
    }
    var scrollPending = false;
    window.addEventListener('scroll', function () {
      if (scrollPending) return;
      scrollPending = true;
      requestAnimationFrame(function () {
        scrollPending = false;
        if (!entriesEl) return;
        var box = entriesEl.getBoundingClientRect();
        var hit = doc.elementFromPoint(box.left + box.width / 2, innerHeight / 2);
        readyAround(hit && hit.closest('article[data-entry]'));
      });
    }, { passive: true });

    // #entries is aria-busy while anything a switch asked for is still
    // coming: chunks being unpacked, entries still to show.
    var busyCount = 0;
    function busy(delta) {
      busyCount += delta;
      if (!entriesEl) return;
      if (busyCount > 0) entriesEl.setAttribute('aria-busy', 'true');
      else entriesEl.removeAttribute('aria-busy');
    }

    // ---- packed bodies --------------------------------------------------

    // The bodies of entries off the path in view come gzipped, in chunks
    // at the end of the page (see export/pack.go): hidden at load, they
    // cost the page almost nothing to parse. A chunk is unpacked the first
    // time one of its entries is shown. DecompressionStream is
    // asynchronous, so showing such an entry waits for it, with the
    // entries marked busy meanwhile.
    var chunks = new Map(); // index -> Uint8Array, a Promise, or 'failed'
    // packedBody[i] is entry i's body while it is still packed: found once,
    // so a switch to a long path does not query thousands of entries.
    var packedBody = new Array(n);
    var packedEls = doc.querySelectorAll('.entry-body[data-packed]');
    for (i = 0; i < packedEls.length; i++) {
      k = pos.get(packedEls[i].parentElement.getAttribute('data-entry'));
      if (k !== undefined) packedBody[k] = packedEls[i];
    }
    function packedRef(i) {
      var body = packedBody[i];
      if (!body) return null;
      var parts = body.getAttribute('data-packed').split(':');
      return { entry: i, body: body, chunk: Number(parts[0]), off: Number(parts[1]), len: Number(parts[2]) };
    }
    // unpackChunk decodes chunk k. Each starts in a task of its own, so a
    // branch that needs a hundred chunks never decodes them in one.
    function unpackChunk(k) {
      var el = doc.getElementById('pack-' + k);
      if (!el || typeof DecompressionStream === 'undefined' || typeof TextDecoder === 'undefined') {
        return Promise.reject(new Error('cannot unpack'));
      }
      return new Promise(function (ok) { setTimeout(ok, 0); }).then(function () {
        var bin = atob(el.textContent.replace(/-/g, '+').replace(/_/g, '/'));
        var bytes = new Uint8Array(bin.length);
        for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
        var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
        return new Response(stream).arrayBuffer();
      }).then(function (buf) { return new Uint8Array(buf); });
    }
    // fillPacked turns a packed body into a lazy one: its HTML goes in as
    // the text of a <noscript class="lazy">, as if the page had come with
    // it, and becomes DOM when the entry is made ready. A long branch is
    // thus unpacked without parsing thousands of entries at once.
    var utf8 = typeof TextDecoder === 'undefined' ? null : new TextDecoder();
    function fillPacked(r) {
      var data = chunks.get(r.chunk);
      if (r.entry >= 0) packedBody[r.entry] = null;
      r.body.removeAttribute('data-packed');
      if (data instanceof Uint8Array) {
        var lazy = doc.createElement('noscript');
        lazy.className = 'lazy';
        lazy.textContent = utf8.decode(data.subarray(r.off, r.off + r.len));
        r.body.appendChild(lazy);
      } else {
        var p = doc.createElement('p');
        p.className = 'unpack-failed';
        p.textContent = 'This browser could not unpack this entry (it needs DecompressionStream).';
        r.body.appendChild(p);
      }
    }
    // unpack decodes the chunks that hold the entries list names, then
    // calls done: at once when they are decoded already, else later. The
    // bodies are filled in as the entries are shown (see applyChanges).
    function unpack(list, done) {
      var need = [];
      var wanted = new Set();
      for (var j = 0; j < list.length; j++) {
        var r = packedRef(list[j]);
        if (!r || wanted.has(r.chunk)) continue;
        wanted.add(r.chunk);
        var c = chunks.get(r.chunk);
        if (!(c instanceof Uint8Array) && c !== 'failed') need.push(r.chunk);
      }
      if (!need.length) { done(); return; }
      busy(1);
      Promise.all(need.map(function (k) {
        var p = chunks.get(k);
        if (!p) {
          p = unpackChunk(k).then(
            function (bytes) { chunks.set(k, bytes); },
            function () { chunks.set(k, 'failed'); });
          chunks.set(k, p);
        }
        return p;
      })).then(function () {
        busy(-1);
        done();
      });
    }

    // Shows root..end and hides everything else, touching only the
    // entries that change, then calls then (if given). Entries still
    // packed are unpacked first; a later call supersedes a pending one.
    // target is the entry the reader is taken to.
    var showing = 0;
    function showPath(end, target, then) {
      var next = pathTo(end);
      var coming = [];
      for (var j = 0; j < next.length; j++) {
        if (packedBody[next[j]]) coming.push(next[j]);
      }
      var turn = ++showing;
      unpack(coming, function () {
        if (turn !== showing) return;
        switchPath(next, target);
        if (then) then();
      });
    }

    // Showing or hiding thousands of entries at once costs the browser
    // more than a frame should (boxes are built or torn down for each), so
    // a switch changes the entries nearest the target first, CHANGE_AT_ONCE
    // of them at once and the rest a chunk per frame; scroll anchoring
    // keeps the target in place as entries above it come and go. #entries
    // is aria-busy until the switch is complete.
    var CHANGE_AT_ONCE = 300;
    var CHANGE_PER_FRAME = 600;
    var displayed = new Uint8Array(n); // not hidden now
    for (i = 0; i < n; i++) if (onPath[i] && entryEls[i]) displayed[i] = 1;

    // The groups of slots in #entries' shadow root (see page.css): a group
    // not drawn yet is as tall as its estimate, so when a switch changes
    // how many of its entries are shown, the estimate follows.
    var ENTRY_ESTIMATE_PX = 160;
    var groupEls = entriesEl && entriesEl.shadowRoot ? entriesEl.shadowRoot.children : [];
    var groupOf = new Int32Array(n).fill(-1);
    var groupShown = new Int32Array(groupEls.length);
    for (var g = 0; g < groupEls.length; g++) {
      var slots = groupEls[g].children;
      for (var s = 0; s < slots.length; s++) {
        k = pos.get(slots[s].getAttribute('name'));
        if (k === undefined) continue;
        groupOf[k] = g;
        if (displayed[k]) groupShown[g]++;
      }
    }
    var groupsChanged = new Set();
    function countShown(e, delta) {
      var grp = groupOf[e];
      if (grp < 0) return;
      groupShown[grp] += delta;
      groupsChanged.add(grp);
    }
    // Important, because the page's ::part() rules come from outside the
    // shadow tree and so outrank a normal declaration on its elements.
    function resizeGroups() {
      groupsChanged.forEach(function (grp) {
        groupEls[grp].style.setProperty('contain-intrinsic-size', 'auto ' + groupShown[grp] * ENTRY_ESTIMATE_PX + 'px', 'important');
      });
      groupsChanged.clear();
    }
    var chunkTurn = 0;
    var pending = null; // { list, done, eager }: changes not made yet
    // applyChanges makes up to count more of p's changes (an entry's index
    // to show it, -index-1 to hide it) and reports whether some are left.
    function applyChanges(p, count) {
      var to = Math.min(p.list.length, p.done + count);
      for (var j = p.done; j < to; j++) {
        var c = p.list[j];
        if (c >= 0) {
          if (packedBody[c]) fillPacked(packedRef(c));
          entryEls[c].hidden = false;
          displayed[c] = 1;
          countShown(c, 1);
          if (p.eager) ready(entryEls[c]);
          else later(entryEls[c]);
        } else {
          entryEls[-c - 1].hidden = true;
          displayed[-c - 1] = 0;
          countShown(-c - 1, -1);
        }
      }
      resizeGroups();
      p.done = to;
      return to < p.list.length;
    }
    // flushChanges makes whatever a switch still has pending at once.
    function flushChanges() {
      chunkTurn++;
      if (!pending) return;
      applyChanges(pending, pending.list.length);
      pending = null;
      busy(-1);
    }
    function switchPath(next, target) {
      flushChanges();
      var turn = chunkTurn;
      var mark = new Uint8Array(n);
      var changes = [];
      var shows = 0;
      var j, e;
      for (j = 0; j < next.length; j++) mark[next[j]] = 1;
      for (j = 0; j < pathList.length; j++) {
        e = pathList[j];
        if (mark[e]) continue;
        if (displayed[e]) changes.push(-e - 1);
        if (nodeEls[e]) nodeEls[e].classList.remove('on');
      }
      for (j = 0; j < next.length; j++) {
        e = next[j];
        if (!onPath[e] && nodeEls[e]) nodeEls[e].classList.add('on');
        if (!displayed[e] && entryEls[e]) { changes.push(e); shows++; }
      }
      // Nearest the target first: the page shows entries in index order.
      changes.sort(function (a, b) {
        return Math.abs((a < 0 ? -a - 1 : a) - target) - Math.abs((b < 0 ? -b - 1 : b) - target);
      });
      // A branch of ordinary length is made ready at once; a very long one
      // like the page at load, so the switch stays quick.
      var p = { list: changes, done: 0, eager: shows <= READY_AT_ONCE };
      if (applyChanges(p, CHANGE_AT_ONCE)) {
        pending = p;
        busy(1);
        requestAnimationFrame(function step() {
          if (turn !== chunkTurn) return;
          if (applyChanges(p, CHANGE_PER_FRAME)) {
            requestAnimationFrame(step);
          } else {
            pending = null;
            busy(-1);
          }
        });
      }
      onPath = mark;
      pathList = next;
      localTimes();
      pathTokens();
      editBadges();
    }

    var selected = -1;
    var onSelect = []; // called with the entry selected
    function select(i) {
      if (selected === i) return;
      if (selected >= 0 && nodeEls[selected]) {
        nodeEls[selected].classList.remove('sel');
        nodeEls[selected].removeAttribute('aria-selected');
      }
      selected = i;
      if (i >= 0 && nodeEls[i]) {
        nodeEls[i].classList.add('sel');
        nodeEls[i].setAttribute('aria-selected', 'true');
      }
      for (var j = 0; j < onSelect.length; j++) onSelect[j](i);
    }

    function setHash(id) {
      var url = location.href.split('#')[0];
      try { history.replaceState(null, '', id === null ? url : url + '#' + encodeURIComponent(id)); } catch (e) { /* opaque origins */ }
    }

    // Opens entry i: keeps the current path when i is on it, otherwise
    // shows the path through i down to the newest leaf below it. how says
    // whether to set the URL's hash and flash the entry, and what to do
    // once it is shown (then).
    function open(i, how) {
      function go() {
        select(i);
        if (how.hash) setHash(ids[i]);
        scrollToEntry(i, how.flash);
        revealNode(i);
        if (how.then) how.then();
      }
      if (onPath[i]) {
        showing++; // a switch still unpacking is overtaken
        go();
      } else {
        showPath(newestLeaf(i), i, go);
      }
    }

    function reset() {
      showPath(viewEnd, viewEnd, function () {
        select(viewEnd);
        setHash(null);
        scrollToEntry(viewEnd, false);
        revealNode(viewEnd);
      });
    }

    // targetOf is what a link to entry i shows: its article, or for a tool
    // result shown with its call, the call's card, its output in view.
    function targetOf(i) {
      var owner = ownerOf(i);
      if (owner < 0) return null;
      readyAround(entryEls[owner]);
      if (owner === i) return entryEls[i];
      return doc.getElementById(ENTRY + ids[i]) || entryEls[owner];
    }

    function scrollToEntry(i, flash) {
      var card = targetOf(i);
      if (!card) return;
      // A tool's card taller than the window is scrolled to its output,
      // which is what a link to the result is for.
      var el = card;
      var output = card.classList.contains('tool') && card.querySelector(':scope > .tool-output');
      if (output && card.getBoundingClientRect().height > innerHeight * 0.7) el = output;
      if (flash) card.classList.remove('flash');
      el.scrollIntoView({ block: 'start' });
      // Entries above may render at their real height only now
      // (content-visibility), so settle once more on the next frame. The
      // flash restarts there too, without forcing a layout of its own.
      requestAnimationFrame(function () {
        var top = el.getBoundingClientRect().top;
        if (Math.abs(top - 64) > 4) el.scrollIntoView({ block: 'start' });
        if (flash) card.classList.add('flash');
      });
    }

    var treeEl = doc.getElementById('tree');
    function revealNode(i) {
      var a = nodeEls[i];
      if (!a || !treeEl || a.hidden) return;
      var box = treeEl.getBoundingClientRect();
      var r = a.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) {
        treeEl.scrollTop += r.top - box.top - box.height / 3;
      }
    }

    // ---- times and token figures ---------------------------------------

    var dateFmt;
    try {
      dateFmt = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    } catch (e) { dateFmt = null; }
    var localized = new Uint8Array(n);
    function localTime(el) {
      var d = new Date(el.getAttribute('datetime'));
      if (!dateFmt || isNaN(d.getTime())) return;
      el.title = el.textContent;
      el.textContent = dateFmt.format(d);
    }
    // Only entries on the path are rewritten: the others are hidden, and
    // formatting 30,000 dates up front would slow the load.
    function localTimes() {
      for (var j = 0; j < pathList.length; j++) {
        var e = pathList[j];
        if (localized[e] || !entryEls[e]) continue;
        localized[e] = 1;
        // Only the head is searched: a selector with a class on the left
        // ('.entry-head time') makes the browser scan the whole document
        // on each call, which is quadratic over a long path.
        var head = entryEls[e].firstElementChild;
        var t = head && head.getElementsByTagName('time')[0];
        if (t) localTime(t);
      }
    }
    var headTimes = doc.querySelectorAll('.page-head time');
    for (i = 0; i < headTimes.length; i++) localTime(headTimes[i]);

    var pathCells = doc.querySelectorAll('[data-path-tokens]');
    var FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cost'];
    function pathTokens() {
      var sum = [0, 0, 0, 0, 0];
      for (var j = 0; j < pathList.length; j++) {
        var u = usage[pathList[j]];
        if (!u) continue;
        for (var f = 0; f < 5; f++) sum[f] += u[f] || 0;
      }
      for (j = 0; j < pathCells.length; j++) {
        var field = FIELDS.indexOf(pathCells[j].getAttribute('data-path-tokens'));
        if (field < 0) continue;
        var text = field === 4 ? formatCost(sum[4]) : formatTokens(sum[field]);
        if (pathCells[j].textContent !== text) pathCells[j].textContent = text;
      }
    }

    // ---- context edits -----------------------------------------------------

    // An entry a context edit changes for the model carries a badge for
    // each edit aimed at it; the one shown is the latest edit on the path
    // in view (see editBadges in page/settings.go), so a path that leaves
    // the edit behind shows the entry without one.
    var edits = idx.edits || {};
    var badgeEls = []; // [{ edits: [index], els: [element] }]
    // A tool result shown in its call's card has no entry of its own: its
    // badges are on the head of the call's entry, so badges are found by
    // the edit they stand for.
    Object.keys(edits).forEach(function (t) {
      var list = edits[t];
      var els = [];
      for (var j = 0; j < list.length; j++) {
        els.push(doc.querySelector('.entry-head .edit-badge[data-edit="' + CSS.escape(ids[list[j]]) + '"]'));
      }
      badgeEls.push({ edits: list, els: els });
    });
    function editBadges() {
      for (var j = 0; j < badgeEls.length; j++) {
        var b = badgeEls[j];
        var show = -1;
        for (var e = 0; e < b.edits.length; e++) if (onPath[b.edits[e]]) show = e;
        for (e = 0; e < b.els.length; e++) if (b.els[e]) b.els[e].hidden = e !== show;
      }
    }

    // ---- sub-agent transcripts ------------------------------------------------

    // A task call lists the agents it started; each one's transcript comes
    // packed at the end of the page (see page/subagents.go) and opens under
    // the agent's line, unpacked the first time.
    doc.addEventListener('click', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a.open-subagent') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      var panel = doc.getElementById(a.getAttribute('data-subagent'));
      if (!panel) return;
      var opening = panel.hidden || a.getAttribute('aria-expanded') !== 'true';
      doc.querySelectorAll('a.open-subagent[aria-controls="' + CSS.escape(panel.id) + '"]').forEach(function (l) {
        l.setAttribute('aria-expanded', 'false');
      });
      if (!opening) { panel.hidden = true; return; }
      a.setAttribute('aria-expanded', 'true');
      var li = a.closest('li') || a.parentElement;
      li.appendChild(panel);
      var body = panel.querySelector(':scope > .subagent-body');
      var ref = body && body.getAttribute('data-packed');
      function show() {
        panel.hidden = false;
        materialize(panel, ':scope > .subagent-body > noscript.lazy');
      }
      if (!ref) { show(); return; }
      var parts = ref.split(':');
      var r = { entry: -1, body: body, chunk: Number(parts[0]), off: Number(parts[1]), len: Number(parts[2]) };
      var c = chunks.get(r.chunk);
      if (c instanceof Uint8Array || c === 'failed') { fillPacked(r); show(); return; }
      busy(1);
      if (!c) {
        c = unpackChunk(r.chunk).then(
          function (bytes) { chunks.set(r.chunk, bytes); },
          function () { chunks.set(r.chunk, 'failed'); });
        chunks.set(r.chunk, c);
      }
      c.then(function () { busy(-1); fillPacked(r); show(); });
    });

    var toLeaf = doc.getElementById('to-leaf');
    if (toLeaf) toLeaf.addEventListener('click', function () { closeNarrow(); reset(); });

    // ---- copy link -------------------------------------------------------

    doc.addEventListener('click', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a[data-copy]') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      var id = a.getAttribute('data-copy');
      var url = location.href.split('#')[0] + '#' + encodeURIComponent(id);
      var j = pos.get(id);
      if (j !== undefined) { select(j); setHash(id); }
      copyText(url, function () {
        a.classList.add('copied');
        setTimeout(function () { a.classList.remove('copied'); }, 1200);
      });
    });

    function copyText(text, done) {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { legacyCopy(text) && done(); });
      } else if (legacyCopy(text)) {
        done();
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
    }
    var sideToggle = doc.getElementById('side-toggle');
    function syncToggle() {
      if (!sideToggle) return;
      var open = narrow.matches ? root.classList.contains('side-open') : !root.classList.contains('side-closed');
      sideToggle.setAttribute('aria-expanded', String(open));
    }
    if (sideToggle) {
      sideToggle.addEventListener('click', function () {
        if (narrow.matches) {
          root.classList.toggle('side-open');
          if (root.classList.contains('side-open') && selected >= 0) revealNode(selected);
        } else {
          root.classList.toggle('side-closed');
        }
        syncToggle();
      });
    }
    var scrim = doc.getElementById('scrim');
    if (scrim) scrim.addEventListener('click', function () { closeNarrow(); syncToggle(); });
    if (narrow.addEventListener) narrow.addEventListener('change', syncToggle);
    syncToggle();

    var resizer = doc.getElementById('resizer');
    function setWidth(px, save) {
      var max = Math.max(200, Math.min(900, window.innerWidth - 360));
      px = Math.round(Math.max(200, Math.min(max, px)));
      root.style.setProperty('--side-w', px + 'px');
      if (save) store(WIDTH_KEY, String(px));
    }
    if (resizer) {
      var sidebar = doc.getElementById('sidebar');
      resizer.addEventListener('pointerdown', function (ev) {
        if (narrow.matches || ev.button !== 0) return;
        ev.preventDefault();
        var startX = ev.clientX;
        var startW = sidebar.getBoundingClientRect().width;
        var pending = 0;
        resizer.setPointerCapture(ev.pointerId);
        root.classList.add('resizing');
        function move(e) {
          cancelAnimationFrame(pending);
          pending = requestAnimationFrame(function () { setWidth(startW + e.clientX - startX, false); });
        }
        function up(e) {
          cancelAnimationFrame(pending);
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
        var step = ev.key === 'ArrowLeft' ? -24 : ev.key === 'ArrowRight' ? 24 : 0;
        if (!step) return;
        ev.preventDefault();
        setWidth(sidebar.getBoundingClientRect().width + step, true);
      });
    }

    // ---- theme -----------------------------------------------------------

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

    // ---- keyboard ----------------------------------------------------------

    // toggleAll opens every block of a kind on the path, or closes them
    // all when none is closed; the kind's button says which.
    var TOGGLES = { thinking: 'details.thinking', output: 'details.more, .tool details:not(.thinking)' };
    function toggleAll(kind) {
      var selector = TOGGLES[kind];
      var list = doc.querySelectorAll(selector);
      var anyClosed = false;
      for (var j = 0; j < list.length && !anyClosed; j++) anyClosed = !list[j].open;
      if (anyClosed) readyPath();
      list = doc.querySelectorAll(selector);
      for (j = 0; j < list.length; j++) {
        if (anyClosed) materialize(list[j], LAZY_FOLD);
        if (list[j].open !== anyClosed) list[j].open = anyClosed;
      }
      var button = doc.querySelector('[data-toggle-all="' + kind + '"]');
      if (button) {
        button.setAttribute('aria-pressed', String(anyClosed));
        button.textContent = (anyClosed ? 'Hide' : 'Show') + ' all ' + (kind === 'thinking' ? 'thinking' : 'tool output');
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
        if (page.clearSearch && page.clearSearch()) return;
        if (typing) t.blur();
        if (narrow.matches && root.classList.contains('side-open')) {
          closeNarrow();
          syncToggle();
          return;
        }
        reset();
        return;
      }
      if (typing) return;
      if (ev.key === '/') {
        ev.preventDefault();
        if (narrow.matches) { root.classList.add('side-open'); syncToggle(); }
        var searchEl = doc.getElementById('tree-search');
        if (searchEl) searchEl.focus();
      } else if (ev.key === 't') {
        toggleAll('thinking');
      } else if (ev.key === 'o') {
        toggleAll('output');
      }
    });

    // ---- print: what is open on screen ----------------------------------------

    // readyPath makes every entry on the path DOM at once: for printing,
    // and before opening every block.
    function readyPath() {
      for (var j = 0; j < pathList.length; j++) ready(entryEls[pathList[j]]);
    }

    // A printout shows the path as the screen does: folded outputs as
    // their first lines and "N more lines", thinking closed unless opened.
    // Cards short enough to fit on a page are kept whole (.keep); longer
    // ones break where they must, so no page is left nearly empty.
    // Heights are measured with every entry drawn (.measuring): an entry
    // content-visibility skips is as tall as its estimate, so a long one
    // out of view would be kept whole, pushed to a new page and broken
    // there anyway, leaving the page before it nearly empty.
    var KEEP_PX = 480;
    var kept = [];
    window.addEventListener('beforeprint', function () {
      flushChanges();
      readyPath();
      var root = doc.documentElement;
      root.classList.add('measuring');
      var list = doc.querySelectorAll('#entries > article:not([hidden]), #entries > article:not([hidden]) .tool');
      for (var j = 0; j < list.length; j++) {
        if (list[j].getBoundingClientRect().height < KEEP_PX) kept.push(list[j]);
      }
      root.classList.remove('measuring');
      for (j = 0; j < kept.length; j++) kept[j].classList.add('keep');
    });
    window.addEventListener('afterprint', function () {
      for (var j = 0; j < kept.length; j++) kept[j].classList.remove('keep');
      kept = [];
    });

    // ---- deep links and first view ------------------------------------------

    // A link names an entry by its id, or by its element id: both are
    // taken, the bare id first.
    function hashIndex() {
      var h = location.hash.slice(1);
      if (!h) return -1;
      try { h = decodeURIComponent(h); } catch (e) { /* keep it raw */ }
      var j = pos.get(h);
      if (j === undefined && h.lastIndexOf(ENTRY, 0) === 0) j = pos.get(h.slice(ENTRY.length));
      return j === undefined ? -1 : j;
    }

    window.addEventListener('hashchange', function () {
      var j = hashIndex();
      if (j >= 0) open(j, { hash: false, flash: true });
    });

    // ---- parts: the tree (tree.js) and its search (fulltext.js) --------------

    // What the other scripts of the page work with. They are joined
    // before this one (see page.Options and piexport.LoadInline) and wait
    // in window.piexportParts for it.
    var page = {
      n: n, ids: ids, parents: parents, kinds: kinds, labeled: labeled, pos: pos,
      rows: nodeEls, entries: entryEls, tree: treeEl,
      open: open, select: select, onSelect: onSelect, closeNarrow: closeNarrow, reveal: revealNode,
      selected: function () { return selected; },
      onMaterialize: onMaterialize, copyText: copyText,
      ownerOf: ownerOf, ready: ready, readyFolds: function (el) { materialize(el, ':scope noscript.lazy'); },
      // set by the parts: clearSearch() clears the search, if any, and
      // says whether it did.
      clearSearch: null
    };
    var parts = window.piexportParts || [];
    for (i = 0; i < parts.length; i++) parts[i](page);

    // The tree, its search and its filters work from here on (pagetime's
    // interactive_ms, bench/README.md).
    if (window.performance && performance.mark) performance.mark('piexport:interactive');
    for (i = 0; i < pathList.length; i++) later(entryEls[pathList[i]]);
    var target = hashIndex();
    showPath(viewEnd, viewEnd);
    if (target >= 0) {
      open(target, { hash: false, flash: true });
    } else {
      select(viewEnd);
      revealNode(viewEnd);
    }
  }

  // formatTokens and formatCost mirror humanize.Tokens and Cost, integer rounding
  // included, so a figure reads the same before and after the script runs.
  function formatTokens(n) {
    n = Math.round(n);
    if (n < 1000) return String(n);
    var t = Math.floor((n * 10 + 500) / 1000);
    if (t < 100) return tenths(t) + 'k';
    var k = Math.floor((n + 500) / 1000);
    if (k < 1000) return k + 'k';
    t = Math.floor((n * 10 + 500000) / 1000000);
    if (t < 100) return tenths(t) + 'M';
    var m = Math.floor((n + 500000) / 1000000);
    if (m < 1000) return m + 'M';
    t = Math.floor((n * 10 + 500000000) / 1000000000);
    if (t < 100) return tenths(t) + 'B';
    return Math.floor((n + 500000000) / 1000000000) + 'B';
  }
  function tenths(t) {
    return Math.floor(t / 10) + '.' + (t % 10);
  }
  function formatCost(c) {
    if (!(c > 0)) return '$0';
    // From a trillion dollars, cents no longer fit: three figures and an
    // exponent, as humanize.Cost writes them.
    if (c >= 1e12) return '$' + Math.min(c, Number.MAX_VALUE).toExponential(2);
    var d = c >= 1 ? 2 : 4;
    var scale = Math.pow(10, d);
    var v = Math.floor(c * scale + 0.5);
    var frac = String(v % scale);
    while (frac.length < d) frac = '0' + frac;
    return '$' + Math.floor(v / scale) + '.' + frac;
  }
})();
