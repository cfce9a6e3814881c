// @ts-check
// Marks: the words of a search, marked in the entry it opens (CSS
// highlights), with the folds that hide them opened: the tree's search
// (parts of words, lowercased) and a search hit's link (?hl=: whole
// words, folded as the index folds them).
//
// Whatever the words and the entry, marking cannot hold the page: the
// words are taken once each, a page holds at most MAX marks, and the
// text is read a slice of time at a time, the page answering between
// slices.

/** @typedef {{text: string, prefix: boolean}} LinkedWord a word of ?hl=, folded; prefix: it starts words */
/** @typedef {[number, number]} TextSpan a match: its start and end offsets in a text */

const wordMatch = (() => {
  'use strict';

  const ASCII = /^[\x00-\x7f]*$/;

  /** isWord says whether the character whose code point is c is part of a word (fold.WORD). @param {number} c */
  function isWord(c) {
    if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    return fold.WORD.test(String.fromCodePoint(c));
  }
  /** isWordEnd: the character before at in s is part of a word. @param {string} s @param {number} at */
  function isWordEnd(s, at) {
    let c = s.codePointAt(at - 1) || 0;
    if (at >= 2 && c >= 0xdc00 && c <= 0xdfff) c = s.codePointAt(at - 2) || 0;
    return isWord(c);
  }
  /** isWordStart: the character at at in s is part of a word. @param {string} s @param {number} at */
  function isWordStart(s, at) { return isWord(s.codePointAt(at) || 0); }

  /**
   * first keeps the limit matches that start first, in order.
   * @param {TextSpan[]} out @param {number} limit
   */
  function first(out, limit) {
    out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (out.length > limit) out.length = limit;
    return out;
  }

  /**
   * parts finds words (lowercase) anywhere in text, as the tree's search
   * does: the first limit matches.
   * @param {string} text @param {string[]} words @param {number} limit
   * @returns {TextSpan[]}
   */
  function parts(text, words, limit) {
    /** @type {TextSpan[]} */
    const out = [];
    const low = text.toLowerCase();
    // Letters whose lowercase is longer would shift the offsets.
    if (low.length !== text.length) return out;
    for (const w of words) {
      if (!w) continue;
      let found = 0;
      for (let at = low.indexOf(w); at >= 0 && found < limit; at = low.indexOf(w, at + w.length), found++) out.push([at, at + w.length]);
    }
    return first(out, limit);
  }

  /**
   * whole finds a link's words in text as the index reads words (fold.js):
   * folded ("cafe" marks "Café"), and whole, or at the start of a word
   * for a prefix: the first limit matches.
   * @param {string} text @param {LinkedWord[]} words @param {number} limit
   * @returns {TextSpan[]}
   */
  function whole(text, words, limit) {
    let folded = '';
    /** @type {number[] | null} at[j]: the offset in text of folded's unit j (null: j) */
    let at = null;
    if (ASCII.test(text)) {
      folded = text.toLowerCase();
    } else {
      at = [];
      let off = 0;
      for (const c of text) {
        const f = c < '\x80' ? c.toLowerCase() : fold.rune(c);
        for (let j = 0; j < f.length; j++) at.push(off);
        folded += f;
        off += c.length;
      }
      at.push(off);
    }
    /** @type {TextSpan[]} */
    const out = [];
    for (const w of words) {
      if (!w.text) continue;
      let found = 0;
      for (let p = folded.indexOf(w.text); p >= 0 && found < limit; p = folded.indexOf(w.text, p + 1)) {
        const end = p + w.text.length;
        if (p > 0 && isWordEnd(folded, p)) continue;
        if (!w.prefix && end < folded.length && isWordStart(folded, end)) continue;
        if (!at) out.push([p, end]);
        else if (at[end] > at[p]) out.push([at[p], at[end]]);
        else continue;
        found++;
      }
    }
    return first(out, limit);
  }

  /**
   * distinct keeps each word once, and of a word both whole and as a
   * prefix only the prefix, which marks all the whole one does.
   * @param {LinkedWord[]} words
   */
  function distinct(words) {
    /** @type {Map<string, LinkedWord>} */
    const seen = new Map();
    for (const w of words) {
      const was = seen.get(w.text);
      if (!was || (w.prefix && !was.prefix)) seen.set(w.text, w);
    }
    return Array.from(seen.values());
  }

  return { parts, whole, distinct };
})();

