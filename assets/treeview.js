// @ts-check
// Tree view: the sidebar's tree of every entry, as a virtual list.
//
// Which rows exist is worked out for all of them: the filter, the search
// and folded branch points choose the rows shown; the lines that draw the
// tree's branches are laid out for those rows (treelayout.js); and each
// row's level, set size and position are those a screen reader needs to
// know where it is. Only the rows in view (and a few around) are
// elements, all of one height (page.css: --tree-row), and the elements of
// rows that scroll away are painted again with the rows that come into
// view. The tree keeps the keyboard focus itself and points at the active
// row (aria-activedescendant): arrows, Home, End, Page Up and Down, ← and
// → to fold, Enter to open, and typing a row's first letters (the WAI-ARIA
// tree pattern). Nothing here recurses: trees reach tens of thousands of
// rows.

/**
 * @typedef {object} TreeHooks
 * @property {(i: number) => void} open the reader chose entry i's row
 * @property {() => void} [laidOut] the rows shown have been worked out again
 */

class TreeView {
  static AROUND = 8; // rows drawn beyond the view
  static MAX_RAILS = 16; // levels of lines drawn at most (page.css: .rails .k16)

  /**
   * TreeView draws the tree in el, from the page's index.
   * @param {HTMLElement} el @param {PageIndex} idx @param {TreeHooks} on
   */
  constructor(el, idx, on) {
    this.el = el;
    this.idx = idx;
    this.n = idx.ids.length;
    this.on = on;
    this.filter = 'default';
    // An entry shown though the filter hides it: the one opened (a link
    // to a thinking-and-tool-call message under the default filter), so
    // that the tree can select it. -1 for none.
    this.beyond = -1;
    /** @type {Uint8Array | null} which kinds the filter shows, by kind; null for a filter that goes by something else */
    this.shows = this.kindsShown(this.filter);
    /** @type {Uint8Array | null} the entries a search found; null without one */
    this.hits = null;
    this.matching = 0; // the entries that pass the filter and the search
    this.folded = new Uint8Array(this.n);
    this.anyFolded = false;
    /** @type {Uint8Array} */
    this.onPath = new Uint8Array(this.n);
    this.selected = -1;
    this.current = -1; // the row of the entry the reader is reading (aria-current), as an entry index
    this.active = -1; // the row the keyboard is on, as an entry index
    /** @type {Int32Array} the entries shown, in order */
    this.shown = new Int32Array(0);
    this.rowOf = new Int32Array(this.n).fill(-1);
    this.level = new Int32Array(this.n);
    /** @type {Int32Array} */
    this.forks = new Int32Array(this.n);
    /** @type {TreeLayout | null} */
    this.lay = null;
    /** @type {TreePositions} */
    this.pos = { pos: new Int32Array(0), size: new Int32Array(0), parent: new Int32Array(0) };
    this.rowPx = 0; // a row's height, read from the style sheet when first needed
    this.sizer = document.createElement('div');
    this.sizer.className = 'tree-sizer';
    this.box = document.createElement('div');
    this.box.className = 'tree-rows';
    this.sizer.appendChild(this.box);
    el.textContent = '';
    el.appendChild(this.sizer);
    this.drawnFrom = 0;
    this.drawnTo = 0;
    /** @type {HTMLAnchorElement[]} the row elements, in drawn order */
    this.rowEls = [];
    /** @type {HTMLAnchorElement[]} row elements out of the page, to be painted again */
    this.spare = [];
    this.typed = '';
    this.typedAt = 0;
    this.frame = 0;
    this.stop = new AbortController();
    const signal = this.stop.signal;
    el.addEventListener('scroll', () => { this.schedule(); }, { passive: true, signal });
    window.addEventListener('resize', () => { this.schedule(); }, { signal });
    el.addEventListener('keydown', (ev) => { this.key(ev); }, { signal });
    el.addEventListener('mousedown', (ev) => {
      // The tree keeps the focus; the rows are not focused themselves.
      if (ev.button === 0 && TreeView.rowLink(ev.target)) {
        ev.preventDefault();
        el.focus({ preventScroll: true });
      }
    }, { signal });
    el.addEventListener('click', (ev) => { this.click(ev); }, { signal });
    // A row that gets the focus (a script, a screen reader's cursor) hands
    // it to the tree, and becomes the active row.
    el.addEventListener('focusin', (ev) => {
      const a = TreeView.rowLink(ev.target);
      if (!a) return;
      this.activate(Number(a.getAttribute('data-row')), false);
      el.focus({ preventScroll: true });
    }, { signal });
    el.addEventListener('focus', () => {
      if (this.active < 0 || this.rowOf[this.active] < 0) this.activate(this.selected >= 0 && this.rowOf[this.selected] >= 0 ? this.selected : this.shown[0], false);
    }, { signal });
  }

