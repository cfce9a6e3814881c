// @ts-check
// How the search index reads characters (catalog/tokens.go: isWordRune
// and foldRune), for the archive's search (search.js) and for a session
// page marking the words a search hit links with (marks.js, ?hl=): both
// must read text as the index did when it was written.

const fold = (() => {
  'use strict';

  // A word is a run of letters, numbers and private-use characters
  // (isWordRune in catalog/tokens.go); anything else, combining marks
  // too, ends it.
  const WORD = /^[\p{L}\p{N}\p{Co}]$/u;

  // rune folds one character as catalog's foldRune does: to lower case,
  // one character for one (Go's unicode.ToLower: İ becomes i, Σ is σ
  // wherever it stands), then to the first character of its canonical
  // decomposition when that is a letter or digit and the rest are marks
  // (é to e; a Hangul syllable stays whole).
  const MARKS = /^\p{M}*$/u;
  /** @type {Map<string, string>} */
  const folded = new Map();
  /** @param {string} c one character */
  function rune(c) {
    let f = folded.get(c);
    if (f !== undefined) return f;
    f = String.fromCodePoint(c.toLowerCase().codePointAt(0) || 0);
    const d = f.normalize('NFD');
    const base = String.fromCodePoint(d.codePointAt(0) || 0);
    if (WORD.test(base) && MARKS.test(d.slice(base.length))) f = base;
    folded.set(c, f);
    return f;
  }

  /** text folds each character of s (catalog's appendFolded). @param {string} s */
  function text(s) {
    let out = '';
    for (const c of s) out += c < '\x80' ? c.toLowerCase() : rune(c);
    return out;
  }

  return { WORD, rune, fold: text };
})();