class HitMarks {
  static NAME = 'piexport-hit'; // the highlight's name (content.css: ::highlight)
  static MAX = 1000; // marks a page holds at most
  static WORDS = 32; // words marked at most
  static SLICE_MS = 8; // text read before the page answers again

  /** @param {Document} doc */
  constructor(doc) {
    this.doc = doc;
    this.canMark = typeof CSS !== 'undefined' && !!CSS.highlights && typeof Highlight !== 'undefined';
    this.turn = 0; // counts the markings begun; a later one ends an earlier
    this.timer = 0;
    /** @type {Promise<void>} resolves when the latest marking is done, or given up */
    this.done = Promise.resolve();
  }

  /** clear removes the marks and stops a marking under way. */
  clear() {
    this.turn++;
    clearTimeout(this.timer);
    if (this.canMark) CSS.highlights.delete(HitMarks.NAME);
  }

  dispose() { this.clear(); }

  /**
   * show marks words in scope, opening the folds (<details>) that hide
   * them, and scrolls to the first once it is found: words are parts of
   * words (strings, lowercase, as the tree's search has them) or, with
   * linked, a link's words. It works a slice at a time; a later show or a
   * clear ends it.
   * @param {Element} scope
   * @param {string[] | LinkedWord[]} words
   * @param {boolean} linked
   */
  show(scope, words, linked) {
    this.clear();
    const turn = this.turn;
    /** @type {(text: string, limit: number) => TextSpan[]} */
    let find;
    if (linked) {
      const list = wordMatch.distinct(/** @type {LinkedWord[]} */ (words)).slice(0, HitMarks.WORDS);
      find = (text, limit) => wordMatch.whole(text, list, limit);
    } else {
      const list = Array.from(new Set(/** @type {string[]} */ (words))).slice(0, HitMarks.WORDS);
      find = (text, limit) => wordMatch.parts(text, list, limit);
    }
    if (!words.length) return;
    const marks = this.canMark ? new Highlight() : null;
    if (marks) CSS.highlights.set(HitMarks.NAME, marks);
    const walker = this.doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    let count = 0;
    this.done = new Promise((finished) => {
      const slice = () => {
        this.timer = 0;
        if (turn !== this.turn || !scope.isConnected) { finished(); return; }
        const until = performance.now() + HitMarks.SLICE_MS;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = /** @type {Text} */ (node);
          for (const [start, end] of find(text.data, HitMarks.MAX - count)) {
            const r = this.doc.createRange();
            r.setStart(text, start);
            r.setEnd(text, end);
            for (let d = text.parentElement; d && d !== scope.parentElement; d = d.parentElement) {
              if (d instanceof HTMLDetailsElement && !d.open) d.open = true;
            }
            if (marks) marks.add(r);
            if (count++ === 0) HitMarks.reveal(r);
          }
          if (count >= HitMarks.MAX) break;
          if (performance.now() > until) {
            this.timer = setTimeout(slice, 0);
            return;
          }
        }
        finished();
      };
      slice();
    });
  }

  /** reveal scrolls r into the window, a third of the way down, once laid out. @param {Range} r */
  static reveal(r) {
    requestAnimationFrame(() => {
      const box = r.getBoundingClientRect();
      if (box.top < 80 || box.bottom > innerHeight - 40) window.scrollBy(0, box.top - innerHeight / 3);
    });
  }
}
