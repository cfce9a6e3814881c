// @ts-check
// Tree layout: how the tree's rows are laid out, for the rows a filter
// and a search leave: the lines of its branches, as session.Layout lays
// them out (page/js_test.go holds the two to the same cases), and each
// row's place among its siblings, which a screen reader is told. It
// works on arrays, for tens of thousands of rows, and never recurses;
// treeview.js draws what it lays out.

/**
 * @typedef {object} TreeLayout a layout of the rows shown (treeLayout.layout)
 * @property {number} n
 * @property {Int32Array} up the nearest row above that is the row's parent; n for none
 * @property {Uint8Array} row the row's own letter: 0 none, 1 't', 2 'l'
 * @property {Uint8Array} lane the letter its branch adds to the rows below: 0 none, 1 ' ', 2 'v'
 * @property {Int32Array} laneUp the nearest row whose lane adds a letter
 * @property {Int32Array} depth the number of letters
 * @property {Int32Array} forks the branches of a branch point
 */

/** @typedef {{pos: Int32Array, size: Int32Array, parent: Int32Array}} TreePositions each shown row's place among its siblings */

const treeLayout = (() => {
  'use strict';

  /**
   * layout lays out the rows vis marks as session.Layout does. A row
   * draws rails left of its text, one letter per level: ' ' none, 'v' a
   * line going on, 't' ├ (it starts a branch), 'l' └ (it starts the last
   * one). Rather than a string per row (rows times depth, on a session of
   * tens of thousands of rows), it keeps per row what it adds (see
   * TreeLayout): rails(i) then walks up only as many rows as it has
   * letters.
   * @param {number} n @param {ArrayLike<number>} parents @param {ArrayLike<number>} vis
   * @returns {TreeLayout}
   */
  function layout(n, parents, vis) {
    const up = new Int32Array(n);
    const kids = new Int32Array(n + 1);
    const last = new Int32Array(n + 1).fill(-1);
    for (let i = 0; i < n; i++) {
      let a = n;
      const p = parents[i];
      if (p >= 0 && p < i) a = vis[p] ? p : up[p];
      up[i] = a;
      if (vis[i]) { kids[a]++; last[a] = i; }
    }
    const row = new Uint8Array(n);
    const lane = new Uint8Array(n + 1);
    const laneUp = new Int32Array(n + 1);
    const laneDepth = new Int32Array(n + 1);
    const depth = new Int32Array(n);
    const forks = new Int32Array(n);
    laneUp[n] = n;
    for (let i = 0; i < n; i++) {
      const a = up[i];
      if (vis[i] && kids[a] > 1) {
        row[i] = last[a] === i ? 2 : 1;
        lane[i] = last[a] === i ? 1 : 2;
      }
      depth[i] = laneDepth[a] + (row[i] ? 1 : 0);
      laneDepth[i] = laneDepth[a] + (lane[i] ? 1 : 0);
      laneUp[i] = lane[i] ? i : laneUp[a];
      if (vis[i] && kids[i] > 1) forks[i] = kids[i];
    }
    return { n, up, row, lane, laneUp, depth, forks };
  }

  // rails spells row i's rails in lay: the letters the lanes of the rows
  // above it add, then its own; the last max of them (all when max is 0).
  const ROW_LETTER = ['', 't', 'l'];
  const LANE_LETTER = ['', ' ', 'v'];
  /** @param {TreeLayout} lay @param {number} i @param {number} max */
  function rails(lay, i, max) {
    let out = ROW_LETTER[lay.row[i]];
    for (let b = lay.laneUp[lay.up[i]]; b !== lay.n && (!max || out.length < max); b = lay.laneUp[lay.up[b]]) {
      out = LANE_LETTER[lay.lane[b]] + out;
    }
    return out;
  }

  /**
   * railsHTML draws rails: a run of levels without a line, or with one
   * going on, is one element, so a deep tree costs a few elements a row.
   * @param {string} rails @param {number} max the levels drawn at most
   */
  function railsHTML(rails, max) {
    rails = rails.slice(-max);
    let html = '';
    for (let k = 0; k < rails.length;) {
      const c = rails[k];
      let run = 1;
      if (c === ' ' || c === 'v') while (k + run < rails.length && rails[k + run] === c) run++;
      const cls = (c === ' ' ? '' : c) + (run > 1 ? (c === ' ' ? '' : ' ') + 'k' + run : '');
      html += cls ? '<i class="' + cls + '"></i>' : '<i></i>';
      k += run;
    }
    return html;
  }

  /**
   * positions works out, for the rows shown (in order, with their
   * levels), each one's position among its siblings and their number:
   * a row's parent is the nearest row above it one level up.
   * @param {Int32Array} shown @param {Int32Array} level
   * @returns {TreePositions}
   */
  function positions(shown, level) {
    const m = shown.length;
    const pos = new Int32Array(m);
    const size = new Int32Array(m);
    const parentRow = new Int32Array(m);
    /** @type {number[]} rows of the branch points above, by level */
    const stack = [];
    const counts = new Int32Array(m + 1); // children so far, by parent row + 1
    for (let r = 0; r < m; r++) {
      const l = level[shown[r]];
      while (stack.length && level[shown[stack[stack.length - 1]]] >= l) stack.pop();
      const parent = stack.length ? stack[stack.length - 1] : -1;
      parentRow[r] = parent;
      pos[r] = ++counts[parent + 1];
      stack.push(r);
    }
    for (let r = 0; r < m; r++) size[r] = counts[parentRow[r] + 1];
    return { pos, size, parent: parentRow };
  }

  return { layout, rails, railsHTML, positions };
})();
