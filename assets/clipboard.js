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
 */

// CopyLinks answers a click on a link that copies an entry's address: the
// address is copied, and the link says so for a moment.
class CopyLinks {
  /** @param {Document} doc @param {CopyLinkHooks} on */
  constructor(doc, on) {
    this.stop = new AbortController();
    doc.addEventListener('click', (ev) => {
      const a = ev.target instanceof Element ? ev.target.closest('a[data-copy]') : null;
      if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
      ev.preventDefault();
      const id = a.getAttribute('data-copy') || '';
      on.chosen(id);
      clipboard.copy(on.url(id), () => {
        a.classList.add('copied');
        setTimeout(() => { a.classList.remove('copied'); }, 1200);
      });
    }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }
}
