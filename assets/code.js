// @ts-check
// Code: a Copy button on each code block and tool output, as entries are
// drawn, and the session file for download when the page carries it
// (page/jsonl.go).

class CodeBlocks {
  static BLOCKS = 'pre.chroma, pre.diff, pre.output';
  // A highlighted block's text and its runs (see render.HighlightClasses).
  static RUNS = /<code data-hl="([.a-zA-Z0-9]*)">([^<]*)<\/code>/g;
  static RUN = /([.a-zA-Z])(\d+)/g;

  /**
   * spans writes the runs of the highlighted code in html as spans of
   * their classes, before the HTML becomes elements: the page carries
   * runs, a few bytes each, where spans would be most of its bytes.
   * Lengths count UTF-16 code units of the text, a character reference
   * one.
   * @param {string} html @param {string[]} classes the classes of the runs' letters (PageConfig.highlight)
   */
  static spans(html, classes) {
    if (html.indexOf(' data-hl="') < 0) return html;
    return html.replace(CodeBlocks.RUNS, (all, runs, text) => {
      let out = '<code>';
      let at = 0;
      for (const m of runs.matchAll(CodeBlocks.RUN)) {
        const start = at;
        for (let n = Number(m[2]); n > 0 && at < text.length; n--) {
          if (text.charCodeAt(at) === 38) {
            const semi = text.indexOf(';', at);
            at = semi < 0 ? at + 1 : semi + 1;
          } else {
            at++;
          }
        }
        const piece = text.slice(start, at);
        const letter = m[1].charCodeAt(0);
        const cls = m[1] === '.' ? '' : classes[letter >= 97 ? letter - 97 : letter - 65 + 26];
        out += cls ? '<span class=' + cls + '>' + piece + '</span>' : piece;
      }
      return out + text.slice(at) + '</code>';
    });
  }

  /**
   * @param {Document} doc
   * @param {(details: Element) => void} opened fills a fold's lines before they are copied
   */
  constructor(doc, opened) {
    this.opened = opened;
    this.stop = new AbortController();
    doc.addEventListener('click', (ev) => {
      const button = ev.target instanceof Element ? ev.target.closest('button.copy-code') : null;
      if (!button || !button.parentElement) return;
      const pre = button.parentElement.querySelector(CodeBlocks.BLOCKS);
      if (!pre) return;
      clipboard.copy(this.blockText(pre), () => {
        button.textContent = 'Copied';
        setTimeout(() => { button.textContent = 'Copy'; }, 1200);
      });
    }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }

  /**
   * blockText is what Copy copies: the code without line numbers, and the
   * lines folded under "N more lines" after it.
   * @param {Element} pre
   */
  blockText(pre) {
    const code = pre.querySelector(':scope > code') || pre;
    let text = code.textContent || '';
    const box = pre.parentElement && pre.parentElement.classList.contains('code-box') ? pre.parentElement : pre;
    const more = box.nextElementSibling;
    if (more && more.tagName === 'DETAILS' && more.classList.contains('more')) {
      this.opened(more);
      const rest = more.querySelector(CodeBlocks.BLOCKS);
      if (rest) text = text.replace(/\n?$/, '\n') + ((rest.querySelector(':scope > code') || rest).textContent || '');
    }
    return text;
  }

  /** decorate adds the buttons to the blocks inside root. @param {Element} root */
  decorate(root) {
    const list = root.querySelectorAll(CodeBlocks.BLOCKS);
    for (const pre of list) {
      const parent = pre.parentElement;
      if (!parent || parent.classList.contains('code-box')) continue;
      // The folded rest of an output is copied with its first lines.
      if (parent.tagName === 'DETAILS' && parent.classList.contains('more')) continue;
      const box = document.createElement('div');
      box.className = 'code-box';
      parent.insertBefore(box, pre);
      box.appendChild(pre);
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy this block');
      box.appendChild(button);
    }
  }
}

// SessionDownload wires the header's Download button to the session file
// the page carries, or hides it.
class SessionDownload {
  /** @param {Document} doc */
  constructor(doc) {
    this.stop = new AbortController();
    const download = doc.getElementById('download-jsonl');
    const packed = doc.getElementById('session-jsonl');
    if (!download) return;
    if (!packed || typeof DecompressionStream === 'undefined') {
      download.hidden = true;
      return;
    }
    download.addEventListener('click', () => {
      const stream = new Blob([Store.decodeBase64(packed.textContent || '')]).stream().pipeThrough(new DecompressionStream('gzip'));
      new Response(stream).blob().then((blob) => {
        const a = doc.createElement('a');
        a.href = URL.createObjectURL(new Blob([blob], { type: 'application/x-ndjson' }));
        a.download = packed.getAttribute('data-name') || 'session.jsonl';
        doc.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => { URL.revokeObjectURL(a.href); }, 60000);
      });
    }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }
}
