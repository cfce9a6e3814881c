// @ts-check
// Deep links: the address names an entry (#id, or #e:id, the element id
// of its article), or a range of entries on one path (#id1..id2, each
// end an id or the start of one id alone), and a search hit's link adds
// the words it found (?hl=words, folded as the index folds them; a
// prefix ends in *). The page opens the entry the address names, or
// marks the range and opens its first entry, follows links to entries
// within it, and writes the entry the reader opens into the address, as
// an entry of the history of its own: Back and Forward go from one
// entry the reader chose to another without leaving the page, and a
// reload opens the one the address names.

/** @typedef {{from: number, to: number}} EntryRange the ends of a range of entries, as the address names them */
/** @typedef {{hash: boolean, range?: EntryRange}} FollowHow hash: the link was followed in the page, so the address is to name its entry; range: it names this range, whose first entry is opened */
/** @typedef {(i: number, how: FollowHow) => void} FollowHook i: the entry to open; -1, the path the page opened with */

class DeepLinks {
  static STATE = 'piexportEntry'; // the key of the history states the page writes

  /**
   * @param {Window} win
   * @param {HTMLElement} pathEl links inside it to an entry are followed in the page
   * @param {Map<string, number>} pos an entry's index by its id
   * @param {string} prefix what starts an entry's element id (PageConfig.entryPrefix)
   * @param {FollowHook} follow opens entry i: the address named it, or a link in the path
   */
  constructor(win, pathEl, pos, prefix, follow) {
    this.win = win;
    this.pos = pos;
    this.prefix = prefix;
    this.stop = new AbortController();
    const signal = this.stop.signal;
    // Back, Forward, and a fragment typed into the address (which is a
    // step in the history too) all come here. A step to a history entry
    // the page wrote (its state says so) goes to the entry it names, or
    // to the path the page opened with; a fragment that names no entry
    // (#main, the skip link's) is the browser's business.
    win.addEventListener('popstate', (ev) => {
      const r = this.range();
      if (r) {
        follow(r.from, { hash: false, range: r });
        return;
      }
      const j = this.target();
      const mine = ev.state && typeof ev.state === 'object' && DeepLinks.STATE in ev.state;
      if (j >= 0 || mine) follow(j, { hash: false });
    }, { signal });
    // Links inside the conversation to another entry (a context edit's
    // target, a label's entry) are followed in the page.
    pathEl.addEventListener('click', (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a[href^="#"]') : null;
      if (!a || a.hasAttribute('data-copy') || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      const href = a.getAttribute('href') || '';
      const r = this.rangeOf(href);
      if (r) {
        ev.preventDefault();
        this.setRange(this.ids(r));
        follow(r.from, { hash: false, range: r });
        return;
      }
      const j = this.indexOf(href);
      if (j < 0) return;
      ev.preventDefault();
      follow(j, { hash: true });
    }, { signal });
  }

  dispose() { this.stop.abort(); }

  /**
   * indexOf is the index of the entry a fragment names by its id or by
   * its element id (the bare id first), -1 for none.
   * @param {string} h
   */
  indexOf(h) {
    h = h.replace(/^#/, '');
    if (!h) return -1;
    try { h = decodeURIComponent(h); } catch (e) { /* keep it raw */ }
    let j = this.pos.get(h);
    if (j === undefined && h.lastIndexOf(this.prefix, 0) === 0) j = this.pos.get(h.slice(this.prefix.length));
    return j === undefined ? -1 : j;
  }

  /**
   * find is the index of the entry s names: its id, its element id, or
   * the start of one id and no other; -1 for none.
   * @param {string} s
   */
  find(s) {
    if (!s) return -1;
    let j = this.pos.get(s);
    if (j !== undefined) return j;
    if (s.lastIndexOf(this.prefix, 0) === 0) {
      s = s.slice(this.prefix.length);
      j = this.pos.get(s);
      if (j !== undefined) return j;
    }
    let found = -1;
    for (const [id, i] of this.pos) {
      if (id.lastIndexOf(s, 0) !== 0) continue;
      if (found >= 0) return -1;
      found = i;
    }
    return found;
  }

  /**
   * rangeOf is the range a fragment names (#id1..id2), null when it names
   * none: an entry's own id that holds ".." names the entry.
   * @param {string} h
   * @returns {EntryRange | null}
   */
  rangeOf(h) {
    h = h.replace(/^#/, '');
    try { h = decodeURIComponent(h); } catch (e) { /* keep it raw */ }
    const k = h.indexOf('..');
    if (k <= 0 || this.pos.has(h)) return null;
    const from = this.find(h.slice(0, k));
    const to = this.find(h.slice(k + 2));
    return from >= 0 && to >= 0 ? { from, to } : null;
  }

  /** range is the range the address names, null for none. */
  range() { return this.rangeOf(this.win.location.hash); }

  /**
   * ids are the ids of a range's ends. @param {EntryRange} r
   * @returns {[string, string]}
   */
  ids(r) {
    /** @type {string[]} */
    const ids = [];
    for (const [id, i] of this.pos) {
      if (i === r.from) ids[0] = id;
      if (i === r.to) ids[1] = id;
    }
    return [ids[0] || '', ids[1] || ''];
  }

  /** rangeURL is the address of the page at the range from..to. @param {[string, string]} ends */
  rangeURL(ends) {
    return this.win.location.href.split('#')[0] + '#' + DeepLinks.rangeFragment(ends);
  }

  /** @param {[string, string]} ends */
  static rangeFragment(ends) { return encodeURIComponent(ends[0]) + '..' + encodeURIComponent(ends[1]); }

  /** setRange writes the range from..to into the address, as set writes an entry. @param {[string, string]} ends */
  setRange(ends) { this.write(DeepLinks.rangeFragment(ends), ends[0] + '..' + ends[1]); }

  /** target is the entry the address names, -1 for none. */
  target() { return this.indexOf(this.win.location.hash); }

  /**
   * words are the words the address asks to mark (?hl=), each once.
   * @returns {LinkedWord[]}
   */
  words() {
    let hl = null;
    try { hl = new URLSearchParams(this.win.location.search).get('hl'); } catch (e) { /* no query */ }
    if (!hl) return [];
    return wordMatch.distinct(hl.split(/\s+/).filter(Boolean).map((w) => ({
      text: w.replace(/\*+$/, '').toLowerCase(),
      prefix: /\*$/.test(w),
    })));
  }

  /** url is the address of the page at the entry whose id is id. @param {string} id */
  url(id) {
    return this.win.location.href.split('#')[0] + '#' + encodeURIComponent(id);
  }

  /**
   * set writes the entry whose id is id into the address (null: none,
   * the path the page opened with), as a new entry of the history: the
   * reader chose it, and Back goes back to the one before. An address
   * that does not change adds nothing.
   * @param {string | null} id
   */
  set(id) { this.write(id === null ? null : encodeURIComponent(id), id); }

  /**
   * write makes fragment (null: none) the address's, as a new entry of
   * the history whose state names what it shows, name (see set).
   * @param {string | null} fragment @param {string | null} name
   */
  write(fragment, name) {
    const h = this.win.history;
    const base = this.win.location.href.split('#')[0];
    const url = fragment === null ? base : base + '#' + fragment;
    /** @type {Record<string, string | null>} */
    const state = {};
    state[DeepLinks.STATE] = name;
    try {
      if (url === this.win.location.href) {
        h.replaceState(state, '', url);
        return;
      }
      // The entry the reader leaves is marked as the page's, so that
      // Back to it opens what it showed (the page as it opened, for the
      // first).
      if (!h.state || !(DeepLinks.STATE in h.state)) {
        /** @type {Record<string, string | null>} */
        const was = {};
        const named = this.target() >= 0 || this.range() !== null;
        was[DeepLinks.STATE] = named ? this.win.location.hash.slice(1) : null;
        h.replaceState(was, '', this.win.location.href);
      }
      h.pushState(state, '', url);
    } catch (e) { /* opaque origins */ }
  }
}