  /** dispose stops the tree: it no longer answers the keyboard, the pointer or scrolling. */
  dispose() {
    this.stop.abort();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** rowLink is the row an event's target is in, or null. @param {EventTarget | null} t */
  static rowLink(t) {
    return t instanceof Element ? /** @type {HTMLAnchorElement | null} */ (t.closest('a[data-row]')) : null;
  }

  /** @param {number} i */
  kindName(i) { return this.idx.kindNames[this.idx.kinds[i]]; }

  /**
   * kindsShown is which kinds filter shows, from what the page was told
   * (page/kinds.go: kindFilters); null for a filter that goes by
   * something else than the kind.
   * @param {string} filter
   */
  kindsShown(filter) {
    const flags = this.idx.filters && this.idx.filters[filter];
    return flags ? Uint8Array.from(flags, (f) => (f ? 1 : 0)) : null;
  }

  /** passes says whether entry i passes the filter. @param {number} i */
  passes(i) {
    if (this.shows) return this.shows[this.idx.kinds[i]] === 1;
    if (this.filter === 'labeled') return this.idx.labels[i] !== undefined;
    return true;
  }

  /** rowHeight is a row's height, px, as the style sheet draws it. */
  rowHeight() {
    if (!this.rowPx) this.rowPx = parseFloat(getComputedStyle(this.el).getPropertyValue('--tree-row')) || 0;
    return this.rowPx;
  }

  /** apply works out the rows shown, their layout and positions, and draws the ones in view. */
  apply() {
    const n = this.n;
    const vis = new Uint8Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      if ((this.passes(i) || i === this.beyond) && (!this.hits || this.hits[i])) { vis[i] = 1; count++; }
    }
    const lay = treeLayout.layout(n, this.idx.parents, vis);
    this.lay = lay;
    this.forks = lay.forks;
    // The entry shown beyond the filter is not one the filter matches.
    this.matching = this.beyond >= 0 && vis[this.beyond] ? count - 1 : count;
    const shown = new Int32Array(count);
    let m = 0;
    let foldAt = -1; // the depth of the folded branch point being passed
    for (let i = 0; i < n; i++) {
      this.rowOf[i] = -1;
      if (!vis[i]) continue;
      const d = lay.depth[i];
      this.level[i] = d + 1;
      if (foldAt >= 0 && d > foldAt) continue;
      foldAt = -1;
      if (this.folded[i] && lay.forks[i]) foldAt = d;
      this.rowOf[i] = m;
      shown[m++] = i;
    }
    this.shown = shown.subarray(0, m);
    this.pos = treeLayout.positions(this.shown, this.level);
    this.sizer.style.height = m * this.rowHeight() + 'px';
    // Every row drawn is painted again: its element is spare (last
    // first, as draw takes them from the end). It leaves the page
    // meanwhile: rows below the new end would keep the tree as tall as
    // it was, and its scroll position where the rows no longer are.
    for (let j = this.rowEls.length - 1; j >= 0; j--) {
      this.rowEls[j].remove();
      this.spare.push(this.rowEls[j]);
    }
    this.rowEls = [];
    this.drawnFrom = this.drawnTo = -1; // none: draw draws, whatever is in view

    if (this.active >= 0 && this.rowOf[this.active] < 0) this.active = -1;
    this.draw();
    if (this.on.laidOut) this.on.laidOut();
  }

