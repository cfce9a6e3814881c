// Code: a Copy button on each code block and tool output, as entries are
// drawn, and the session file for download when the page carries it
// (page/jsonl.go).
(function (lib) {
  'use strict';

  var BLOCKS = 'pre.chroma, pre.diff, pre.output';

  // Code: opened(details) fills a fold's lines before they are copied;
  // copy(text, done) puts text on the clipboard.
  function Code(opened, copy) {
    this.opened = opened;
    this.copy = copy;
    var self = this;
    document.addEventListener('click', function (ev) {
      var button = ev.target.closest ? ev.target.closest('button.copy-code') : null;
      if (!button) return;
      var pre = button.parentElement.querySelector(BLOCKS);
      if (!pre) return;
      self.copy(self.blockText(pre), function () {
        button.textContent = 'Copied';
        setTimeout(function () { button.textContent = 'Copy'; }, 1200);
      });
    });
  }

  // blockText is what Copy copies: the code without line numbers, and the
  // lines folded under "N more lines" after it.
  Code.prototype.blockText = function (pre) {
    var code = pre.querySelector(':scope > code') || pre;
    var text = code.textContent;
    var box = pre.parentElement && pre.parentElement.classList.contains('code-box') ? pre.parentElement : pre;
    var more = box.nextElementSibling;
    if (more && more.tagName === 'DETAILS' && more.classList.contains('more')) {
      this.opened(more);
      var rest = more.querySelector(BLOCKS);
      if (rest) text = text.replace(/\n?$/, '\n') + (rest.querySelector(':scope > code') || rest).textContent;
    }
    return text;
  };

  // decorate adds the buttons to the blocks inside root.
  Code.prototype.decorate = function (root) {
    var list = root.querySelectorAll(BLOCKS);
    for (var j = 0; j < list.length; j++) {
      var pre = list[j];
      var parent = pre.parentElement;
      if (!parent || parent.classList.contains('code-box')) continue;
      // The folded rest of an output is copied with its first lines.
      if (parent.tagName === 'DETAILS' && parent.classList.contains('more')) continue;
      var box = document.createElement('div');
      box.className = 'code-box';
      parent.insertBefore(box, pre);
      box.appendChild(pre);
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy this block');
      box.appendChild(button);
    }
  };

  // offerDownload wires the header's Download button to the session file
  // the page carries, or hides it.
  lib.offerDownload = function () {
    var download = document.getElementById('download-jsonl');
    var packed = document.getElementById('session-jsonl');
    if (!download) return;
    if (!packed || typeof DecompressionStream === 'undefined') {
      download.hidden = true;
      return;
    }
    download.addEventListener('click', function () {
      var stream = new Blob([lib.decodeBase64(packed.textContent)]).stream().pipeThrough(new DecompressionStream('gzip'));
      new Response(stream).blob().then(function (blob) {
        var a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([blob], { type: 'application/x-ndjson' }));
        a.download = packed.getAttribute('data-name') || 'session.jsonl';
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
      });
    });
  };

  lib.Code = Code;
})(window.piexportLib = window.piexportLib || {});
