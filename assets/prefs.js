// @ts-check
// Preferences: the reader's choices the browser keeps between visits
// (localStorage), for the session pages and the lists of sessions alike:
// the theme, one choice for every page, and the width of a page's
// sidebar. Storage may be off (a private window, some browsers on
// file://): a choice then lasts one visit.

const prefs = (() => {
  'use strict';

  const THEME = 'piexport:theme';
  const SIDEBAR_WIDTH = 'piexport:sidebar-width';

  /** load returns what is stored under key, or null. @param {string} key @returns {string | null} */
  function load(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }

  /** save stores value under key; null forgets it. @param {string} key @param {string | null} value */
  function save(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (e) { /* storage may be off; the choice then lasts one visit */ }
  }

  /**
   * start runs before the body is parsed, so that the first paint has the
   * reader's theme and shows the controls that need a script (.js).
   * @param {HTMLElement} root
   */
  function start(root) {
    root.classList.add('js');
    if (root.getAttribute('data-theme') === 'auto') {
      const saved = load(THEME);
      if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
    }
  }

  return { THEME, SIDEBAR_WIDTH, load, save, start };
})();

// ThemeToggle switches between the light and the dark theme and keeps the
// choice; a page that follows the system (data-theme="auto") switches
// away from what the system shows.
class ThemeToggle {
  /** @param {HTMLElement | null} button @param {HTMLElement} root */
  constructor(button, root) {
    this.stop = new AbortController();
    if (!button) return;
    button.addEventListener('click', () => {
      let current = root.getAttribute('data-theme');
      if (current !== 'light' && current !== 'dark') {
        current = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
      }
      const next = current === 'dark' ? 'light' : 'dark';
      root.setAttribute('data-theme', next);
      prefs.save(prefs.THEME, next);
    }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }
}
