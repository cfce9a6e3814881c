// @ts-check
// Page: the session page's script. Each part of the page is a module of
// its own file, with a contract of its own (see each file), and can be
// torn down (dispose); SessionPage, here, joins them into the page a
// reader uses: the path in view, any other path chosen in the tree, deep
// links, search, the keyboard, themes and printing.
//
//   store.js      where each article is, and its HTML
//   pathview.js   the path in view, a virtual list of articles
//   treeview.js   the tree of every entry, a virtual list of rows
//   treelayout.js its rows' branch lines and places, as session.Layout has them
//   treesearch.js the full text of the entries, searched
//   searchui.js   the search box, the filters and the status line
//   marks.js      the words of a search marked in an entry
//   articles.js   what an article needs once made: folds, times, modes, sub-agents
//   code.js       Copy buttons on code; the session file for download
//   pathfacts.js  the header's tokens and the edit badges of the path in view
//   deeplinks.js  the address: the entry or range it names, ?hl=, in-page links
//   clipboard.js  copying, and the links that copy an entry's address
//   sidebar.js    the sidebar: shown, hidden, slid over, resized
//   keys.js       the keyboard shortcuts
//   printing.js   the whole path for a printout
//   embed.js      a page inside another tells it its height
//   prefs.js      the reader's stored choices, and the theme (shared with the index)
//   times.js      times in the reader's zone (shared with the index)
//   figures.js, fold.js  copies of Go's figures and of the index's words
//
// How they fit: a module takes the elements it works on and hooks (plain
// functions) for what is not its business, and calls no other module
// but the few it is handed; SessionPage makes them, answers their hooks
// with its navigation (open, show, reset, setPath) and disposes them
// all. The address is DeepLinks' (read it, write it, follow it); what is
// on screen is PathView's and TreeView's; the index's values come from
// Go (PageIndex, PageConfig), never from a copy here.
//
// The HTML already holds everything (see the package doc of page/): the
// path in view reads without this script. The script starts as soon as the
// index has been read (piexportPage.arrived after it), long before the
// rest of the page, and is told of each block of entries as it arrives.

/**
 * @typedef {object} PageConfig what the script is told of how the page is
 * written (page/view.go: scriptConfig), rather than keeping a copy
 * @property {string} entryPrefix starts an entry's element id
 * @property {number} rowBlock previews in a block of the tree's rows
 * @property {string} foldStart encloses an output's folded lines, with foldEnd
 * @property {string} foldEnd
 * @property {string} groupType the type of a group's early copy
 * @property {string} toolCard starts a tool's card
 * @property {string} toolOutput starts a card's output
 * @property {string[]} highlight the classes of highlighted code's runs, by letter (render.HighlightClasses)
 */

/**
 * @typedef {object} PageIndex the page's index (page/view.go: pageIndex):
 * per entry, in tree order, what the tree and the path need
 * @property {string[]} ids
 * @property {number[]} parents the parent's index, -1 for a root
 * @property {number[]} kinds indexes of kindNames
 * @property {string[]} kindNames
 * @property {number[]} roles indexes of roleNames
 * @property {string[]} roleNames
 * @property {Record<number, string>} labels
 * @property {number[]} absorbed tool results shown in their call's card
 * @property {number[]} lines an estimate of each article's height, in lines
 * @property {Record<string, number[]>} edits the context edits aimed at an entry
 * @property {number} leaf
 * @property {number} view the end of the path in view at load
 * @property {Record<string, boolean[]>} filters the kinds each filter by kind shows
 * @property {PageConfig} config
 * @property {(i: number) => string} preview entry i's row's text, from its block of rows (set by SessionPage.read)
 */

/** @typedef {{hash?: boolean, flash?: boolean, range?: EntryRange, then?: (el: HTMLElement | null) => void}} OpenHow range: the address names this range (its first entry is the one opened), which is marked */

/**
 * @typedef {object} MarkedRange the range of entries the address names,
 * marked on the path
 * @property {Set<number>} owners the entries whose articles show it
 * @property {number} first the article it starts in
 * @property {number} last the article it ends in
 */

class SessionPage {
  static LINE_PX = 21; // a line of an article's text (content.css), for estimates