  /** schedule draws the rows in view at the next frame. */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
  }

  /** draw makes the rows in view, keeping those that were and painting the elements of the others again. */
  draw() {
    const m = this.shown.length;
    const row = this.rowHeight();
    const height = this.el.clientHeight || innerHeight;
    const from = Math.max(0, Math.floor(this.el.scrollTop / row) - TreeView.AROUND);
    const to = Math.min(m, Math.ceil((this.el.scrollTop + height) / row) + TreeView.AROUND);
    if (from === this.drawnFrom && to === this.drawnTo) return;
    const old = this.rowEls;
    const oldFrom = this.drawnFrom;
    const oldTo = this.drawnTo;
    // The rows that leave the view give their elements to those that come.
    for (let r = oldFrom; r < oldTo; r++) if (r < from || r >= to) this.spare.push(old[r - oldFrom]);
    /** @type {HTMLAnchorElement[]} */
    const els = [];
    for (let r = from; r < to; r++) {
      if (r >= oldFrom && r < oldTo) els.push(old[r - oldFrom]);
      else els.push(this.paint(this.spare.pop() || document.createElement('a'), r));
    }
    const box = this.box;
    for (let j = 0; j < els.length; j++) {
      if (box.children[j] !== els[j]) box.insertBefore(els[j], box.children[j] || null);
    }
    // Spare elements still in the box come after the rows drawn.
    while (box.children.length > els.length) /** @type {Element} */ (box.lastElementChild).remove();
    // A few are kept for the next scroll; the rest go.
    if (this.spare.length > els.length) this.spare.length = els.length;
    box.style.transform = 'translateY(' + from * row + 'px)';
    this.rowEls = els;
    this.drawnFrom = from;
    this.drawnTo = to;
  }

  /**
   * paint makes a show row r: every attribute and all its content are
   * set again, as a is the element of another row or a new one.
   * @param {HTMLAnchorElement} a @param {number} r
   */
  paint(a, r) {
    const i = this.shown[r];
    const idx = this.idx;
    const lay = /** @type {TreeLayout} */ (this.lay);
    a.textContent = '';
    a.removeAttribute('aria-selected');
    a.removeAttribute('aria-expanded');
    a.removeAttribute('aria-current');
    a.href = '#' + idx.config.entryPrefix + encodeURIComponent(idx.ids[i]);
    a.id = 'row-' + i;
    a.setAttribute('data-row', String(i));
    a.setAttribute('data-tree-node', idx.ids[i]);
    a.setAttribute('role', 'treeitem');
    a.setAttribute('tabindex', '-1');
    a.setAttribute('aria-level', String(this.level[i]));
    a.setAttribute('aria-setsize', String(this.pos.size[r]));
    a.setAttribute('aria-posinset', String(this.pos.pos[r]));
    let cls = 'k-' + this.kindName(i);
    if (this.onPath[i]) cls += ' on';
    if (i === idx.leaf) cls += ' leaf';
    if (i === this.selected) { cls += ' sel'; a.setAttribute('aria-selected', 'true'); }
    if (i === this.beyond) cls += ' beyond';
    if (i === this.current) { cls += ' here'; a.setAttribute('aria-current', 'location'); }
    if (i === this.active) cls += ' active';
    a.className = cls;
    const rails = treeLayout.rails(lay, i, TreeView.MAX_RAILS);
    if (rails.length) {
      const span = document.createElement('span');
      span.className = 'rails';
      span.setAttribute('aria-hidden', 'true');
      // Fixed markup made here, nothing from the session.
      span.innerHTML = treeLayout.railsHTML(rails, TreeView.MAX_RAILS);
      a.appendChild(span);
    }
    // The marks are drawn for the eye; the row's name (aria-label, see
    // name) says what they mean, in words.
    if (this.forks[i]) {
      a.setAttribute('aria-expanded', this.folded[i] ? 'false' : 'true');
      const fork = document.createElement('span');
      fork.className = 'fork';
      fork.title = this.forks[i] + ' branches';
      fork.setAttribute('aria-hidden', 'true');
      fork.textContent = String(this.forks[i]);
      a.appendChild(fork);
      a.appendChild(document.createTextNode(' '));
    }
    if (i === idx.leaf) {
      const mark = document.createElement('span');
      mark.className = 'leaf-mark';
      mark.title = 'The session\u2019s leaf';
      mark.setAttribute('aria-hidden', 'true');
      mark.textContent = '●';
      a.appendChild(mark);
      a.appendChild(document.createTextNode(' '));
    }
    const label = idx.labels[i];
    if (label !== undefined) {
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = label;
      a.appendChild(tag);
      a.appendChild(document.createTextNode(' '));
    }
    const role = idx.roleNames[idx.roles[i]];
    if (role) {
      const rs = document.createElement('span');
      rs.className = 'role';
      rs.textContent = role;
      a.appendChild(rs);
      a.appendChild(document.createTextNode(' '));
    }
    a.appendChild(document.createTextNode(idx.preview(i)));
    a.setAttribute('aria-label', this.name(i));
    return a;
  }

  /**
   * name is what a screen reader says of entry i's row: its role and
   * text first, then what the marks drawn around them mean ("user: Add a
   * /health endpoint…, 2 branches, label mux-version"). Its level, place
   * and whether it is folded are the row's ARIA attributes.
   * @param {number} i
   */
  name(i) {
    const idx = this.idx;
    const role = idx.roleNames[idx.roles[i]];
    let name = (role ? role + ' ' : '') + idx.preview(i);
    if (this.forks[i]) name += ', ' + this.forks[i] + ' branches';
    const label = idx.labels[i];
    if (label !== undefined) name += ', label ' + label;
    if (i === idx.leaf) name += ', the session\u2019s leaf';
    if (i === this.beyond) name += ', shown though the filter hides it';
    return name;
  }

  /** rowElement is entry i's row element, if it is drawn. @param {number} i */
  rowElement(i) {
    const r = this.rowOf[i];
    if (r < this.drawnFrom || r >= this.drawnTo) return null;
    return this.rowEls[r - this.drawnFrom];
  }

  /**
   * refreshRow draws entry i's row again, if it is drawn, in the same
   * element: a row being clicked must not be replaced under the pointer.
   * @param {number} i
   */
  refreshRow(i) {
    const el = this.rowElement(i);
    if (el) this.paint(el, this.rowOf[i]);
  }

  /** reveal scrolls the tree so that entry i's row is in view. @param {number} i @param {boolean} center */
  reveal(i, center) {
    const r = this.rowOf[i];
    if (r < 0) return;
    const row = this.rowHeight();
    // The rows start below the tree's padding.
    const top = r * row + this.sizer.offsetTop;
    const height = this.el.clientHeight;
    if (top < this.el.scrollTop || top + row > this.el.scrollTop + height) {
      this.el.scrollTop = center ? top - height / 3 : top < this.el.scrollTop ? top : top + row - height;
    }
    this.draw();
  }

  /**
   * follow marks the row of entry i as the one the reader is reading
   * (aria-current="location"), and scrolls it into the tree's view: the
   * tree follows the conversation. An entry without a row of its own (the
   * filter hides it, or a folded branch) is marked on the nearest row
   * above it. The tree is scrolled only when the row comes to be marked,
   * so a reader who scrolls the tree meanwhile keeps the place.
   * @param {number} i
   */
  follow(i) {
    for (let steps = 0; i >= 0 && this.rowOf[i] < 0 && steps < this.n; steps++) i = this.idx.parents[i];
    if (i === this.current) return;
    const was = this.current;
    this.current = i;
    if (was >= 0) this.refreshRow(was);
    if (i < 0) return;
    this.refreshRow(i);
    // A row far from the tree's view (the reader jumped) comes to a third
    // of it, with the rows around it; a near one just into it.
    const y = this.rowOf[i] * this.rowHeight();
    const h = this.el.clientHeight;
    this.reveal(i, y < this.el.scrollTop - h || y > this.el.scrollTop + 2 * h);
  }

  /** setPath marks the rows of the path in view. @param {Uint8Array} onPath */
  setPath(onPath) {
    const old = this.onPath;
    this.onPath = onPath;
    for (let j = 0; j < this.rowEls.length; j++) {
      const i = this.shown[this.drawnFrom + j];
      if (old[i] !== onPath[i]) this.rowEls[j].classList.toggle('on', onPath[i] === 1);
    }
  }

  /**
   * select marks entry i as the one opened, unfolding the branches it is
   * in; -1 marks none.
   * @param {number} i
   */
  select(i) {
    const was = this.selected;
    this.selected = i;
    // An entry the filter hides is shown while it is the one selected.
    const beyond = i >= 0 && !this.passes(i) && (!this.hits || this.hits[i]) ? i : -1;
    let changed = beyond !== this.beyond;
    this.beyond = beyond;
    if (i >= 0 && this.rowOf[i] < 0 && (!this.hits || this.hits[i])) {
      for (let p = this.idx.parents[i], steps = 0; p >= 0 && steps < this.n; p = this.idx.parents[p], steps++) {
        if (this.folded[p]) { this.folded[p] = 0; changed = true; }
      }
    }
    // Before the tree is first laid out, apply will find it so.
    if (changed && this.lay) this.apply();
    if (was >= 0) this.refreshRow(was);
    if (i >= 0) this.refreshRow(i);
    // The keyboard goes on from the row opened.
    if (i >= 0 && this.rowOf[i] >= 0) this.activate(i, false);
  }

  /** setFilter shows the rows filter passes: a name of a filter button (data-filter). @param {string} filter */
  setFilter(filter) {
    this.filter = filter;
    this.shows = this.kindsShown(filter);
    this.beyond = -1;
    this.apply();
  }

  /** setHits shows only the entries a search found (hits[i] is 1), or, with null, all. @param {Uint8Array | null} hits */
  setHits(hits) {
    this.hits = hits;
    this.apply();
  }

  /** fold folds entry i's branches (on) or unfolds them. @param {number} i @param {boolean} on */
  fold(i, on) {
    if (!this.forks[i] || (this.folded[i] === 1) === on) return;
    this.folded[i] = on ? 1 : 0;
    if (on) this.anyFolded = true;
    this.apply();
    this.reveal(i, false);
  }

  // ---- the keyboard -------------------------------------------------------

  /** activate makes entry i the row the keyboard is on. @param {number} i @param {boolean} [scroll] */
  activate(i, scroll) {
    if (i === undefined || i < 0 || this.rowOf[i] < 0) return;
    const was = this.active;
    this.active = i;
    if (scroll !== false) this.reveal(i, false);
    if (was >= 0) this.refreshRow(was);
    this.refreshRow(i);
    this.el.setAttribute('aria-activedescendant', 'row-' + i);
  }

  /** @param {number} r */
  rowAt(r) {
    r = Math.max(0, Math.min(this.shown.length - 1, r));
    return this.shown.length ? this.shown[r] : -1;
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const m = this.shown.length;
    if (!m) return;
    const i = this.active >= 0 && this.rowOf[this.active] >= 0 ? this.active : this.rowAt(0);
    const r = this.rowOf[i];
    const page = Math.max(1, Math.floor(this.el.clientHeight / this.rowHeight()) - 1);
    let to = -1;
    switch (ev.key) {
      case 'ArrowDown': to = this.rowAt(r + 1); break;
      case 'ArrowUp': to = this.rowAt(r - 1); break;
      case 'PageDown': to = this.rowAt(r + page); break;
      case 'PageUp': to = this.rowAt(r - page); break;
      case 'Home': to = this.rowAt(0); break;
      case 'End': to = this.rowAt(m - 1); break;
      case 'ArrowRight':
        if (this.forks[i] && this.folded[i]) this.fold(i, false);
        else if (this.forks[i]) to = this.rowAt(r + 1);
        break;
      case 'ArrowLeft':
        if (this.forks[i] && !this.folded[i]) this.fold(i, true);
        else if (this.pos.parent[r] >= 0) to = this.shown[this.pos.parent[r]];
        break;
      case 'Enter':
      case ' ':
        this.on.open(i);
        break;
      default:
        // '/' is the page's key for the search box.
        if (ev.key.length === 1 && ev.key !== ' ' && ev.key !== '/' && this.typeAhead(ev.key, r)) break;
        return;
    }
    ev.preventDefault();
    if (to >= 0) this.activate(to);
  }

  /** rowText is what type-ahead matches: the row's label, role and preview. @param {number} i */
  rowText(i) {
    const idx = this.idx;
    const label = idx.labels[i];
    return ((label !== undefined ? label + ' ' : '') + idx.roleNames[idx.roles[i]] + ' ' + idx.preview(i)).trim().toLowerCase();
  }

  /**
   * typeAhead moves to the next row whose text starts with what was
   * typed in the last moment.
   * @param {string} c @param {number} r
   */
  typeAhead(c, r) {
    const now = Date.now();
    if (now - this.typedAt > 700) this.typed = '';
    this.typedAt = now;
    this.typed += c.toLowerCase();
    const m = this.shown.length;
    // A first letter looks from the next row on; more letters from this one.
    const start = this.typed.length === 1 ? r + 1 : r;
    for (let k = 0; k < m; k++) {
      const i = this.shown[(start + k) % m];
      const text = this.rowText(i);
      const role = this.idx.roleNames[this.idx.roles[i]];
      const rest = role && text.lastIndexOf(role.toLowerCase(), 0) === 0 ? text.slice(role.length).trim() : '';
      if (text.lastIndexOf(this.typed, 0) === 0 || rest.lastIndexOf(this.typed, 0) === 0) {
        this.activate(i);
        return true;
      }
    }
    return true;
  }

  /** @param {MouseEvent} ev */
  click(ev) {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = TreeView.rowLink(ev.target);
    if (!a) return;
    ev.preventDefault();
    const i = Number(a.getAttribute('data-row'));
    this.activate(i, false);
    if (/** @type {Element} */ (ev.target).closest('.fork')) {
      this.fold(i, !this.folded[i]);
      return;
    }
    this.on.open(i);
  }
}
