// @ts-check
// Path facts: what the page works out again whenever the path in view
// changes: the header's token figures for the path (page/view.go:
// headerView.Path), and which of the context edits aimed at an entry
// shows its badge, the latest on the path (page/settings.go:
// editBadges). It listens to nothing: the page tells it.

class PathFacts {
  static FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'cost'];

  /**
   * @param {Document} doc
   * @param {PageIndex} idx
   * @param {Map<string, number>} pos an entry's index by its id
   */
  constructor(doc, idx, pos) {
    this.n = idx.ids.length;
    this.pos = pos;
    /** @type {Int32Array | null} the usage of each entry that records some, five figures from usage[5*at[i]]; null until told (setUsage) */
    this.usageAt = null;
    /** @type {number[]} */
    this.usage = [];
    /** @type {number[] | null} the path whose tokens wait for the usage */
    this.waiting = null;
    this.cells = doc.querySelectorAll('[data-path-tokens]');
    /** @type {Record<string, number[]>} per entry, the context edits aimed at it, in file order */
    this.edits = idx.edits || {};
    /** @type {Map<number, number>} an edit's target */
    this.editTarget = new Map();
    for (const [t, list] of Object.entries(this.edits)) {
      for (const e of list) this.editTarget.set(e, Number(t));
    }
  }

  /**
   * setUsage takes the usage of the entries that record some (the
   * index's, which comes after the first screen: the header has the
   * figures of the path at load): read from its object once, so that
   * summing a path of thousands of entries looks up no property.
   * @param {Record<string, number[]>} usage
   */
  setUsage(usage) {
    const at = new Int32Array(this.n).fill(-1);
    for (const [k, u] of Object.entries(usage || {})) {
      const i = Number(k);
      if (!(i >= 0 && i < this.n)) continue;
      at[i] = this.usage.length / 5;
      for (let f = 0; f < 5; f++) this.usage.push(Number(u[f]) || 0);
    }
    this.usageAt = at;
    if (this.waiting) this.tokens(this.waiting);
  }

  /**
   * tokens writes the sums of the path's usage into the header, once
   * the usage is known.
   * @param {number[]} path
   */
  tokens(path) {
    if (!this.usageAt) {
      this.waiting = path;
      return;
    }
    this.waiting = null;
    const sum = [0, 0, 0, 0, 0];
    for (const i of path) {
      const at = this.usageAt[i];
      if (at < 0) continue;
      for (let f = 0; f < 5; f++) sum[f] += this.usage[5 * at + f];
    }
    for (const cell of this.cells) {
      const field = PathFacts.FIELDS.indexOf(cell.getAttribute('data-path-tokens') || '');
      if (field < 0) continue;
      const text = field === 4 ? figures.cost(sum[4]) : figures.tokens(sum[field]);
      if (cell.textContent !== text) cell.textContent = text;
    }
  }

  /**
   * badges shows, of the badges in an article's heading, the one of the
   * latest edit on the path.
   * @param {Element} art @param {Uint8Array} onPath
   */
  badges(art, onPath) {
    const head = art.firstElementChild;
    if (!head) return;
    for (const badge of head.querySelectorAll('.edit-badge')) {
      const e = this.pos.get(badge.getAttribute('data-edit') || '');
      const t = e === undefined ? undefined : this.editTarget.get(e);
      if (t === undefined) continue;
      let shown = -1;
      for (const k of this.edits[t]) if (onPath[k]) shown = k;
      /** @type {HTMLElement} */ (badge).hidden = shown !== e;
    }
  }
}