  /**
   * read parses the index in el, and gives it the previews of its rows,
   * which come apart in blocks (script.rows, after the first screen's
   * entries): each is parsed when a row of it is first needed, so that a
   * long session's tree starts without parsing megabytes it does not
   * show.
   * @param {Document} doc @param {Element} el
   * @returns {PageIndex}
   */
  static read(doc, el) {
    const idx = JSON.parse(el.textContent || '{}');
    // Live: the blocks are found as the parser reaches them.
    const els = doc.getElementsByClassName('rows');
    /** @type {string[][]} */
    const blocks = new Array(els.length);
    const size = idx.config.rowBlock;
    /** @param {number} i */
    idx.preview = (i) => {
      const b = Math.floor(i / size);
      if (b < 0 || b >= els.length) return '';
      if (!blocks[b]) {
        try { blocks[b] = JSON.parse(els[b].textContent || '[]'); } catch (e) { blocks[b] = []; }
      }
      return blocks[b][i - b * size] || '';
    };
    return idx;
  }

  /** @param {Document} doc @param {PageIndex} idx */
  constructor(doc, idx) {
    this.doc = doc;
    this.idx = idx;
    this.live = true; // until dispose
    const ids = idx.ids || [];
    const parents = idx.parents || [];
    const n = ids.length;
    this.n = n;
    this.ids = ids;
    this.parents = parents;
    /** @type {Map<string, number>} an entry's index by its id */
    this.pos = new Map();
    for (let i = 0; i < n; i++) this.pos.set(ids[i], i);
    this.absorbed = new Uint8Array(n);
    for (const j of idx.absorbed || []) if (j >= 0 && j < n) this.absorbed[j] = 1;
    // Children come oldest first, so the last one seen is the newest.
    this.lastChild = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const p = parents[i];
      if (p >= 0 && p < n) this.lastChild[p] = i;
    }
    /** @param {unknown} v @param {number} fallback */
    const clamp = (v, fallback) => (typeof v === 'number' && v >= 0 && v < n ? v : fallback);
    this.viewEnd = clamp(idx.view, clamp(idx.leaf, n - 1));
    this.prefix = idx.config.entryPrefix;
    this.onPath = new Uint8Array(n);
    /** @type {number[]} the path in view, root first */
    this.pathList = [];
    this.switching = 0; // counts the switches of path: a later one supersedes
    /** @type {{i: number, words: LinkedWord[]} | null} the entry a link named, and its ?hl= words, until they are marked */
    this.linked = null;
    /** @type {Set<number>} the entries whose chunks are to be unpacked */
    this.fetching = new Set();
    this.fetchTimer = 0;
    this.treeTimer = 0;
    this.readingFrame = 0; // the frame that marks the entry in view in the tree
    this.wrap = 1; // how much more a line wraps than on a wide window
    this.firstScreen = -1; // the entry of the first screen, until it is painted (see painted)
    this.painting = false;
    /** @type {{i: number, show: () => void} | null} the first view, waiting for the block of entry i */
    this.firstView = null;
    this.target = -1; // the entry the address named at load, or -1
    /** @type {MarkedRange | null} */
    this.range = null;
    this.rangeNote = doc.getElementById('range-note');
    this.embedded = doc.documentElement.classList.contains('embed');
    this.rowsReady = false; // the rest of the index has come (indexRest)
    this.treeDone = false;
    this.stop = new AbortController();

