// @ts-check
// Clipboard: copying text, and the links that copy an entry's address
// (a[data-copy], beside each entry's heading).

const clipboard = (() => {
  'use strict';

  /**
   * copy puts text on the clipboard and calls done once it is there. A
   * page from file:// may not use the Clipboard API: it then copies the
   * way browsers did before it.
   * @param {string} text @param {() => void} done
   */
  function copy(text, done) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, () => { if (legacy(text)) done(); });
    } else if (legacy(text)) {
      done();
    }
  }

  /** @param {string} text */
  function legacy(text) {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.className = 'sr';
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove();
    return ok;
  }

  return { copy };
})();

/**
 * @typedef {object} CopyLinkHooks
 * @property {(id: string) => string} url the address of the entry whose id is id
 * @property {(id: string) => void} chosen the reader copied the entry's address
 * @property {(from: string, to: string) => string | null} range the reader
 * asks for the address of the entries from one to the other: they are
 * marked, and this is it; null when they are on no one path
 */

// CopyLinks answers a click on a link that copies an entry's address: the
// address is copied, and the link says so for a moment. Shift and a click
// on another entry's link copies the address of the range of entries
// from the one copied last to it (#id1..id2).
class CopyLinks {
  /** @param {Document} doc @param {CopyLinkHooks} on */
  constructor(doc, on) {
    this.stop = new AbortController();
    this.last = ''; // the entry whose address was copied last
    doc.addEventListener('click', (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a[data-copy]') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      const id = a.getAttribute('data-copy') || '';
      let url = ev.shiftKey && this.last && this.last !== id ? on.range(this.last, id) : null;
      if (!url) {
        on.chosen(id);
        url = on.url(id);
        this.last = id;
      }
      clipboard.copy(url, () => {
        a.classList.add('copied');
        setTimeout(() => { a.classList.remove('copied'); }, 1200);
      });
    }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }
}
