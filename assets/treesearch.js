// @ts-check
// Tree search: the full text of every entry, read from the articles the
// page carries (store.js), not from a second copy. The first search reads
// each article's HTML as text, a slice at a time so typing stays
// responsive, and keeps it; later searches look through what was kept,
// and one that only narrows the last looks only at what that one found.
//
// A tool result shown in its call's card has no article of its own: the
// card's output is its text, and the rest of the card its call's.

const treeText = (() => {
  'use strict';

  // Elements that break a line: their tags become spaces, the others
  // nothing, so that a word split into highlighted tokens stays one word.
  const BREAKS = /<\/?(?:p|div|li|ul|ol|br|tr|td|th|h[1-6]|pre|section|summary|details|article|blockquote|table|hr)\b[^>]*>/gi;
  const TAGS = /<[^>]*>/g;
  const ENTITIES = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
  /** @type {Record<string, string>} */
  const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'', nbsp: '\u00a0' };

  /** @param {string} all @param {string} name */
  function entity(all, name) {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    const c = NAMED[name.toLowerCase()];
    return c === undefined ? all : c;
  }

  /** plain turns HTML into the lowercased text a search looks through. @param {string} html */
  function plain(html) {
    return html.replace(BREAKS, ' ').replace(TAGS, '').replace(ENTITIES, entity).toLowerCase();
  }

  /** unescape reads the character references of an attribute's value. @param {string} s */
  function unescape(s) {
    return s.replace(ENTITIES, entity);
  }

  /** words splits a query into the words an entry must all hold. @param {string} text */
  function words(text) { return text.toLowerCase().split(/\s+/).filter(Boolean); }

  return { plain, unescape, words };
})();

/** @typedef {(hits: Uint8Array, missing: number) => void} SearchDone told the entries found (hits[i] is 1), and how many could not be read yet */

class TreeSearch {
  static SLICE_MS = 12;
  static RESULT = /^[^>]*\sdata-result="([^"]*)"/;

  /**
   * TreeSearch searches the entries of the page's index through store;
   * pos maps an entry id to its index.
   * @param {Store} store @param {PageIndex} idx @param {Map<string, number>} pos
   */
  constructor(store, idx, pos) {
    this.store = store;
    this.idx = idx;
    this.pos = pos;
    this.n = idx.ids.length;
    /** @type {(string | undefined)[]} lowercased text, once read */
    this.texts = new Array(this.n);
    this.absorbed = new Uint8Array(this.n);
    for (const j of idx.absorbed) this.absorbed[j] = 1;
    /** @type {string[] | null} */
    this.lastWords = null;
    /** @type {Uint8Array | null} */
    this.lastHits = null;
  }

  /**
   * take reads the article of entry i into texts, the results its cards
   * show included; false when the article cannot be read yet.
   * @param {number} i
   */
  take(i) {
    const html = this.store.html(i);
    if (html === undefined) return false;
    const own = this.idx.preview(i) + ' ' + (this.idx.labels[i] || '');
    if (html === null) { this.texts[i] = own.toLowerCase(); return true; }
    const { toolCard, toolOutput } = this.idx.config;
    const parts = html.split(toolCard);
    const mine = [own, parts[0]];
    for (let k = 1; k < parts.length; k++) {
      const card = parts[k];
      const m = TreeSearch.RESULT.exec(card);
      const r = m ? this.pos.get(treeText.unescape(m[1])) : undefined;
      const at = card.indexOf(toolOutput);
      if (r === undefined || !this.absorbed[r] || at < 0) {
        mine.push(card);
        continue;
      }
      mine.push(card.slice(0, at));
      this.texts[r] = treeText.plain(this.idx.preview(r) + ' ' + card.slice(at));
    }
    this.texts[i] = treeText.plain(mine.join(' '));
    return true;
  }

  /**
   * search finds the entries whose text holds every word of list, and
   * calls done once, later; progress is told what is going on meanwhile.
   * It returns a function that cancels it.
   * @param {string[]} list @param {(note: string) => void} progress @param {SearchDone} done
   * @returns {() => void}
   */
  search(list, progress, done) {
    let cancelled = false;
    const n = this.n;
    // Each word of the last search inside a word of this one: this one
    // can only find fewer.
    const last = this.lastWords;
    const within = last && this.lastHits && last.every((old) => list.some((w) => w.indexOf(old) >= 0));
    const from = within ? this.lastHits : null;
    const hits = new Uint8Array(n);
    let i = 0;
    let missing = 0; // articles not arrived yet
    const slice = () => {
      if (cancelled) return;
      const until = performance.now() + TreeSearch.SLICE_MS;
      for (; i < n; i++) {
        if ((i & 31) === 0 && performance.now() > until) break;
        if (from && !from[i]) continue;
        if (this.texts[i] === undefined && !this.absorbed[i]) {
          if (!this.store.known(i)) { missing++; continue; }
          if (!this.store.ready(i)) {
            // Unpack the chunk it is in, then go on from here.
            const at = i;
            this.store.fetch([at]).then(() => {
              if (!this.store.ready(at)) this.texts[at] = (this.idx.preview(at) || '').toLowerCase();
              setTimeout(slice, 0);
            });
            progress('searching… ' + Math.floor(100 * i / n) + '%');
            return;
          }
          this.take(i);
        }
        const text = this.texts[i];
        if (text === undefined) continue;
        let ok = true;
        for (let k = 0; ok && k < list.length; k++) ok = text.indexOf(list[k]) >= 0;
        if (ok) hits[i] = 1;
      }
      if (i < n) {
        progress('searching… ' + Math.floor(100 * i / n) + '%');
        setTimeout(slice, 0);
        return;
      }
      if (missing === 0) {
        this.lastWords = list;
        this.lastHits = hits;
      }
      done(hits, missing);
    };
    slice();
    return () => { cancelled = true; };
  }
}
