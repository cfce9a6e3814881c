// Tree view: the sidebar's tree of every entry, as a virtual list.
//
// Which rows exist is worked out for all of them: the filter, the search
// and folded branch points choose the rows shown; the lines that draw the
// tree's branches are laid out for those rows as session.Layout lays them
// out (page/js_test.go holds the two to the same cases); and each row's
// level, set size and position are those a screen reader needs to know
// where it is. Only the rows in view (and a few around) are elements, all
// of one height. The tree keeps the keyboard focus itself and points at
// the active row (aria-activedescendant): arrows, Home, End, Page Up and
// Down, ← and → to fold, Enter to open, and typing a row's first letters
// (the WAI-ARIA tree pattern). Nothing here recurses: trees reach tens of
// thousands of rows.
(function (lib) {
  'use strict';

  var ROW = 22; // px, as page.css draws a row
  var AROUND = 8; // rows drawn beyond the view
  var MAX_RAILS = 16; // levels of lines drawn at most

  // layout lays out the rows vis marks as session.Layout does. A row
  // draws rails left of its text, one letter per level: ' ' none, 'v' a
  // line going on, 't' ├ (it starts a branch), 'l' └ (it starts the last
  // one). Rather than a string per row (rows times depth, on a session of
  // tens of thousands of rows), it keeps per row what it adds: its own
  // letter (row: 0 none, 1 't', 2 'l'), the letter its branch adds to the
  // rows below it (lane: 0 none, 1 ' ', 2 'v'), the nearest row that is
  // its row's parent (up, n for none) and the nearest one whose lane adds
  // a letter (laneUp): rails(i) then walks up only as many rows as it has
  // letters. depth is the number of letters, forks the branches of a
  // branch point.
  function layout(n, parents, vis) {
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
    var row = new Uint8Array(n);
    var lane = new Uint8Array(n + 1);
    var laneUp = new Int32Array(n + 1);
    var laneDepth = new Int32Array(n + 1);
    var depth = new Int32Array(n);
    var forks = new Int32Array(n);
    laneUp[n] = n;
    for (i = 0; i < n; i++) {
      a = up[i];
      if (vis[i] && kids[a] > 1) {
        row[i] = last[a] === i ? 2 : 1;
        lane[i] = last[a] === i ? 1 : 2;
      }
      depth[i] = laneDepth[a] + (row[i] ? 1 : 0);
      laneDepth[i] = laneDepth[a] + (lane[i] ? 1 : 0);
      laneUp[i] = lane[i] ? i : laneUp[a];
      if (vis[i] && kids[i] > 1) forks[i] = kids[i];
    }
    return { n: n, up: up, row: row, lane: lane, laneUp: laneUp, depth: depth, forks: forks };
  }
  lib.treeLayout = layout;

  // rails spells row i's rails in lay: the letters the lanes of the rows
  // above it add, then its own; the last max of them (all when max is 0).
  var ROW_LETTER = ['', 't', 'l'];
  var LANE_LETTER = ['', ' ', 'v'];
  function rails(lay, i, max) {
    var out = ROW_LETTER[lay.row[i]];
    for (var b = lay.laneUp[lay.up[i]]; b !== lay.n && (!max || out.length < max); b = lay.laneUp[lay.up[b]]) {
      out = LANE_LETTER[lay.lane[b]] + out;
    }
    return out;
  }
  lib.treeRails = rails;

  // railsHTML draws rails: a run of levels without a line, or with one
  // going on, is one element, so a deep tree costs a few elements a row.
  function railsHTML(rails) {
    rails = rails.slice(-MAX_RAILS);
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

  // positions works out, for the rows shown (in order, with their
  // levels), each one's position among its siblings and their number:
  // a row's parent is the nearest row above it one level up.
  function positions(shown, level) {
    var m = shown.length;
    var pos = new Int32Array(m);
    var size = new Int32Array(m);
    var parentRow = new Int32Array(m);
    var stack = []; // rows of the branch points above, by level
    var counts = new Int32Array(m + 1); // children so far, by parent row + 1
    for (var r = 0; r < m; r++) {
      var l = level[shown[r]];
      while (stack.length && level[shown[stack[stack.length - 1]]] >= l) stack.pop();
      var parent = stack.length ? stack[stack.length - 1] : -1;
      parentRow[r] = parent;
      pos[r] = ++counts[parent + 1];
      stack.push(r);
    }
    for (r = 0; r < m; r++) size[r] = counts[parentRow[r] + 1];
    return { pos: pos, size: size, parent: parentRow };
  }
  lib.treePositions = positions;

  // TreeView draws the tree in el, from the page's index (idx) and
  // with hooks (on): open(i) when a row is chosen.
  function TreeView(el, idx, on) {
    this.el = el;
    this.idx = idx;
    this.n = idx.ids.length;
    this.on = on;
    this.filter = 'default';
    this.hits = null; // the entries a search found; null without one
    this.folded = new Uint8Array(this.n);
    this.anyFolded = false;
    this.onPath = new Uint8Array(this.n);
    this.selected = -1;
    this.active = -1; // the row the keyboard is on, as an entry index
    this.shown = new Int32Array(0); // the entries shown, in order
    this.rowOf = new Int32Array(this.n).fill(-1);
    this.level = new Int32Array(this.n);
    this.forks = new Int32Array(this.n);
    this.lay = null;
    this.sizer = document.createElement('div');
    this.sizer.className = 'tree-sizer';
    this.box = document.createElement('div');
    this.box.className = 'tree-rows';
    this.sizer.appendChild(this.box);
    el.textContent = '';
    el.appendChild(this.sizer);
    this.drawnFrom = 0;
    this.drawnTo = 0;
    this.rowEls = []; // the row elements, in drawn order
    this.typed = '';
    this.typedAt = 0;
    this.pending = false;
    var self = this;
    el.addEventListener('scroll', function () { self.schedule(); }, { passive: true });
    window.addEventListener('resize', function () { self.schedule(); });
    el.addEventListener('keydown', function (ev) { self.key(ev); });
    el.addEventListener('mousedown', function (ev) {
      // The tree keeps the focus; the rows are not focused themselves.
      if (ev.button === 0 && ev.target.closest('a[data-row]')) {
        ev.preventDefault();
        el.focus({ preventScroll: true });
      }
    });
    el.addEventListener('click', function (ev) { self.click(ev); });
    // A row that gets the focus (a script, a screen reader's cursor) hands
    // it to the tree, and becomes the active row.
    el.addEventListener('focusin', function (ev) {
      var a = ev.target.closest ? ev.target.closest('a[data-row]') : null;
      if (!a) return;
      self.activate(Number(a.getAttribute('data-row')), false);
      el.focus({ preventScroll: true });
    });
    el.addEventListener('focus', function () {
      if (self.active < 0 || self.rowOf[self.active] < 0) self.activate(self.selected >= 0 && self.rowOf[self.selected] >= 0 ? self.selected : self.shown[0], false);
    });
    this.kindName = function (i) { return idx.kindNames[idx.kinds[i]]; };
  }

  // Settings, context edits and usage entries are bookkeeping: pi's own
  // tree hides them but under "All".
  function bookkeeping(kind) {
    return kind === 'settings' || kind === 'context-edit' || kind === 'usage';
  }

  // passes says whether entry i passes the filter (page/kinds.go:
  // shownByDefault).
  TreeView.prototype.passes = function (i) {
    var kind = this.kindName(i);
    switch (this.filter) {
      case 'default': return !bookkeeping(kind) && kind !== 'assistant-tools';
      case 'no-tools': return !bookkeeping(kind) && kind !== 'assistant-tools' && kind !== 'tool';
      case 'user': return kind === 'user';
      case 'labeled': return this.idx.labels[i] !== undefined;
      default: return true;
    }
  };

  // apply works out the rows shown, their layout and positions, and
  // draws the ones in view.
  TreeView.prototype.apply = function () {
    var n = this.n;
    var vis = new Uint8Array(n);
    var count = 0;
    for (var i = 0; i < n; i++) {
      if (this.passes(i) && (!this.hits || this.hits[i])) { vis[i] = 1; count++; }
    }
    var lay = layout(n, this.idx.parents, vis);
    this.lay = lay;
    this.forks = lay.forks;
    this.matching = count;
    var shown = new Int32Array(count);
    var m = 0;
    var foldAt = -1; // the depth of the folded branch point being passed
    for (i = 0; i < n; i++) {
      this.rowOf[i] = -1;
      if (!vis[i]) continue;
      var d = lay.depth[i];
      this.level[i] = d + 1;
      if (foldAt >= 0 && d > foldAt) continue;
      foldAt = -1;
      if (this.folded[i] && lay.forks[i]) foldAt = d;
      this.rowOf[i] = m;
      shown[m++] = i;
    }
    this.shown = shown.subarray(0, m);
    this.pos = positions(this.shown, this.level);
    this.sizer.style.height = m * ROW + 'px';
    this.drawnFrom = this.drawnTo = 0;
    this.box.textContent = '';
    this.rowEls = [];
    if (this.active >= 0 && this.rowOf[this.active] < 0) this.active = -1;
    this.draw();
  };

  TreeView.prototype.schedule = function () {
    if (this.pending) return;
    this.pending = true;
    var self = this;
    requestAnimationFrame(function () { self.pending = false; self.draw(); });
  };

  // draw makes the rows in view, reusing the elements of those that were.
  TreeView.prototype.draw = function () {
    var m = this.shown.length;
    var height = this.el.clientHeight || innerHeight;
    var from = Math.max(0, Math.floor(this.el.scrollTop / ROW) - AROUND);
    var to = Math.min(m, Math.ceil((this.el.scrollTop + height) / ROW) + AROUND);
    if (from === this.drawnFrom && to === this.drawnTo) return;
    var old = this.rowEls;
    var keep = new Map();
    for (var j = 0; j < old.length; j++) keep.set(this.drawnFrom + j, old[j]);
    var els = [];
    for (var r = from; r < to; r++) {
      var el = keep.get(r);
      if (el) keep.delete(r);
      else el = this.row(r);
      els.push(el);
    }
    keep.forEach(function (el) { el.remove(); });
    for (j = 0; j < els.length; j++) {
      if (this.box.children[j] !== els[j]) this.box.insertBefore(els[j], this.box.children[j] || null);
    }
    this.box.style.transform = 'translateY(' + from * ROW + 'px)';
    this.rowEls = els;
    this.drawnFrom = from;
    this.drawnTo = to;
  };

  // row makes the element of row r.
  TreeView.prototype.row = function (r) {
    return this.paint(document.createElement('a'), r);
  };

  // paint makes a (a new element, or the one row r had) show row r.
  TreeView.prototype.paint = function (a, r) {
    var i = this.shown[r];
    var idx = this.idx;
    a.textContent = '';
    a.removeAttribute('aria-selected');
    a.removeAttribute('aria-expanded');
    a.href = '#e:' + encodeURIComponent(idx.ids[i]);
    a.id = 'row-' + i;
    a.setAttribute('data-row', String(i));
    a.setAttribute('data-tree-node', idx.ids[i]);
    a.setAttribute('role', 'treeitem');
    a.setAttribute('tabindex', '-1');
    a.setAttribute('aria-level', String(this.level[i]));
    a.setAttribute('aria-setsize', String(this.pos.size[r]));
    a.setAttribute('aria-posinset', String(this.pos.pos[r]));
    var cls = 'k-' + this.kindName(i);
    if (this.onPath[i]) cls += ' on';
    if (i === idx.leaf) cls += ' leaf';
    if (i === this.selected) { cls += ' sel'; a.setAttribute('aria-selected', 'true'); }
    if (i === this.active) cls += ' active';
    a.className = cls;
    var r = rails(this.lay, i, MAX_RAILS);
    if (r.length) {
      var span = document.createElement('span');
      span.className = 'rails';
      span.setAttribute('aria-hidden', 'true');
      // Fixed markup made here, nothing from the session.
      span.innerHTML = railsHTML(r);
      a.appendChild(span);
    }
    if (this.forks[i]) {
      a.setAttribute('aria-expanded', this.folded[i] ? 'false' : 'true');
      var fork = document.createElement('span');
      fork.className = 'fork';
      fork.title = this.forks[i] + ' branches';
      fork.textContent = String(this.forks[i]);
      a.appendChild(fork);
      a.appendChild(document.createTextNode(' '));
    }
    if (i === idx.leaf) {
      var mark = document.createElement('span');
      mark.className = 'leaf-mark';
      mark.title = 'The session\u2019s leaf';
      mark.textContent = '●';
      a.appendChild(mark);
      a.appendChild(document.createTextNode(' '));
    }
    var label = idx.labels[i];
    if (label !== undefined) {
      var tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = label;
      a.appendChild(tag);
      a.appendChild(document.createTextNode(' '));
    }
    var role = idx.roleNames[idx.roles[i]];
    if (role) {
      var rs = document.createElement('span');
      rs.className = 'role';
      rs.textContent = role;
      a.appendChild(rs);
      a.appendChild(document.createTextNode(' '));
    }
    a.appendChild(document.createTextNode(idx.preview(i)));
    return a;
  };

  // rowElement is entry i's row element, if it is drawn.
  TreeView.prototype.rowElement = function (i) {
    var r = this.rowOf[i];
    if (r < this.drawnFrom || r >= this.drawnTo) return null;
    return this.rowEls[r - this.drawnFrom];
  };

  // refreshRow draws entry i's row again, if it is drawn, in the same
  // element: a row being clicked must not be replaced under the pointer.
  TreeView.prototype.refreshRow = function (i) {
    var el = this.rowElement(i);
    if (el) this.paint(el, this.rowOf[i]);
  };

  // reveal scrolls the tree so that entry i's row is in view.
  TreeView.prototype.reveal = function (i, center) {
    var r = this.rowOf[i];
    if (r < 0) return;
    var top = r * ROW;
    var height = this.el.clientHeight;
    if (top < this.el.scrollTop || top + ROW > this.el.scrollTop + height) {
      this.el.scrollTop = center ? top - height / 3 : top < this.el.scrollTop ? top : top + ROW - height;
    }
    this.draw();
  };

  // setPath marks the rows of the path in view.
  TreeView.prototype.setPath = function (onPath) {
    var old = this.onPath;
    this.onPath = onPath;
    for (var j = 0; j < this.rowEls.length; j++) {
      var i = this.shown[this.drawnFrom + j];
      if (old[i] !== onPath[i]) this.rowEls[j].classList.toggle('on', onPath[i] === 1);
    }
  };

  // select marks entry i as the one opened, unfolding the branches it is
  // in; -1 marks none.
  TreeView.prototype.select = function (i) {
    var was = this.selected;
    this.selected = i;
    if (i >= 0 && this.rowOf[i] < 0 && this.passes(i) && (!this.hits || this.hits[i])) {
      var changed = false;
      for (var p = this.idx.parents[i], steps = 0; p >= 0 && steps < this.n; p = this.idx.parents[p], steps++) {
        if (this.folded[p]) { this.folded[p] = 0; changed = true; }
      }
      if (changed) { this.apply(); return; }
    }
    if (was >= 0) this.refreshRow(was);
    if (i >= 0) this.refreshRow(i);
  };

  TreeView.prototype.setFilter = function (filter) {
    this.filter = filter;
    this.apply();
  };

  TreeView.prototype.setHits = function (hits) {
    this.hits = hits;
    this.apply();
  };

  TreeView.prototype.fold = function (i, on) {
    if (!this.forks[i] || (this.folded[i] === 1) === on) return;
    this.folded[i] = on ? 1 : 0;
    if (on) this.anyFolded = true;
    this.apply();
    this.reveal(i, false);
  };

  // ---- the keyboard -------------------------------------------------------

  // activate makes entry i the row the keyboard is on.
  TreeView.prototype.activate = function (i, scroll) {
    if (i === undefined || i < 0 || this.rowOf[i] < 0) return;
    var was = this.active;
    this.active = i;
    if (scroll !== false) this.reveal(i, false);
    if (was >= 0) this.refreshRow(was);
    this.refreshRow(i);
    this.el.setAttribute('aria-activedescendant', 'row-' + i);
  };

  TreeView.prototype.rowAt = function (r) {
    r = Math.max(0, Math.min(this.shown.length - 1, r));
    return this.shown.length ? this.shown[r] : -1;
  };

  TreeView.prototype.key = function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var m = this.shown.length;
    if (!m) return;
    var i = this.active >= 0 && this.rowOf[this.active] >= 0 ? this.active : this.rowAt(0);
    var r = this.rowOf[i];
    var page = Math.max(1, Math.floor(this.el.clientHeight / ROW) - 1);
    var to = -1;
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
  };

  // rowText is what type-ahead matches: the row's label, role and preview.
  TreeView.prototype.rowText = function (i) {
    var idx = this.idx;
    var label = idx.labels[i];
    return ((label !== undefined ? label + ' ' : '') + idx.roleNames[idx.roles[i]] + ' ' + idx.preview(i)).trim().toLowerCase();
  };

  // typeAhead moves to the next row whose text starts with what was
  // typed in the last moment.
  TreeView.prototype.typeAhead = function (c, r) {
    var now = Date.now();
    if (now - this.typedAt > 700) this.typed = '';
    this.typedAt = now;
    this.typed += c.toLowerCase();
    var m = this.shown.length;
    // A first letter looks from the next row on; more letters from this one.
    var start = this.typed.length === 1 ? r + 1 : r;
    for (var k = 0; k < m; k++) {
      var i = this.shown[(start + k) % m];
      var text = this.rowText(i);
      var role = this.idx.roleNames[this.idx.roles[i]];
      var rest = role && text.lastIndexOf(role.toLowerCase(), 0) === 0 ? text.slice(role.length).trim() : '';
      if (text.lastIndexOf(this.typed, 0) === 0 || rest.lastIndexOf(this.typed, 0) === 0) {
        this.activate(i);
        return true;
      }
    }
    return true;
  };

  TreeView.prototype.click = function (ev) {
    if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest('a[data-row]');
    if (!a) return;
    ev.preventDefault();
    var i = Number(a.getAttribute('data-row'));
    this.activate(i, false);
    if (ev.target.closest('.fork')) {
      this.fold(i, !this.folded[i]);
      return;
    }
    this.on.open(i);
  };

  lib.TreeView = TreeView;
})(window.piexportLib = window.piexportLib || {});
