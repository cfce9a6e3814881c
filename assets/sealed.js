// Sealed: the script of an encrypted page (see page/encrypt.go). It asks
// for the passphrase, derives the key with WebCrypto (PBKDF2-SHA-256),
// opens every sealed segment (AES-256-GCM) before it shows anything, then
// replaces this small page with the page it holds, unpacked as it is
// written, so that the page's own script runs as it does from a file.
(function () {
  'use strict';

  var doc = document;
  var SEALED = 'script[type="application/x-piexport-sealed"]';
  doc.documentElement.classList.add('js');

  function status(text, problem) {
    var el = doc.getElementById('unlock-status');
    if (!el) return;
    el.textContent = text;
    el.classList.toggle('problem', !!problem);
  }

  function busy(on) {
    var input = doc.getElementById('passphrase');
    var button = doc.getElementById('unlock-button');
    if (input) input.disabled = on;
    if (button) button.disabled = on;
    var form = doc.getElementById('unlock');
    if (form) form.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  // parsed resolves once the whole file has been read: the sealed
  // segments come after the passphrase box, and a large file may still
  // be arriving when the reader has typed.
  function parsed() {
    if (doc.readyState !== 'loading') return Promise.resolve();
    return new Promise(function (resolve) {
      doc.addEventListener('DOMContentLoaded', function () { resolve(); }, { once: true });
    });
  }

  function fromBase64(s) {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s.trim());
    var bin = atob(s); // atob passes over white space
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // nonce is segment i's: i in 11 bytes, big-endian, then 1 for the last.
  function nonce(i, last) {
    var n = new Uint8Array(12);
    for (var k = 10; k >= 3 && i > 0; k--) {
      n[k] = i % 256;
      i = Math.floor(i / 256);
    }
    n[11] = last ? 1 : 0;
    return n;
  }

  function deriveKey(passphrase, params) {
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) return Promise.reject(new Error('this browser cannot decrypt (no WebCrypto)'));
    return subtle.importKey('raw', new TextEncoder().encode(passphrase), 'PBKDF2', false, ['deriveKey']).then(function (base) {
      return subtle.deriveKey(
        { name: 'PBKDF2', salt: fromBase64(params.salt), iterations: params.iterations, hash: 'SHA-256' },
        base, { name: 'AES-GCM', length: 256 }, false, ['decrypt']);
    });
  }

  // openAll opens every segment, in order; it rejects with wrong set
  // when the first one does not open (the passphrase is wrong).
  function openAll(key, blocks) {
    var parts = [];
    var i = 0;
    function next() {
      if (i === blocks.length) return Promise.resolve(parts);
      var k = i++;
      var sealed;
      try {
        sealed = fromBase64(blocks[k].textContent);
      } catch (e) {
        return Promise.reject(damaged());
      }
      return crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce(k, k === blocks.length - 1) }, key, sealed).then(function (plain) {
        parts.push(new Uint8Array(plain));
        if (blocks.length > 4) status('Decrypting… ' + Math.round(100 * (k + 1) / blocks.length) + '%');
        return next();
      }, function () {
        if (k === 0) {
          var e = new Error('wrong');
          e.wrong = true;
          return Promise.reject(e);
        }
        return Promise.reject(damaged());
      });
    }
    return next();
  }

  function damaged() {
    var e = new Error('damaged');
    e.damaged = true;
    return e;
  }

  // pause lets the browser draw and answer the reader: unpacking and
  // writing would otherwise run as one long task, and the page's end of
  // the path, written first, would show only once the whole page is in.
  function pause() {
    return new Promise(function (resolve) { setTimeout(resolve, 0); });
  }

  // show replaces this page with the one parts hold (gzipped), written
  // into the document as it is unpacked, a slice of time at a time.
  function show(parts) {
    var text = new Blob(parts).stream()
      .pipeThrough(new DecompressionStream('gzip'))
      .pipeThrough(new TextDecoderStream());
    parts = null;
    var reader = text.getReader();
    doc.open();
    var slice = performance.now();
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
    if (!ev.target || ev.target.id !== 'unlock') return;
    ev.preventDefault();
    if (working) return;
    var input = doc.getElementById('passphrase');
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
      var params = JSON.parse(doc.getElementById('sealed-params').textContent);
      var blocks = doc.querySelectorAll(SEALED);
      if (!blocks.length) throw damaged();
      return deriveKey(passphrase, params).then(function (key) {
        return openAll(key, blocks);
      });
    }).then(show, function (e) {
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
