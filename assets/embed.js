// @ts-check
// Embedding: a page made to be shown inside another (--embed: html.embed)
// tells the page around it how tall it is, on load and whenever that
// changes, so that its iframe can be as tall as what it shows: the
// parent window gets {piexport: 'height', height: N}, N in CSS pixels.
// The message says nothing else, so any origin may have it.

class EmbedHeight {
  /** @param {Window} win */
  constructor(win) {
    this.win = win;
    this.last = -1;
    this.stop = new AbortController();
    /** @type {ResizeObserver | null} */
    this.observer = null;
    if (win.parent === win) return;
    // The document's own height, not the window's: an embedded page has
    // no minimum height (page.css), so the figure does not grow with the
    // iframe it sizes.
    const root = win.document.documentElement;
    if (typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => { this.post(root, false); });
      this.observer.observe(root);
    }
    win.addEventListener('load', () => { this.post(root, true); }, { signal: this.stop.signal });
    this.post(root, false);
  }

  /**
   * post tells the parent the height of root, when it changed (or
   * always, on load).
   * @param {HTMLElement} root @param {boolean} always
   */
  post(root, always) {
    const h = Math.ceil(root.getBoundingClientRect().height);
    if (h === this.last && !always) return;
    this.last = h;
    this.win.parent.postMessage({ piexport: 'height', height: h }, '*');
  }

  dispose() {
    this.stop.abort();
    if (this.observer) this.observer.disconnect();
  }
}
