// @ts-check
// Sealed: the script of an encrypted page (see page/encrypt.go). It asks
// for the passphrase, derives the key with WebCrypto (PBKDF2-SHA-256),
// opens every sealed segment (AES-256-GCM) before it shows anything, then
// replaces this small page with the page it holds, unpacked as it is
// written, so that the page's own script runs as it does from a file.

/** @typedef {Error & {wrong?: boolean, damaged?: boolean}} OpenError why a page did not open: a wrong passphrase, or a damaged file */
/** @typedef {{iterations: number, salt: Uint8Array<ArrayBuffer>, check: Uint8Array<ArrayBuffer> | null}} SealParams */

(function () {
  'use strict';

  var doc = document;
  var SEALED = 'script[type="application/x-piexport-sealed"]';
  doc.documentElement.classList.add('js');

  /** @param {string} text @param {boolean} [problem] */
  function status(text, problem) {
    var el = doc.getElementById('unlock-status');
    if (!el) return;
    el.textContent = text;
    el.classList.toggle('problem', !!problem);
  }

  /** @param {boolean} on */
  function busy(on) {
    var input = /** @type {HTMLInputElement | null} */ (doc.getElementById('passphrase'));
    var button = /** @type {HTMLButtonElement | null} */ (doc.getElementById('unlock-button'));
    if (input) input.disabled = on;
    if (button) button.disabled = on;
    var form = doc.getElementById('unlock');
    if (form) form.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  // parsed resolves once the whole file has been read: the sealed
  // segments come after the passphrase box, and a large file may still
  // be arriving when the reader has typed.
  /** @returns {Promise<void>} */
  function parsed() {
    if (doc.readyState !== 'loading') return Promise.resolve();
    return new Promise(/** @param {() => void} resolve */ function (resolve) {
      doc.addEventListener('DOMContentLoaded', function () { resolve(); }, { once: true });
    });
  }

  // The rules below are DecryptPage's (page/decrypt.go), in the same
  // order: a file opens, or is refused for a wrong passphrase, or as
  // damaged, alike in both (page/encrypt_test.go runs both on the same
  // changed files).

  var ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  var SIXBITS = new Int8Array(128).fill(-1);
  for (var a = 0; a < 64; a++) SIXBITS[ALPHABET.charCodeAt(a)] = a;

  // canonicalBase64 says whether s is standard base64 with its padding
  // as Go writes it: nothing else, not even white space, and no bits set
  // past the data.
  /** @param {string} s */
  function canonicalBase64(s) {
    var n = s.length;
    if (n % 4) return false;
    var pad = n && s.charCodeAt(n - 1) === 61 ? (s.charCodeAt(n - 2) === 61 ? 2 : 1) : 0;
    for (var i = 0; i < n - pad; i++) {
      var c = s.charCodeAt(i);
      if (c >= 128 || SIXBITS[c] < 0) return false;
    }
    // The last character before the padding carries no data in its low
    // 4 (two =) or 2 (one =) bits.
    return pad === 0 || (SIXBITS[s.charCodeAt(n - pad - 1)] & (pad === 2 ? 15 : 3)) === 0;
  }

  // fromBase64 decodes s, which canonicalBase64 accepted.
  /** @param {string} s @returns {Uint8Array<ArrayBuffer>} */
  function fromBase64(s) {
    var typed = /** @type {{fromBase64?: (s: string) => Uint8Array<ArrayBuffer>}} */ (/** @type {unknown} */ (Uint8Array));
    if (typeof typed.fromBase64 === 'function') return typed.fromBase64(s);
    var bin = atob(s);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // readParams reads the parameters' JSON: exact keys, each value of its
  // kind; null when they are not those of a page this script opens.
  /** @param {string} text @returns {SealParams | null} */
  function readParams(text) {
    var p;
    try {
      p = JSON.parse(text);
    } catch (e) {
      return null;
    }
    if (!p || typeof p !== 'object' || Array.isArray(p)) return null;
    /** @param {unknown} v @param {number} lo @param {number} hi */
    function integer(v, lo, hi) { return typeof v === 'number' && Math.floor(v) === v && v >= lo && v <= hi; }
    /** @param {unknown} v */
    function bytes16(v) { return typeof v === 'string' && canonicalBase64(v) && fromBase64(v).length === 16; }
    if (!integer(p.v, 1, 1) || p.kdf !== 'PBKDF2-SHA-256' || p.cipher !== 'AES-256-GCM' || p.compression !== 'gzip' ||
      !integer(p.iterations, 1, 10000000) || !integer(p.segment, 1, 2147483647) || !bytes16(p.salt)) return null;
    var hasCheck = Object.prototype.hasOwnProperty.call(p, 'check');
    if (hasCheck && !bytes16(p.check)) return null;
    return { iterations: p.iterations, salt: fromBase64(p.salt), check: hasCheck ? fromBase64(p.check) : null };
  }

  // nonce is segment i's: i in 11 bytes, big-endian, then 1 for the last;
  // the check's is 11 zero bytes, then 2.
  /** @param {number} i @param {boolean} last */
  function nonce(i, last) {
    var n = new Uint8Array(12);
    for (var k = 10; k >= 3 && i > 0; k--) {
      n[k] = i % 256;
      i = Math.floor(i / 256);
    }
    n[11] = last ? 1 : 0;
    return n;
  }
  function checkNonce() {
    var n = new Uint8Array(12);
    n[11] = 2;
    return n;
  }

  /** @param {string} passphrase @param {SealParams} params */
  function deriveKey(passphrase, params) {
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) return Promise.reject(new Error('this browser cannot decrypt (no WebCrypto)'));
    return subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']).then(function (base) {
      return subtle.deriveKey(
        { name: 'PBKDF2', salt: params.salt, iterations: params.iterations, hash: 'SHA-256' },
        base, { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
    });
  }

  function wrong() {
    var e = /** @type {OpenError} */ (new Error('wrong'));
    e.wrong = true;
    return e;
  }

  // checkKey resolves when the key opens the check (a page without one
  // has nothing to check), and rejects with wrong set when it does not.
  /** @param {CryptoKey} key @param {SealParams} params @returns {Promise<void>} */
  function checkKey(key, params) {
    if (!params.check) return Promise.resolve();
    return crypto.subtle.decrypt({ name: 'AES-GCM', iv: checkNonce() }, key, params.check).then(function () {}, function () {
      return Promise.reject(wrong());
    });
  }

  // openAll opens every segment, in order. Without a check, a first one
  // that does not open says the passphrase is wrong, as it did before
  // pages had one.
  /** @param {CryptoKey} key @param {string[]} blocks @param {boolean} firstTellsPassphrase @returns {Promise<Uint8Array<ArrayBuffer>[]>} */
  function openAll(key, blocks, firstTellsPassphrase) {
    /** @type {Uint8Array<ArrayBuffer>[]} */
    var parts = [];
    var i = 0;
    /** @returns {Promise<Uint8Array<ArrayBuffer>[]>} */
    function next() {
      if (i === blocks.length) return Promise.resolve(parts);
      var k = i++;
      var sealed = fromBase64(blocks[k]);
      return crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce(k, k === blocks.length - 1) }, key, sealed).then(function (plain) {
        parts.push(new Uint8Array(plain));
        if (blocks.length > 4) status('Decrypting… ' + Math.round(100 * (k + 1) / blocks.length) + '%');
        return next();
      }, function () {
        return Promise.reject(k === 0 && firstTellsPassphrase ? wrong() : damaged());
      });
    }
    return next();
  }

  function damaged() {
    var e = /** @type {OpenError} */ (new Error('damaged'));
    e.damaged = true;
    return e;
  }

  // pause lets the browser draw and answer the reader: unpacking and
  // writing would otherwise run as one long task, and the page's end of
  // the path, written first, would show only once the whole page is in.
  /** @returns {Promise<void>} */
  function pause() {
    return new Promise(/** @param {() => void} resolve */ function (resolve) { setTimeout(resolve, 0); });
  }

  // show replaces this page with the one parts hold (gzipped), written
  // into the document as it is unpacked, a slice of time at a time.
  /** @param {Uint8Array<ArrayBuffer>[] | null} parts */
  function show(parts) {
    var text = new Blob(parts || []).stream()
      .pipeThrough(new DecompressionStream('gzip'))
      .pipeThrough(new TextDecoderStream());
    parts = null;
    var reader = text.getReader();
    doc.open();
    var slice = performance.now();
    /** @returns {Promise<void>} */
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) {
          doc.close();
          return;
        }
        doc.write(r.value);
        if (performance.now() - slice < 40) return pump();
        return pause().then(function () {
          slice = performance.now();
          return pump();
        });
      });
    }
    return pump();
  }

  var working = false;
  doc.addEventListener('submit', function (ev) {
    if (!(ev.target instanceof Element) || ev.target.id !== 'unlock') return;
    ev.preventDefault();
    if (working) return;
    var input = /** @type {HTMLInputElement | null} */ (doc.getElementById('passphrase'));
    var passphrase = input ? input.value : '';
    if (!passphrase) {
      status('Enter the passphrase.', true);
      return;
    }
    if (typeof DecompressionStream === 'undefined' || typeof TextDecoderStream === 'undefined' || !window.crypto || !window.crypto.subtle) {
      status('This browser cannot decrypt the page: it needs WebCrypto and DecompressionStream (browsers from 2023 on).', true);
      return;
    }
    working = true;
    busy(true);
    status('Opening…');
    parsed().then(function () {
      var el = doc.getElementById('sealed-params');
      var params = el ? readParams(el.textContent || '') : null;
      if (!params) throw damaged();
      var sealed = params;
      var found = doc.querySelectorAll(SEALED);
      if (!found.length) throw damaged();
      /** @type {string[]} */
      var blocks = [];
      for (var i = 0; i < found.length; i++) {
        blocks.push(found[i].textContent || '');
        if (!canonicalBase64(blocks[i])) throw damaged();
      }
      // A page with a check was sealed with the passphrase in NFC (see
      // page.CheckPassphrase): the same text typed elsewhere may arrive
      // composed or not.
      var key = sealed.check ? passphrase.normalize('NFC') : passphrase;
      return deriveKey(key, sealed).then(function (k) {
        return checkKey(k, sealed).then(function () { return openAll(k, blocks, !sealed.check); });
      });
    }).then(show, /** @param {OpenError} e */ function (e) {
      working = false;
      busy(false);
      if (e && e.wrong) {
        status('That passphrase does not open this page. Nothing was shown; try again.', true);
        if (input) {
          input.value = '';
          input.focus();
        }
      } else if (e && e.damaged) {
        status('This file is damaged or was changed after it was encrypted: it cannot be opened.', true);
      } else {
        status('The page could not be opened: ' + (e && e.message ? e.message : String(e)), true);
      }
    });
  });
})();
