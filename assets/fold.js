// How the search index reads characters (catalog/tokens.go: isWordRune
// and foldRune), for the archive's search (search.js) and for a session
// page marking the words a search hit links with (page.js, ?hl=): both
// must read text as the index did when it was written.
(function (lib) {
  'use strict';

  // A word is a run of letters, numbers and private-use characters
  // (isWordRune in catalog/tokens.go); anything else, combining marks
  // too, ends it.
  var WORD = /^[\p{L}\p{N}\p{Co}]$/u;

  // foldRune folds one character as catalog's foldRune does: to lower
  // case, one character for one (Go's unicode.ToLower: İ becomes i, Σ is
  // σ wherever it stands), then to the first character of its canonical
  // decomposition when that is a letter or digit and the rest are marks
  // (é to e; a Hangul syllable stays whole).
  var MARKS = /^\p{M}*$/u;
  var folded = new Map();
  function foldRune(c) {
    var f = folded.get(c);
    if (f !== undefined) return f;
    f = String.fromCodePoint(c.toLowerCase().codePointAt(0));
    var d = f.normalize('NFD');
    var base = String.fromCodePoint(d.codePointAt(0));
    if (WORD.test(base) && MARKS.test(d.slice(base.length))) f = base;
    folded.set(c, f);
    return f;
  }

  // fold folds each character of s (catalog's appendFolded).
  function fold(s) {
    var out = '';
    for (var c of s) out += c < '\x80' ? c.toLowerCase() : foldRune(c);
    return out;
  }

  lib.fold = { WORD: WORD, rune: foldRune, fold: fold };
})(window.piexportLib = window.piexportLib || {});
