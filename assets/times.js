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
  try {
    plain = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
    zoned = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  } catch (e) { /* the server's UTC times stay */ }

  /**
   * format writes d for the reader; with zone, naming the time zone (a
   * time that stands alone: a list's, a page's header), without it for
   * an entry's, read beside the header's. ISO 8601 when the browser
   * cannot format dates.
   * @param {Date} d @param {boolean} zone
   */
  function format(d, zone) {
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
    const d = new Date(el.getAttribute('datetime') || '');
    if (!plain || isNaN(d.getTime())) return;
    /** @type {HTMLElement} */ (el).title = el.textContent || '';
    el.textContent = format(d, zone);
  }

  return { format, localize };
})();
