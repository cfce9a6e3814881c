// Store: where each entry's article is in the page, and its HTML when it
// is needed (see the package doc of page/ for the blocks).
//
// The path in view comes in groups: <noscript class="g">, whose text is
// the HTML of its articles one after another, and whose data-map lists
// [entry, length] for each, lengths in UTF-16 code units; the groups of
// the end of the path come twice, early (an inert script of the same
// text) and in their place. Everything else
// comes in packed chunks: <script type="application/x-piexport-pack">,
// gzipped HTML in base64, whose map lists [entry or panel id, length in
// bytes]. A block is told to the store (arrived) once the parser has read
// it whole; a chunk is unpacked the first time something in it is
// needed, and only a few are kept unpacked.
(function (lib) {
  'use strict';

  // How many groups keep their text as one string, and how many chunks
  // stay unpacked, between uses.
  var GROUP_TEXTS = 8;
  var CHUNKS_KEPT = 48;

  function Store(n) {
    this.n = n;
    // loc[i] is where entry i's article is: { g: group, off, len } or
    // { c: chunk, off, len }; undefined until its block has arrived.
    this.loc = new Array(n);
    this.panels = new Map(); // panel id -> location in a chunk
    this.texts = []; // groups whose text is held, least recently used first
    this.unpacked = []; // chunks unpacked, least recently used first
    this.listeners = [];
    this.complete = false;
    this.utf8 = typeof TextDecoder === 'undefined' ? null : new TextDecoder();
    this.canUnpack = typeof DecompressionStream !== 'undefined' && typeof Response !== 'undefined' && this.utf8 !== null;
  }

  // onArrive calls fn with the entries whose articles have become known,
  // and with null once every block has arrived.
  Store.prototype.onArrive = function (fn) { this.listeners.push(fn); };

  Store.prototype.tell = function (list) {
    for (var j = 0; j < this.listeners.length; j++) this.listeners[j](list);
  };

  // arrived takes a block the parser has read whole.
  Store.prototype.arrived = function (el) {
    if (!el || el.hasAttribute('data-stored')) return;
    var map;
    try { map = JSON.parse(el.getAttribute('data-map') || '[]'); } catch (e) { return; }
    el.setAttribute('data-stored', '');
    var list = [];
    var off = 0;
    var block;
    // A group is text: a <noscript>, or its early copy, an inert script.
    var group = el.tagName === 'NOSCRIPT' || el.getAttribute('type') === 'application/x-piexport-group';
    if (group) {
      block = { el: el, text: null };
    } else {
      block = { el: el, bytes: null, pending: null, failed: false };
    }
    for (var j = 0; j < map.length; j++) {
      var key = map[j][0], len = map[j][1];
      var at = group ? { g: block, off: off, len: len } : { c: block, off: off, len: len };
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
  };

  // finish says every block has arrived (DOMContentLoaded).
  Store.prototype.finish = function () {
    if (this.complete) return;
    var blocks = document.querySelectorAll('#entries > noscript.g[data-map]:not([data-stored]), #entries > script[data-map]:not([data-stored])');
    for (var j = 0; j < blocks.length; j++) this.arrived(blocks[j]);
    this.complete = true;
    this.tell(null);
  };

  Store.prototype.known = function (i) { return this.loc[i] !== undefined; };

  // ready says whether html(i) has the article now, without waiting.
  Store.prototype.ready = function (i) {
    var at = this.loc[i];
    return !!at && (at.g !== undefined || at.c.bytes !== null || at.c.failed);
  };

  function use(list, item, keep) {
    var k = list.indexOf(item);
    if (k >= 0) list.splice(k, 1);
    list.push(item);
    while (list.length > keep) {
      var old = list.shift();
      if (old.text !== undefined) old.text = null;
      else old.bytes = null;
    }
  }

  Store.prototype.slice = function (at) {
    if (at.g) {
      var g = at.g;
      if (g.text === null) g.text = g.el.textContent;
      use(this.texts, g, GROUP_TEXTS);
      return g.text.substr(at.off, at.len);
    }
    var c = at.c;
    if (c.failed) return null;
    if (c.bytes === null) return undefined;
    use(this.unpacked, c, CHUNKS_KEPT);
    return this.utf8.decode(c.bytes.subarray(at.off, at.off + at.len));
  };

  // html returns entry i's article as HTML: a string; undefined when its
  // block has not arrived or its chunk is not unpacked yet (see fetch);
  // null when this browser cannot unpack it.
  Store.prototype.html = function (i) {
    var at = this.loc[i];
    return at ? this.slice(at) : undefined;
  };

  // fetch unpacks the chunks that hold the entries of list, and resolves
  // once they are unpacked (entries not arrived yet are left for later).
  Store.prototype.fetch = function (list) {
    var need = [];
    for (var j = 0; j < list.length; j++) {
      var at = this.loc[list[j]];
      if (at && at.c && at.c.bytes === null && !at.c.failed && need.indexOf(at.c) < 0) need.push(at.c);
    }
    var self = this;
    return Promise.all(need.map(function (c) { return self.unpack(c); }));
  };

  // panel resolves with the HTML of a sub-agent's transcript, or null.
  Store.prototype.panel = function (id) {
    var at = this.panels.get(id);
    if (!at) return Promise.resolve(null);
    var self = this;
    return this.unpack(at.c).then(function () { return self.slice(at); });
  };

  // unpack decodes a chunk, each in a task of its own, so that a branch
  // that needs a hundred chunks never decodes them in one.
  Store.prototype.unpack = function (c) {
    if (c.bytes !== null || c.failed) return Promise.resolve();
    if (c.pending) return c.pending;
    var self = this;
    if (!this.canUnpack) {
      c.failed = true;
      return Promise.resolve();
    }
    c.pending = new Promise(function (ok) { setTimeout(ok, 0); }).then(function () {
      var stream = new Blob([decodeBase64(c.el.textContent)]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer();
    }).then(function (buf) {
      c.bytes = new Uint8Array(buf);
      use(self.unpacked, c, CHUNKS_KEPT);
    }, function () {
      c.failed = true;
    }).then(function () { c.pending = null; });
    return c.pending;
  };

  // decodeBase64 reads base64 in the URL alphabet without padding.
  function decodeBase64(s) {
    if (typeof Uint8Array.fromBase64 === 'function') {
      return Uint8Array.fromBase64(s, { alphabet: 'base64url' });
    }
    var bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
    var bytes = new Uint8Array(bin.length);
    for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
    return bytes;
  }

  lib.Store = Store;
  lib.decodeBase64 = decodeBase64;
})(window.piexportLib = window.piexportLib || {});
