// Code: a Copy button on each code block and tool output, and the
// session file for download when the page carries it (page/jsonl.go).
//
// Buttons are added as entries become DOM (page.js keeps most of them as
// text until they are shown), a few at a time, never for the whole page.
(window.piexportParts = window.piexportParts || []).push(function (page) {
  'use strict';

  var doc = document;
  var BLOCKS = 'pre.chroma, pre.diff, pre.output';

  // blockText is what Copy copies: the code without line numbers, and the
  // lines folded under "N more lines" after it.
  function blockText(pre) {
    var code = pre.querySelector(':scope > code') || pre;
    var text = code.textContent;
    var box = pre.parentElement && pre.parentElement.classList.contains('code-box') ? pre.parentElement : pre;
    var more = box.nextElementSibling;
    if (more && more.tagName === 'DETAILS' && more.classList.contains('more')) {
      page.readyFolds(more);
      var rest = more.querySelector(BLOCKS);
      if (rest) text = text.replace(/\n?$/, '\n') + (rest.querySelector(':scope > code') || rest).textContent;
    }
    return text;
  }

  function addButtons(root) {
    var list = root.querySelectorAll(BLOCKS);
    for (var j = 0; j < list.length; j++) {
      var pre = list[j];
      var parent = pre.parentElement;
      if (!parent || parent.classList.contains('code-box')) continue;
      // The folded rest of an output is copied with its first lines.
      if (parent.tagName === 'DETAILS' && parent.classList.contains('more')) continue;
      var box = doc.createElement('div');
      box.className = 'code-box';
      parent.insertBefore(box, pre);
      box.appendChild(pre);
      var button = doc.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy this block');
      box.appendChild(button);
    }
  }

  doc.addEventListener('click', function (ev) {
    var button = ev.target.closest ? ev.target.closest('button.copy-code') : null;
    if (!button) return;
    var pre = button.parentElement.querySelector(BLOCKS);
    if (!pre) return;
    page.copyText(blockText(pre), function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 1200);
    });
  });

  page.onMaterialize.push(addButtons);
  var ready = doc.querySelectorAll('#entries > article:not([hidden])');
  for (var i = 0; i < ready.length; i++) addButtons(ready[i]);

  // ---- the session file ------------------------------------------------------

  var download = doc.getElementById('download-jsonl');
  var packed = doc.getElementById('session-jsonl');
  if (!download) return;
  if (!packed || typeof DecompressionStream === 'undefined') {
    download.hidden = true;
    return;
  }
  download.addEventListener('click', function () {
    var bin = atob(packed.textContent.replace(/-/g, '+').replace(/_/g, '/'));
    var bytes = new Uint8Array(bin.length);
    for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    new Response(stream).blob().then(function (blob) {
      var a = doc.createElement('a');
      a.href = URL.createObjectURL(new Blob([blob], { type: 'application/x-ndjson' }));
      a.download = packed.getAttribute('data-name') || 'session.jsonl';
      doc.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
    });
  });
});
