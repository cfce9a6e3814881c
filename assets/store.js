// @ts-check
// Store: where each entry's article is in the page, and its HTML when it
// is needed (see the package doc of page/ for the blocks).
//
// The path in view comes in groups: <noscript class="g">, whose text is
// the HTML of its articles one after another, and whose data-map lists
// [entry, length] for each, lengths in UTF-16 code units; the groups of
// the end of the path come twice, early (an inert script of the same
// text) and in their place. Everything else comes in packed chunks:
// <script type="application/x-piexport-pack">, gzipped HTML in base64,
// whose map lists [entry or panel id, length in bytes]. A block is told
// to the store (arrived) once the parser has read it whole; a chunk is
// unpacked the first time something in it is needed, and only a few are
// kept unpacked.

/** @typedef {{el: Element, text: string | null}} StoreGroup a group, its text held while in use */
/** @typedef {{el: Element, bytes: Uint8Array | null, pending: Promise<void> | null, failed: boolean}} StoreChunk a chunk, its bytes held while unpacked */
/** @typedef {{g?: StoreGroup, c?: StoreChunk, off: number, len: number}} StorePlace where an article is: in a group or a chunk */
/** @typedef {(list: number[] | null) => void} StoreListener told the entries whose articles became known, null once all have */

class Store {
  // How many groups keep their text as one string, and how many chunks
  // stay unpacked, between uses.
  static GROUP_TEXTS = 8;
  static CHUNKS_KEPT = 48;

  /**
   * @param {number} n the number of entries
   * @param {string} groupType the type of a group's early copy
   */
  constructor(n, groupType) {
    this.n = n;
    this.groupType = groupType;
    /** @type {(StorePlace | undefined)[]} entry i's article; undefined until its block has arrived */
    this.loc = new Array(n);
    /** @type {Map<string, StorePlace>} a sub-agent's transcript, by its panel id */
    this.panels = new Map();
    /** @type {StoreGroup[]} groups whose text is held, least recently used first */
    this.texts = [];
    /** @type {StoreChunk[]} chunks unpacked, least recently used first */
    this.unpacked = [];
    /** @type {StoreListener[]} */
    this.listeners = [];
    this.complete = false;
    this.utf8 = typeof TextDecoder === 'undefined' ? null : new TextDecoder();
    this.canUnpack = typeof DecompressionStream !== 'undefined' && typeof Response !== 'undefined' && this.utf8 !== null;
  }

  /**
   * onArrive calls fn with the entries whose articles have become known,
   * and with null once every block has arrived.
   * @param {StoreListener} fn
   */
  onArrive(fn) { this.listeners.push(fn); }

  /** @param {number[] | null} list */
  tell(list) {
    for (const fn of this.listeners) fn(list);
  }

  /** arrived takes a block the parser has read whole. @param {Element | null} el */
  arrived(el) {
    if (!el || el.hasAttribute('data-stored')) return;
    /** @type {[number | string, number][]} */
    let map;
    try { map = JSON.parse(el.getAttribute('data-map') || '[]'); } catch (e) { return; }
    el.setAttribute('data-stored', '');
    const list = [];
    let off = 0;
    // A group is text: a <noscript>, or its early copy, an inert script.
    const group = el.tagName === 'NOSCRIPT' || el.getAttribute('type') === this.groupType;
    /** @type {StoreGroup | null} */
    const g = group ? { el, text: null } : null;
    /** @type {StoreChunk | null} */
    const c = group ? null : { el, bytes: null, pending: null, failed: false };
    for (const [key, len] of map) {
      /** @type {StorePlace} */
      const at = g ? { g, off, len } : { c: c || undefined, off, len };
      off += len;
      if (typeof key === 'number') {
        // A group of the end of the path comes twice: early, hidden, and
        // in its place. The first is kept.
        if (key >= 0 && key < this.n && this.loc[key] === undefined) {
          this.loc[key] = at;
          list.push(key);
        }
      } else {
        this.panels.set(String(key), at);
      }
    }
    if (list.length) this.tell(list);
  }

  /** finish says every block has arrived (DOMContentLoaded). */
  finish() {
    if (this.complete) return;
    const blocks = document.querySelectorAll('#entries > noscript.g[data-map]:not([data-stored]), #entries > script[data-map]:not([data-stored])');
    for (const b of blocks) this.arrived(b);
    this.complete = true;
    this.tell(null);
  }

  /** known says whether entry i's block has arrived. @param {number} i */
  known(i) { return this.loc[i] !== undefined; }

