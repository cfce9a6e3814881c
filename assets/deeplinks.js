// @ts-check
// Deep links: the address names an entry (#id, or #e:id, the element id
// of its article), and a search hit's link adds the words it found
// (?hl=words, folded as the index folds them; a prefix ends in *). The
// page opens the entry the address names, follows links to entries
// within it, and writes the entry the reader opens into the address
// (without adding to the history).

/** @typedef {{hash: boolean}} FollowHow hash: the link was followed in the page, so the address is to name its entry */
/** @typedef {(i: number, how: FollowHow) => void} FollowHook */

class DeepLinks {
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
    win.addEventListener('hashchange', () => {
      const j = this.target();
      if (j >= 0) follow(j, { hash: false });
    }, { signal });
    // Links inside the conversation to another entry (a context edit's
    // target, a label's entry) are followed in the page.
    pathEl.addEventListener('click', (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a[href^="#"]') : null;
      if (!a || a.hasAttribute('data-copy') || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      const j = this.indexOf(a.getAttribute('href') || '');
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

  /** set writes the entry whose id is id into the address; null, none. @param {string | null} id */
  set(id) {
    const url = this.win.location.href.split('#')[0];
    try { this.win.history.replaceState(null, '', id === null ? url : url + '#' + encodeURIComponent(id)); } catch (e) { /* opaque origins */ }
  }
}
