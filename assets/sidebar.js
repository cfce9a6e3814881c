// @ts-check
// Sidebar: the tree's column. On a wide window it is beside the
// conversation, shown or hidden by the toggle and as wide as the reader
// drags it (kept: prefs.js); on a narrow one it slides over the
// conversation and closes when the reader is done with it.

/** @typedef {{opened: () => void, toggled: () => void}} SidebarHooks opened: it slid open on a narrow window; toggled: it was shown or hidden */

class Sidebar {
  static MIN = 200; // px
  static MAX = 900;

  /**
   * restoreWidth gives the sidebar the width the reader chose, before
   * the first paint.
   * @param {HTMLElement} root
   */
  static restoreWidth(root) {
    const saved = Number(prefs.load(prefs.SIDEBAR_WIDTH));
    if (saved >= 180) root.style.setProperty('--side-w', saved + 'px');
  }

  /** @param {Document} doc @param {SidebarHooks} on */
  constructor(doc, on) {
    this.root = doc.documentElement;
    this.on = on;
    this.narrowQuery = window.matchMedia('(max-width: 900px)');
    this.toggle = doc.getElementById('side-toggle');
    this.stop = new AbortController();
    const signal = this.stop.signal;
    const root = this.root;
    if (this.toggle) {
      this.toggle.addEventListener('click', () => {
        if (this.narrow()) {
          root.classList.toggle('side-open');
          if (root.classList.contains('side-open')) this.on.opened();
        } else {
          root.classList.toggle('side-closed');
        }
        this.sync();
        this.on.toggled();
      }, { signal });
    }
    const scrim = doc.getElementById('scrim');
    if (scrim) scrim.addEventListener('click', () => { this.close(); }, { signal });
    this.narrowQuery.addEventListener('change', () => { this.sync(); }, { signal });
    this.sync();
    const resizer = doc.getElementById('resizer');
    const sidebar = doc.getElementById('sidebar');
    if (resizer && sidebar) this.resizing(resizer, sidebar, signal);
  }

  dispose() { this.stop.abort(); }

  /** narrow says whether the window is narrow: the sidebar slides over the conversation. */
  narrow() { return this.narrowQuery.matches; }

  /** close closes the sidebar that slid over the conversation. */
  close() {
    if (this.narrow()) this.root.classList.remove('side-open');
    this.sync();
  }

  /** closeOver closes the sidebar if it is open over the conversation, and says whether it was. */
  closeOver() {
    if (!this.narrow() || !this.root.classList.contains('side-open')) return false;
    this.close();
    return true;
  }

  /** open opens the sidebar over the conversation on a narrow window. */
  open() {
    if (!this.narrow()) return;
    this.root.classList.add('side-open');
    this.sync();
  }

  /** sync makes the toggle say whether the sidebar is shown. */
  sync() {
    if (!this.toggle) return;
    const root = this.root;
    const shown = this.narrow() ? root.classList.contains('side-open') : !root.classList.contains('side-closed');
    this.toggle.setAttribute('aria-expanded', String(shown));
  }

  /** setWidth makes the sidebar px wide, within bounds, and keeps it with save. @param {number} px @param {boolean} save */
  setWidth(px, save) {
    const max = Math.max(Sidebar.MIN, Math.min(Sidebar.MAX, window.innerWidth - 360));
    px = Math.round(Math.max(Sidebar.MIN, Math.min(max, px)));
    this.root.style.setProperty('--side-w', px + 'px');
    if (save) prefs.save(prefs.SIDEBAR_WIDTH, String(px));
  }

  /**
   * resizing lets the reader drag the resizer, move it with the arrow
   * keys, or double-click it to go back to the width the page gives.
   * @param {HTMLElement} resizer @param {HTMLElement} sidebar @param {AbortSignal} signal
   */
  resizing(resizer, sidebar, signal) {
    const root = this.root;
    resizer.addEventListener('pointerdown', (ev) => {
      if (this.narrow() || ev.button !== 0) return;
      ev.preventDefault();
      const startX = ev.clientX;
      const startW = sidebar.getBoundingClientRect().width;
      let frame = 0;
      resizer.setPointerCapture(ev.pointerId);
      root.classList.add('resizing');
      const drag = new AbortController();
      const end = () => {
        cancelAnimationFrame(frame);
        drag.abort();
        root.classList.remove('resizing');
      };
      signal.addEventListener('abort', end, { signal: drag.signal });
      resizer.addEventListener('pointermove', (e) => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => { this.setWidth(startW + e.clientX - startX, false); });
      }, { signal: drag.signal });
      /** @param {PointerEvent} e */
      const up = (e) => {
        end();
        this.setWidth(startW + e.clientX - startX, true);
      };
      resizer.addEventListener('pointerup', up, { signal: drag.signal });
      resizer.addEventListener('pointercancel', up, { signal: drag.signal });
    }, { signal });
    resizer.addEventListener('dblclick', () => {
      root.style.removeProperty('--side-w');
      prefs.save(prefs.SIDEBAR_WIDTH, null);
    }, { signal });
    resizer.addEventListener('keydown', (ev) => {
      const d = ev.key === 'ArrowLeft' ? -24 : ev.key === 'ArrowRight' ? 24 : 0;
      if (!d) return;
      ev.preventDefault();
      this.setWidth(sidebar.getBoundingClientRect().width + d, true);
    }, { signal });
  }
}