  /** length is the length of entry i's article, in characters or bytes; 0 before its block has arrived. @param {number} i */
  length(i) {
    const at = this.loc[i];
    return at ? at.len : 0;
  }

  /** ready says whether html(i) has the article now, without waiting. @param {number} i */
  ready(i) {
    const at = this.loc[i];
    return !!at && (at.g !== undefined || (!!at.c && (at.c.bytes !== null || at.c.failed)));
  }

  /**
   * use makes item the most recently used of list, and lets go of the
   * text or bytes of those used least once there are more than keep.
   * @template {StoreGroup | StoreChunk} T
   * @param {T[]} list @param {T} item @param {number} keep
   */
  static use(list, item, keep) {
    const k = list.indexOf(item);
    if (k >= 0) list.splice(k, 1);
    list.push(item);
    while (list.length > keep) {
      const old = /** @type {StoreGroup | StoreChunk} */ (list.shift());
      if ('text' in old) old.text = null;
      else old.bytes = null;
    }
  }

  /** @param {StorePlace} at @returns {string | null | undefined} */
  slice(at) {
    if (at.g) {
      const g = at.g;
      if (g.text === null) g.text = g.el.textContent || '';
      Store.use(this.texts, g, Store.GROUP_TEXTS);
      return g.text.substr(at.off, at.len);
    }
    const c = /** @type {StoreChunk} */ (at.c);
    if (c.failed || !this.utf8) return null;
    if (c.bytes === null) return undefined;
    Store.use(this.unpacked, c, Store.CHUNKS_KEPT);
    return this.utf8.decode(c.bytes.subarray(at.off, at.off + at.len));
  }

  /**
   * html returns entry i's article as HTML: a string; undefined when its
   * block has not arrived or its chunk is not unpacked yet (see fetch);
   * null when this browser cannot unpack it.
   * @param {number} i
   */
  html(i) {
    const at = this.loc[i];
    return at ? this.slice(at) : undefined;
  }

  /**
   * fetch unpacks the chunks that hold the entries of list, and resolves
   * once they are unpacked (entries not arrived yet are left for later).
   * @param {ArrayLike<number>} list
   * @returns {Promise<unknown>}
   */
  fetch(list) {
    /** @type {StoreChunk[]} */
    const need = [];
    for (let j = 0; j < list.length; j++) {
      const at = this.loc[list[j]];
      if (at && at.c && at.c.bytes === null && !at.c.failed && need.indexOf(at.c) < 0) need.push(at.c);
    }
    return Promise.all(need.map((c) => this.unpack(c)));
  }

  /** panel resolves with the HTML of a sub-agent's transcript, or null. @param {string} id @returns {Promise<string | null | undefined>} */
  panel(id) {
    const at = this.panels.get(id);
    if (!at || !at.c) return Promise.resolve(null);
    return this.unpack(at.c).then(() => this.slice(at));
  }

  /**
   * unpack decodes a chunk, each in a task of its own, so that a branch
   * that needs a hundred chunks never decodes them in one.
   * @param {StoreChunk} c @returns {Promise<void>}
   */
  unpack(c) {
    if (c.bytes !== null || c.failed) return Promise.resolve();
    if (c.pending) return c.pending;
    if (!this.canUnpack) {
      c.failed = true;
      return Promise.resolve();
    }
    c.pending = new Promise((ok) => { setTimeout(ok, 0); }).then(() => {
      const stream = new Blob([Store.decodeBase64(c.el.textContent || '')]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer();
    }).then((buf) => {
      c.bytes = new Uint8Array(buf);
      Store.use(this.unpacked, c, Store.CHUNKS_KEPT);
    }, () => {
      c.failed = true;
    }).then(() => { c.pending = null; });
    return c.pending;
  }

  /** dispose forgets the listeners: nothing is told any more. */
  dispose() { this.listeners = []; }

  /** decodeBase64 reads base64 in the URL alphabet without padding. @param {string} s @returns {Uint8Array<ArrayBuffer>} */
  static decodeBase64(s) {
    const typed = /** @type {{fromBase64?: (s: string, o: object) => Uint8Array<ArrayBuffer>}} */ (/** @type {unknown} */ (Uint8Array));
    if (typeof typed.fromBase64 === 'function') return typed.fromBase64(s, { alphabet: 'base64url' });
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = new Uint8Array(bin.length);
    for (let j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
    return bytes;
  }
}
