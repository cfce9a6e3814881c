// @ts-check
// Figures: token counts and costs as people read them. These are the
// page's copies of humanize.Tokens and humanize.Cost (humanize/humanize.go),
// integer rounding included, so that a figure reads the same before and
// after the script works it out again; page/js_test.go runs the same cases
// through both.

const figures = (() => {
  'use strict';

  /** @param {number} t */
  function tenths(t) {
    return Math.floor(t / 10) + '.' + (t % 10);
  }

  /** tokens: 950, 1.2k, 12k, 340k, 1.5M, 52M, 5.2B. @param {number} n */
  function tokens(n) {
    n = Math.round(n);
    if (n < 1000) return String(n);
    let t = Math.floor((n * 10 + 500) / 1000);
    if (t < 100) return tenths(t) + 'k';
    const k = Math.floor((n + 500) / 1000);
    if (k < 1000) return k + 'k';
    t = Math.floor((n * 10 + 500000) / 1000000);
    if (t < 100) return tenths(t) + 'M';
    const m = Math.floor((n + 500000) / 1000000);
    if (m < 1000) return m + 'M';
    t = Math.floor((n * 10 + 500000000) / 1000000000);
    if (t < 100) return tenths(t) + 'B';
    return Math.floor((n + 500000000) / 1000000000) + 'B';
  }

  /**
   * cost: $0, $0.0123, $4.56; from a trillion dollars three figures and
   * an exponent, as humanize.Cost writes them.
   * @param {number} c
   */
  function cost(c) {
    if (!(c > 0)) return '$0';
    if (c >= 1e12) return '$' + Math.min(c, Number.MAX_VALUE).toExponential(2);
    const d = c >= 1 ? 2 : 4;
    const scale = Math.pow(10, d);
    const v = Math.floor(c * scale + 0.5);
    let frac = String(v % scale);
    while (frac.length < d) frac = '0' + frac;
    return '$' + Math.floor(v / scale) + '.' + frac;
  }

  return { tokens, cost };
})();