    const root = doc.documentElement;
    this.pathEl = /** @type {HTMLElement} */ (doc.getElementById('path'));
    this.topbar = doc.querySelector('.topbar');
    const store = this.store = new Store(n, idx.config.groupType);
    const articles = this.articles = new Articles(doc, this.pathEl, store, idx.config);
    this.facts = new PathFacts(doc, idx, this.pos);
    this.marks = new HitMarks(doc);
    const path = this.path = new PathView(this.pathEl, n, {
      ids,
      store,
      make: (i, html) => articles.make(i, html),
      missing: (i) => { this.missing(i); },
      estimate: (i) => this.estimate(i),
      drawn: (i, el) => {
        this.facts.badges(el, this.onPath);
        this.paintRange(i, el);
        articles.prepare(el);
        this.markLinked(i);
        if (i === this.firstScreen) this.painted();
      },
      offset: () => this.offset(),
    });
    const tree = this.tree = new TreeView(/** @type {HTMLElement} */ (doc.getElementById('tree')), idx, {
      open: (i) => {
        this.sidebar.close();
        this.open(i, { hash: true, flash: true });
      },
      laidOut: () => { if (this.search) this.search.status(); },
    });
    this.sidebar = new Sidebar(doc, {
      opened: () => {
        tree.draw();
        if (tree.selected >= 0) tree.reveal(tree.selected, true);
      },
      toggled: () => { path.schedule(); },
    });
    const search = this.search = new SearchUI(doc, tree, new TreeSearch(store, idx, this.pos), {
      open: (j) => {
        this.sidebar.close();
        this.open(j, { hash: true, flash: true, then: () => { this.showHits(j, this.search.words, false); } });
      },
      cleared: () => { this.marks.clear(); },
    });
    const links = this.links = new DeepLinks(window, this.pathEl, this.pos, this.prefix, (i, how) => {
      // A new address: the words of the link that opened the page no
      // longer apply.
      if (!how.hash) this.linked = null;
      if (i < 0) this.reset(false);
      else this.open(i, { hash: how.hash, flash: !how.range, range: how.range });
    });
    this.copyLinks = new CopyLinks(doc, {
      url: (id) => links.url(id),
      chosen: (id) => {
        const j = this.pos.get(id);
        if (j !== undefined) { tree.select(j); links.set(id); this.setRange(null); }
      },
      range: (a, b) => {
        const from = this.pos.get(a);
        const to = this.pos.get(b);
        if (from === undefined || to === undefined) return null;
        const r = this.setRange({ from, to });
        if (!r) return null;
        const ends = links.ids(r);
        links.setRange(ends);
        return links.rangeURL(ends);
      },
    });
    this.theme = new ThemeToggle(doc.getElementById('theme-toggle'), root);
    this.keys = new Keys(doc, {
      Escape: (ev, typing) => {
        if (search.clear()) return;
        if (typing) typing.blur();
        if (this.sidebar.closeOver()) return;
        this.reset();
      },
      '/': (ev) => {
        ev.preventDefault();
        this.sidebar.open();
        search.focus();
      },
      t: () => { articles.toggleAll('thinking'); },
      o: () => { articles.toggleAll('output'); },
    });
    this.printing = new Printing(window, this.pathEl, {
      entries: () => path.list.length,
      screen: () => ({ from: path.first, to: path.last }),
      at: () => {
        const a = path.anchor();
        return a ? Math.max(0, path.at(a.el)) : 0;
      },
      size: (from, to) => {
        let sum = 0;
        for (let k = from; k < to; k++) sum += store.length(path.list[k]);
        return sum;
      },
      draw: (from, to) => this.drawForPrint(from, to),
      drawNow: (from, to) => { path.drawRange(from, to); },
      after: () => { path.drawInView(); },
    });
    this.embed = this.embedded ? new EmbedHeight(window) : null;
    /** @type {SessionDownload | null} made once the file is whole */
    this.download = null;
    const toLeaf = doc.getElementById('to-leaf');
    if (toLeaf) toLeaf.addEventListener('click', () => { this.sidebar.close(); this.reset(); }, { signal: this.stop.signal });

    // The tree follows the reading: the entry at the top of the window is
    // marked in it, once a frame at most.
    window.addEventListener('scroll', () => { this.followSoon(); }, { passive: true, signal: this.stop.signal });

    store.onArrive((list) => {
      const first = this.firstView;
      if (first && (list === null || store.known(first.i))) {
        this.firstView = null;
        first.show();
      }
      if (list === null) {
        path.refresh(path.drawnEntries());
        search.again();
        return;
      }
      const want = list.filter((i) => path.has(i));
      if (!want.length) return;
      store.fetch(want).then(() => { if (this.live) path.refresh(want); });
    });

    // Times in the reader's zone wait until the first screen is painted
    // (see painted): the browser's first date format costs tens of ms.
    times.hold();
    for (const t of doc.querySelectorAll('.page-head time')) times.localize(t, true);

