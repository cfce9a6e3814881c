// @ts-check
// Printing: a printout shows the whole path, as the screen does: folded
// outputs as their first lines and "N more lines", thinking closed unless
// opened. Cards short enough to fit on a page are kept whole (.keep);
// longer ones break where they must, so no page is left nearly empty.

/** @typedef {{before: () => void, after: () => void}} PrintHooks before: draw the whole path; after: go back to drawing what is in view */

class Printing {
  static KEEP_PX = 480;

  /** @param {Window} win @param {HTMLElement} pathEl @param {PrintHooks} on */
  constructor(win, pathEl, on) {
    /** @type {Element[]} the cards marked to be kept whole */
    this.kept = [];
    this.stop = new AbortController();
    const signal = this.stop.signal;
    win.addEventListener('beforeprint', () => {
      on.before();
      for (const el of pathEl.querySelectorAll(':scope > article, :scope > article .tool')) {
        if (el.getBoundingClientRect().height < Printing.KEEP_PX) this.kept.push(el);
      }
      for (const el of this.kept) el.classList.add('keep');
    }, { signal });
    win.addEventListener('afterprint', () => {
      this.unkeep();
      on.after();
    }, { signal });
  }

  unkeep() {
    for (const el of this.kept) el.classList.remove('keep');
    this.kept = [];
  }

  dispose() {
    this.stop.abort();
    this.unkeep();
  }
}
