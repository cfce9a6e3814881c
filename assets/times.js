// @ts-check
// Times: the server writes every time in UTC (<time datetime>); the
// script shows them in the reader's locale and time zone, on the session
// pages and the lists of sessions alike.

const times = (() => {
  'use strict';

  /** @type {Intl.DateTimeFormat | null} */
  let plain = null;
  /** @type {Intl.DateTimeFormat | null} */
  let zoned = null;
  let made = false;
  // The formats are made when first used: the first costs the browser
  // tens of milliseconds (its locale's data), which a session page spends
  // after its first screen (hold).
  function make() {
    if (made) return;
    made = true;
    try {
      plain = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
      zoned = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    } catch (e) { /* the server's UTC times stay */ }
  }

  let held = false;
  /** @type {[Element, boolean][]} the times to localize once released */
  let waiting = [];

  /** hold keeps the times as the server wrote them until release. */
  function hold() { held = true; }

  /** release localizes the times held, and from then on each at once. */
  function release() {
    held = false;
    const list = waiting;
    waiting = [];
    for (const [el, zone] of list) if (el.isConnected) localize(el, zone);
  }

  /**
   * format writes d for the reader; with zone, naming the time zone (a
   * time that stands alone: a list's, a page's header), without it for
   * an entry's, read beside the header's. ISO 8601 when the browser
   * cannot format dates.
   * @param {Date} d @param {boolean} zone
   */
  function format(d, zone) {
    make();
    const f = zone ? zoned : plain;
    return f ? f.format(d) : d.toISOString();
  }

  /**
   * localize shows the time of el (a <time datetime>) for the reader, as
   * format does, with the server's text as its title; it leaves el as it
   * is when the browser cannot format dates.
   * @param {Element} el @param {boolean} zone
   */
  function localize(el, zone) {
    if (held) {
      waiting.push([el, zone]);
      return;
    }
    make();
    const d = new Date(el.getAttribute('datetime') || '');
    if (!plain || isNaN(d.getTime())) return;
    /** @type {HTMLElement} */ (el).title = el.textContent || '';
    el.textContent = format(d, zone);
  }

  return { format, localize, hold, release };
})();