    // The first view: the entry the address names, else the path in view.
    this.setPath(this.viewEnd);
    const range = links.range();
    const target = range ? range.from : links.target();
    this.target = target;
    this.firstScreen = this.ownerOf(target >= 0 ? target : this.viewEnd);
    if (target >= 0) {
      const words = links.words();
      if (words.length) this.linked = { i: target, words };
      // As the end of the path below, once its article has arrived:
      // a jump among placeholders lands where their estimates put it.
      const go = () => {
        if (!this.live) return;
        this.open(target, { flash: !range, range: range || undefined, then: (el) => { if (el) this.markLinked(this.ownerOf(target)); } });
      };
      if (store.known(this.firstScreen)) go();
      else this.firstView = { i: this.firstScreen, show: go };
    } else {
      // The end of the path comes in the file right after the index:
      // it is drawn once it has arrived, rather than first as
      // placeholders that it then replaces.
      const first = () => {
        if (!this.live) return;
        // A path that fits in a few screens opens at its start; a
        // longer one at its end, where the session left off, unless
        // the page is shown inside another, which is read from the top.
        if (path.short() || this.embedded) path.update();
        else this.show(this.viewEnd);
      };
      if (store.known(this.firstScreen)) first();
      else this.firstView = { i: this.firstScreen, show: first };
    }
  }

  /**
   * treeSoon lays the tree out, in a task of its own, once its rows'
   * previews have come and the first screen has been painted (unless
   * its entries are still to come, far into the file): a long
   * session's first screen does not wait for it. force lays it out as
   * soon as the rows have come.
   * @param {boolean} [force]
   */
  treeSoon(force) {
    if (this.treeTimer || this.treeDone || !this.rowsReady) return;
    if (!force && this.firstScreen >= 0 && this.store.known(this.firstScreen)) return;
    this.treeTimer = setTimeout(() => {
      this.treeTimer = 0;
      this.treeDone = true;
      this.tree.apply();
      this.search.status();
      const at = this.target >= 0 ? this.target : this.viewEnd;
      this.tree.select(at);
      this.tree.reveal(at, true);
      this.followSoon();
      if (window.performance && performance.mark) performance.mark('piexport:interactive');
    }, 0);
  }

  /**
   * indexRest takes the rest of the index, which comes after the first
   * screen's entries: the usage of the entries (el, #session-usage),
   * after the blocks of the tree's rows.
   * @param {Element} el
   */
  indexRest(el) {
    if (this.rowsReady) return;
    this.rowsReady = true;
    /** @type {Record<string, number[]>} */
    let usage = {};
    try { usage = JSON.parse(el.textContent || '{}'); } catch (e) { /* no usage: the header keeps its figures */ }
    this.facts.setUsage(usage);
    this.treeSoon();
  }

  /**
   * painted marks, in the page's performance timeline, when the frame
   * that first shows the article of the first screen has been drawn
   * (piexport:painted): a message posted from an animation frame is
   * handled once that frame is rendered. Benchmarks read the mark.
   */
  painted() {
    if (this.painting) return;
    this.painting = true;
    const done = () => {
      if (!this.live) return;
      this.firstScreen = -1;
      if (window.performance && performance.mark) performance.mark('piexport:painted');
      times.release();
      this.treeSoon();
    };
    if (typeof MessageChannel === 'undefined') {
      setTimeout(done, 0);
      return;
    }
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = done;
      channel.port2.postMessage(0);
    });
  }

  /** loaded is told that the whole file has been read (DOMContentLoaded). */
  loaded() {
    const rest = this.doc.getElementById('session-usage');
    if (rest) this.indexRest(rest);
    times.release();
    this.treeSoon(true);
    this.store.finish();
    if (!this.download) this.download = new SessionDownload(this.doc);
  }

  /** dispose tears the page down: no part of it listens, waits or draws any more. */
  dispose() {
    if (!this.live) return;
    this.live = false;
    this.stop.abort();
    clearTimeout(this.fetchTimer);
    clearTimeout(this.treeTimer);
    cancelAnimationFrame(this.readingFrame);
    for (const part of [this.embed, this.keys, this.printing, this.theme, this.copyLinks, this.links, this.search, this.sidebar, this.tree, this.path, this.marks, this.articles, this.store, this.download]) {
      if (part) part.dispose();
    }
  }

  /**
   * followSoon marks, at the next frame, the entry the reader is reading
   * in the tree (TreeView.follow): the one at the top of the window.
   */
  followSoon() {
    if (this.readingFrame || !this.treeDone) return;
    this.readingFrame = requestAnimationFrame(() => {
      this.readingFrame = 0;
      if (!this.live) return;
      const a = this.path.anchor();
      const i = a ? this.pos.get(a.el.getAttribute('data-entry') || '') : undefined;
      if (i !== undefined) this.tree.follow(i);
    });
  }

  /**
   * drawForPrint draws positions from..to of the path for printing, a
   * slice at a time: each slice's chunks are unpacked just before it is
   * drawn (the store keeps only a few unpacked), and the page answers
   * between slices.
   * @param {number} from @param {number} to
   * @returns {Promise<void>}
   */
  drawForPrint(from, to) {
    const SLICE = 400;
    const path = this.path;
    /** @param {number} k @returns {Promise<void>} */
    const step = (k) => {
      if (!this.live || k >= to) return Promise.resolve();
      const end = Math.min(to, k + SLICE);
      return this.store.fetch(path.list.subarray(k, end)).then(() => {
        if (!this.live) return;
        path.drawRange(from, end);
        return new Promise((done) => { setTimeout(done, 0); }).then(() => step(end));
      });
    };
    return step(from);
  }

  /** offset is the height the sticky bar covers at the top, px. */
  offset() { return this.topbar ? this.topbar.getBoundingClientRect().bottom : 0; }

  /** @param {number} i */
  newestLeaf(i) {
    for (let steps = 0; this.lastChild[i] >= 0 && steps < this.n; steps++) i = this.lastChild[i];
    return i;
  }

  /** @param {number} end */
  pathTo(end) {
    const list = [];
    for (let j = end, steps = 0; j >= 0 && j < this.n && steps <= this.n; j = this.parents[j], steps++) list.push(j);
    return list.reverse();
  }

  /**
   * ownerOf is the entry whose article shows entry i: a tool result shown
   * in its call's card (idx.absorbed) is shown, and scrolled to, in the
   * nearest entry above it that has an article.
   * @param {number} i
   */
  ownerOf(i) {
    for (let steps = 0; i >= 0 && this.absorbed[i] && steps < this.n; steps++) i = this.parents[i];
    return i;
  }

  /**
   * estimate guesses an entry's height before it is drawn. A phone wraps
   * a line of a hundred characters about twice. (The width is read once
   * per path: reading it costs a layout.)
   * @param {number} i
   */
  estimate(i) {
    const lines = (this.idx.lines && this.idx.lines[i]) || 2;
    return Math.round(28 + lines * SessionPage.LINE_PX * this.wrap);
  }

  /**
   * missing gets the articles the path view wants but does not have:
   * chunks are unpacked a few at a time, then the view is refreshed.
   * @param {number} i
   */
  missing(i) {
    if (!this.store.known(i)) return;
    this.fetching.add(i);
    if (this.fetchTimer) return;
    this.fetchTimer = setTimeout(() => {
      this.fetchTimer = 0;
      const list = Array.from(this.fetching);
      this.fetching.clear();
      this.store.fetch(list).then(() => { if (this.live) this.path.refresh(list); });
    }, 0);
  }

  /** setPath shows the path from the root to end. @param {number} end */
  setPath(end) {
    this.pathList = this.pathTo(end);
    this.onPath = new Uint8Array(this.n);
    const arts = [];
    for (const j of this.pathList) {
      this.onPath[j] = 1;
      if (!this.absorbed[j]) arts.push(j);
    }
    this.wrap = (this.pathEl.clientWidth || 800) < 600 ? 1.8 : 1;
    this.path.setPath(Int32Array.from(arts));
    this.tree.setPath(this.onPath);
    this.facts.tokens(this.pathList);
  }

  /** busy marks the path as waiting for entries to be unpacked. @param {boolean} on */
  busy(on) {
    if (on) this.pathEl.setAttribute('aria-busy', 'true');
    else this.pathEl.removeAttribute('aria-busy');
  }

  /**
   * show brings entry i into view: on the path in view if it is there,
   * else on the path through it to the newest leaf below it. then runs
   * once it is drawn. A switch to another path waits for the chunks that
   * hold the entries around its target; a later switch supersedes it.
   * @param {number} i @param {(el: HTMLElement | null) => void} [then]
   */
  show(i, then) {
    const turn = ++this.switching;
    if (!this.onPath[i]) this.setPath(this.newestLeaf(i));
    const path = this.path;
    const owner = this.ownerOf(i);
    const k = path.posOf[owner];
    const near = [];
    for (let j = Math.max(0, k - 6); j < Math.min(path.list.length, k + 12); j++) near.push(path.list[j]);
    this.busy(true);
    this.store.fetch(near).then(() => {
      if (turn !== this.switching || !this.live) return;
      this.busy(false);
      const el = path.jump(owner);
      const target = el && owner !== i ? /** @type {HTMLElement | null} */ (this.doc.getElementById(this.prefix + this.ids[i])) : el;
      if (target && target !== el) {
        // A tool's card taller than the window is scrolled to its
        // output, which is what a link to the result is for.
        const output = target.querySelector(':scope > .tool-output');
        const to = output && target.getBoundingClientRect().height > innerHeight * 0.7 ? output : target;
        window.scrollBy(0, to.getBoundingClientRect().top - this.offset() - 8);
      }
      if (then) then(target || el);
    });
  }

  /**
   * open shows entry i, selects it in the tree, and (how.hash) puts it
   * in the address; how.flash makes it flash once shown.
   * @param {number} i @param {OpenHow} how
   */
  open(i, how) {
    const r = this.setRange(how.range || null);
    if (r) i = r.from; // the range's first entry, in path order
    this.tree.select(i);
    this.tree.reveal(i, true);
    if (how.hash) this.links.set(this.ids[i]);
    this.show(i, (el) => {
      if (el && how.flash) {
        el.classList.remove('flash');
        requestAnimationFrame(() => { el.classList.add('flash'); });
      }
      if (how.then) how.then(el);
    });
  }

  /**
   * reset goes back to the path in view at load, at its end; write puts
   * that in the address (false: the address already says so, Back led
   * here).
   * @param {boolean} [write]
   */
  reset(write) {
    this.setRange(null);
    const end = this.viewEnd;
    this.tree.select(end);
    this.tree.reveal(end, true);
    if (write !== false) this.links.set(null);
    if (!this.onPath[end] || this.pathList[this.pathList.length - 1] !== end) this.setPath(end);
    this.show(end);
  }

  /**
   * setRange marks the entries on the path between r's ends, in either
   * order, as the range the address names, and makes that path the one
   * in view; null unmarks them. It returns the range with its ends in
   * path order, or null when neither end is above the other (nothing is
   * marked then).
   * @param {EntryRange | null} r
   * @returns {EntryRange | null}
   */
  setRange(r) {
    const was = this.range;
    this.range = null;
    let ordered = null;
    if (r) {
      let { from, to } = r;
      let up = this.pathTo(to);
      let k = up.indexOf(from);
      if (k < 0) {
        up = this.pathTo(from);
        k = up.indexOf(to);
        [from, to] = [to, from];
      }
      if (k >= 0) {
        const owners = new Set();
        for (let m = k; m < up.length; m++) owners.add(this.ownerOf(up[m]));
        this.range = { owners, first: this.ownerOf(from), last: this.ownerOf(to) };
        ordered = { from, to };
        if (!this.onPath[to]) this.setPath(this.newestLeaf(to));
        if (this.rangeNote) {
          const at = (/** @type {number} */ j) => this.pathList.indexOf(j) + 1;
          this.rangeNote.textContent = 'The linked entries, ' + at(from) + ' to ' + at(to) + ' of the path, are marked.';
        }
      }
    }
    if (!this.range && this.rangeNote && was) this.rangeNote.textContent = '';
    if (!was && !this.range) return ordered;
    for (const j of this.path.drawnEntries()) {
      const el = this.path.element(j);
      if (el) this.paintRange(j, el);
    }
    return ordered;
  }

  /**
   * paintRange marks entry i's article el as in the range the address
   * names, or not: a band down its side (page.css), and a description
   * a screen reader reads with it.
   * @param {number} i @param {HTMLElement} el
   */
  paintRange(i, el) {
    const r = this.range;
    const on = !!r && r.owners.has(i);
    el.classList.toggle('in-range', on);
    el.classList.toggle('range-start', on && !!r && i === r.first);
    el.classList.toggle('range-end', on && !!r && i === r.last);
    if (on) el.setAttribute('aria-describedby', 'range-note');
    else if (el.getAttribute('aria-describedby') === 'range-note') el.removeAttribute('aria-describedby');
  }

  /**
   * showHits marks words in entry i: the tree search's (parts of words,
   * lowercased), or a link's (linked: whole words folded as the index
   * folds them).
   * @param {number} i @param {string[] | LinkedWord[]} words @param {boolean} linked
   */
  showHits(i, words, linked) {
    this.marks.clear();
    const owner = this.ownerOf(i);
    const article = this.path.element(owner);
    if (!words.length || !article) return;
    this.articles.openFolds(article);
    const scope = (owner !== i && this.doc.getElementById(this.prefix + this.ids[i])) || article;
    this.marks.show(scope, words, linked);
  }

  /**
   * markLinked marks the words a link named (?hl=) once the entry it
   * opened is drawn (which, early in a large page, waits for its block).
   * @param {number} owner the entry drawn
   */
  markLinked(owner) {
    const l = this.linked;
    if (!l || this.ownerOf(l.i) !== owner) return;
    this.linked = null;
    setTimeout(() => { if (this.live) this.showHits(l.i, l.words, true); }, 0);
  }

  /**
   * where is the reader's place in the path: the entry at the top of the
   * window and how far into it; goTo goes back to it. The server's live
   * follow (follow.js) keeps the place across a reload.
   * @returns {{entry: string, into: number} | null}
   */
  where() {
    const a = this.path.anchor();
    if (!a) return null;
    return { entry: a.el.getAttribute('data-entry') || '', into: this.offset() - a.top };
  }

  /** @param {string} id @param {number} into */
  goTo(id, into) {
    const j = this.pos.get(id);
    if (j === undefined) return;
    this.show(j, (el) => { if (el && into) window.scrollBy(0, into); });
  }
}

