// @ts-check
// Search UI: the sidebar's controls: the search box, whose words narrow
// the tree to the entries that hold them all (treesearch.js), Enter and
// Shift+Enter stepping through them; the filters; and the status line,
// which counts what the tree shows.

/**
 * @typedef {object} SearchHooks
 * @property {(i: number) => void} open step to entry i, a hit
 * @property {() => void} cleared the search's words are gone: unmark them
 */

class SearchUI {
  static DELAY_MS = 120; // typing pauses this long before a search

  /**
   * @param {Document} doc
   * @param {TreeView} tree the tree the search and the filters narrow
   * @param {TreeSearch} searcher
   * @param {SearchHooks} on
   */
  constructor(doc, tree, searcher, on) {
    this.tree = tree;
    this.searcher = searcher;
    this.on = on;
    this.n = tree.n;
    this.input = /** @type {HTMLInputElement | null} */ (doc.getElementById('tree-search'));
    this.statusEl = doc.getElementById('tree-status');
    /** @type {(() => void) | null} cancels the search under way */
    this.cancel = null;
    this.timer = 0;
    this.query = ''; // the text last searched for
    /** @type {string[]} the words of the search shown */
    this.words = [];
    this.note = ''; // what the status adds: progress, or that the page is still loading
    this.incomplete = false; // the page was still loading when it searched
    this.stop = new AbortController();
    const signal = this.stop.signal;
    const input = this.input;
    if (input) {
      input.addEventListener('input', () => {
        clearTimeout(this.timer);
        if (!input.value.trim()) this.on.cleared();
        this.timer = setTimeout(() => { this.run(); }, SearchUI.DELAY_MS);
      }, { signal });
      input.addEventListener('keydown', (ev) => {
        if (ev.key !== 'Enter') return;
        ev.preventDefault();
        const back = ev.shiftKey;
        if (input.value !== this.query || this.cancel) this.run(() => { this.step(back); });
        else this.step(back);
      }, { signal });
    }
    const root = doc.documentElement;
    const filters = doc.querySelectorAll('[data-filter]');
    for (const button of filters) {
      button.addEventListener('click', () => {
        const filter = button.getAttribute('data-filter') || 'default';
        // Usage entries show in the path too under "All" (see cards.css).
        root.classList.toggle('show-usage', filter === 'all');
        for (const b of filters) b.setAttribute('aria-pressed', String(b === button));
        this.tree.setFilter(filter);
        this.status();
      }, { signal });
    }
  }

  dispose() {
    this.stop.abort();
    clearTimeout(this.timer);
    if (this.cancel) { this.cancel(); this.cancel = null; }
  }

  /** grouped writes n with its thousands separated, as the page's figures are: 2,949. @param {number} n */
  static grouped(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  /** focus puts the reader in the search box. */
  focus() {
    if (this.input) this.input.focus();
  }

  /** status says how many entries the tree shows, or the search found. */
  status() {
    const el = this.statusEl;
    if (!el) return;
    const tree = this.tree;
    let text;
    const count = tree.matching;
    const n = SearchUI.grouped;
    if (tree.hits) {
      // The row selected among the matches says which it is: "match 3
      // of 12", not "3 of 12 entries match", which reads as a count.
      text = count === 1 ? '1 entry matches' : n(count) + ' entries match';
      const at = tree.selected;
      if (count && at >= 0 && tree.hits[at] && tree.passes(at)) {
        let k = 0;
        for (let j = 0; j <= at; j++) if (tree.hits[j] && tree.passes(j)) k++;
        text = 'match ' + n(k) + ' of ' + n(count);
      }
    } else if (count === this.n) {
      text = this.n === 1 ? 'the one entry shown' : 'all ' + n(this.n) + ' entries shown';
    } else {
      text = n(count) + ' of ' + n(this.n) + ' entries shown';
    }
    // The entry opened is shown though the filter hides it (see
    // TreeView.select): say so first, as the line is cut to the
    // sidebar's width, or the row would seem to break the filter.
    let title = text;
    if (tree.beyond >= 0) {
      title = 'The row opened is shown though the filter hides it · ' + text;
      text = 'opened row shown unfiltered · ' + text;
    }
    if (this.note) { text += ' · ' + this.note; title += ' · ' + this.note; }
    if (el.textContent !== text) {
      el.textContent = text;
      // The line is cut to the sidebar's width (page.css): the whole of it
      // shows on hover.
      el.title = title;
    }
  }

  /** run searches for what the box holds, and calls then once the tree shows what it found. @param {() => void} [then] */
  run(then) {
    clearTimeout(this.timer);
    const text = this.input ? this.input.value : '';
    if (this.cancel) { this.cancel(); this.cancel = null; }
    const w = treeText.words(text);
    this.query = text;
    this.incomplete = false;
    if (!w.length) {
      this.note = '';
      this.words = [];
      this.tree.setHits(null);
      this.status();
      this.done(text);
      if (then) then();
      return;
    }
    this.words = w;
    this.cancel = this.searcher.search(w, (note) => {
      this.note = note;
      this.status();
    }, (hits, missing) => {
      this.cancel = null;
      this.note = missing ? 'the page is still loading' : '';
      this.incomplete = missing > 0;
      this.tree.setHits(hits);
      this.status();
      this.done(text);
      if (then) then();
    });
  }

  /** again searches once more if the last search ran before the page had arrived whole. */
  again() {
    if (this.incomplete) this.run();
  }

  /**
   * done marks the status with the search it reports on, for whoever
   * waits for a search to finish.
   * @param {string} text
   */
  done(text) {
    if (this.statusEl) this.statusEl.setAttribute('data-query', text);
  }

  /**
   * step opens the next search hit after the entry selected (back: the
   * one before it), in the tree's order, going round at the end.
   * @param {boolean} back
   */
  step(back) {
    const tree = this.tree;
    const hits = tree.hits;
    const n = this.n;
    if (!hits || !tree.matching) return;
    let from = tree.selected;
    if (from < 0) from = back ? n : -1;
    for (let k = 1; k <= n; k++) {
      const j = ((back ? from - k : from + k) % n + n) % n;
      if (hits[j] && tree.passes(j)) {
        tree.activate(j);
        this.on.open(j);
        this.status();
        return;
      }
    }
  }

  /** clear empties the search box and says whether it held a search. */
  clear() {
    this.on.cleared();
    if (!this.input || !this.input.value) return false;
    this.input.value = '';
    this.run();
    return true;
  }
}
