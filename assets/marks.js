// @ts-check
// Marks: the words of a search, marked in the entry it opens (CSS
// highlights), with the folds that hide them opened: the tree's search
// (parts of words, lowercased) and a search hit's link (?hl=: whole
// words, folded as the index folds them).

/** @typedef {{text: string, prefix: boolean}} LinkedWord a word of ?hl=, folded; prefix: it starts words */
/** @typedef {[number, number]} TextSpan a match: its start and end offsets in a text */

const wordMatch = (() => {
  'use strict';

  const ASCII = /^[\x00-\x7f]*$/;

  /** isWordEnd: the character before at in s is part of a word. @param {string} s @param {number} at */
  function isWordEnd(s, at) {
    let c = s.codePointAt(at - 1) || 0;
    if (at >= 2 && c >= 0xdc00 && c <= 0xdfff) c = s.codePointAt(at - 2) || 0;
    return fold.WORD.test(String.fromCodePoint(c));
  }
  /** isWordStart: the character at at in s is part of a word. @param {string} s @param {number} at */
  function isWordStart(s, at) { return fold.WORD.test(String.fromCodePoint(s.codePointAt(at) || 0)); }

  /**
   * parts finds words (lowercase) anywhere in text, as the tree's search
   * does.
   * @param {string} text @param {string[]} words
   * @returns {TextSpan[]}
   */
  function parts(text, words) {
    /** @type {TextSpan[]} */
    const out = [];
    const low = text.toLowerCase();
    // Letters whose lowercase is longer would shift the offsets.
    if (low.length !== text.length) return out;
    for (const w of words) {
      for (let at = low.indexOf(w); at >= 0; at = low.indexOf(w, at + w.length)) out.push([at, at + w.length]);
    }
    return out;
  }

  /**
   * whole finds a link's words in text as the index reads words (fold.js):
   * folded ("cafe" marks "Café"), and whole, or at the start of a word
   * for a prefix.
   * @param {string} text @param {LinkedWord[]} words
   * @returns {TextSpan[]}
   */
  function whole(text, words) {
    let folded = '';
    /** @type {number[] | null} at[j]: the offset in text of folded's unit j (null: j) */
    let at = null;
    if (ASCII.test(text)) {
      folded = text.toLowerCase();
    } else {
      at = [];
      let off = 0;
      for (const c of text) {
        const f = fold.fold(c);
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
      for (let p = folded.indexOf(w.text); p >= 0; p = folded.indexOf(w.text, p + 1)) {
        const end = p + w.text.length;
        if (p > 0 && isWordEnd(folded, p)) continue;
        if (!w.prefix && end < folded.length && isWordStart(folded, end)) continue;
        if (!at) out.push([p, end]);
        else if (at[end] > at[p]) out.push([at[p], at[end]]);
      }
    }
    return out;
  }

  return { parts, whole };
})();

class HitMarks {
  static NAME = 'piexport-hit'; // the highlight's name (content.css: ::highlight)

  /** @param {Document} doc */
  constructor(doc) {
    this.doc = doc;
    this.canMark = typeof CSS !== 'undefined' && !!CSS.highlights && typeof Highlight !== 'undefined';
  }

  /** clear removes the marks. */
  clear() {
    if (this.canMark) CSS.highlights.delete(HitMarks.NAME);
  }

  dispose() { this.clear(); }

  /**
   * show marks words in scope, opening the folds (<details>) that hide
   * them, and scrolls to the first: words are parts of words (strings,
   * lowercase, as the tree's search has them) or, with linked, a link's
   * words.
   * @param {Element} scope
   * @param {string[] | LinkedWord[]} words
   * @param {boolean} linked
   */
  show(scope, words, linked) {
    this.clear();
    /** @type {Range[]} */
    const ranges = [];
    const walker = this.doc.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && ranges.length < 1000; node = walker.nextNode()) {
      const text = /** @type {Text} */ (node);
      const found = linked ? wordMatch.whole(text.data, /** @type {LinkedWord[]} */ (words)) : wordMatch.parts(text.data, /** @type {string[]} */ (words));
      for (const [start, end] of found) {
        const r = this.doc.createRange();
        r.setStart(text, start);
        r.setEnd(text, end);
        ranges.push(r);
      }
    }
    if (!ranges.length) return;
    ranges.sort((a, b) => a.compareBoundaryPoints(Range.START_TO_START, b));
    for (const r of ranges) {
      for (let d = r.startContainer.parentElement; d && d !== scope.parentElement; d = d.parentElement) {
        if (d instanceof HTMLDetailsElement && !d.open) d.open = true;
      }
    }
    if (this.canMark) {
      const marks = new Highlight();
      for (const r of ranges) marks.add(r);
      CSS.highlights.set(HitMarks.NAME, marks);
    }
    HitMarks.reveal(ranges[0]);
  }

  /** reveal scrolls r into the window, a third of the way down, once laid out. @param {Range} r */
  static reveal(r) {
    requestAnimationFrame(() => {
      const box = r.getBoundingClientRect();
      if (box.top < 80 || box.bottom > innerHeight - 40) window.scrollBy(0, box.top - innerHeight / 3);
    });
  }
}