/**
 * piexportPage is what other scripts call: the page's inline scripts
 * (arrived, after the index and after each block of entries) and the
 * server's follow.js (where, goTo).
 */
var piexportPage = (() => {
  'use strict';

  const doc = document;
  const root = doc.documentElement;
  // Runs before the body is parsed, so the first paint has the right
  // theme and width and shows the controls that need this script.
  prefs.start(root);
  Sidebar.restoreWidth(root);
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';

  /** @type {SessionPage | null} the page once its index has arrived */
  let page = null;
  let ended = false; // disposed: nothing starts again

  /** @param {Element} el */
  function begin(el) {
    page = new SessionPage(doc, SessionPage.read(doc, el));
  }

  doc.addEventListener('DOMContentLoaded', () => {
    if (ended) return;
    if (!page) {
      const el = doc.getElementById('session-index');
      if (!el) return;
      begin(el);
    }
    if (page) page.loaded();
  }, { once: true });

  return {
    /** arrived: what precedes the calling script has been read whole. */
    arrived() {
      if (ended) return;
      let el = doc.currentScript && doc.currentScript.previousElementSibling;
      if (!el) return;
      if (!page) {
        if (el.id === 'session-index') begin(el);
        return;
      }
      if (el.id === 'session-usage') page.indexRest(el);
      else page.store.arrived(el);
    },
    /** where is the reader's place (SessionPage.where). */
    where() { return page ? page.where() : null; },
    /** goTo goes back to a place where gave. @param {string} id @param {number} into */
    goTo(id, into) { if (page) page.goTo(id, into); },
    /** dispose tears the page's script down, for good. */
    dispose() {
      ended = true;
      if (page) page.dispose();
    },
  };
})();
