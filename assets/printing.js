// @ts-check
// Printing: a printout shows the path, as the screen does: folded
// outputs as their first lines and "N more lines", thinking closed unless
// opened. Cards short enough to fit on a page are kept whole (.keep);
// longer ones break where they must, so no page is left nearly empty.
//
// A long path is thousands of pages and minutes of drawing, so Ctrl+P
// (⌘P) on one asks first what to print: the entries on screen, the part
// around the entry in view, or everything (the whole path in view). The
// entries chosen are unpacked and drawn before the browser's print
// dialog opens, and stay drawn until it closes (PathView: drawRange).
// Printed from the browser's menu, which cannot be asked, the path prints
// whole unless it is so long that drawing it would not end (MENU_MOST):
// then the part around the entry in view, which the printout says.

/**
 * @typedef {object} PrintHooks
 * @property {() => number} entries the entries with an article on the path
 * @property {() => {from: number, to: number}} screen the entries drawn on screen, as positions in the path
 * @property {() => number} at the position of the entry in view
 * @property {(from: number, to: number) => number} size the length of the articles of positions from..to, in characters
 * @property {(from: number, to: number) => Promise<void>} draw unpacks and draws positions from..to, for printing, and keeps them drawn
 * @property {(from: number, to: number) => void} drawNow draws positions from..to at once, with what has been unpacked
 * @property {() => void} after goes back to drawing what is in view
 */

class Printing {
  static KEEP_PX = 480;
  static LONG = 400; // entries: a longer path asks what to print
  static AROUND = 50; // entries before and after the one in view, for the part around it
  static MENU_MOST = 5000; // entries: a longer path printed from the menu prints the part around the entry in view

  /** @param {Window} win @param {HTMLElement} pathEl @param {PrintHooks} on */
  constructor(win, pathEl, on) {
    this.win = win;
    this.doc = win.document;
    this.pathEl = pathEl;
    this.on = on;
    /** @type {Element[]} the cards marked to be kept whole */
    this.kept = [];
    this.ready = false; // what to print has been chosen and drawn
    /** @type {HTMLDialogElement | null} */
    this.dialog = null;
    /** @type {HTMLElement | null} what the printout says it left out */
    this.note = null;
    this.stop = new AbortController();
    const signal = this.stop.signal;
    win.addEventListener('keydown', (ev) => {
      if (ev.key.toLowerCase() !== 'p' || !(ev.ctrlKey || ev.metaKey) || ev.altKey || ev.shiftKey) return;
      if (this.on.entries() <= Printing.LONG) return;
      ev.preventDefault();
      this.ask();
    }, { signal, capture: true });
    win.addEventListener('beforeprint', () => {
      if (!this.ready) {
        const n = this.on.entries();
        const part = n <= Printing.MENU_MOST ? { from: 0, to: n } : this.around();
        this.on.drawNow(part.from, part.to);
        if (part.to - part.from < n) this.say(part, n);
      }
      for (const el of pathEl.querySelectorAll(':scope > article, :scope > article .tool')) {
        if (el.getBoundingClientRect().height < Printing.KEEP_PX) this.kept.push(el);
      }
      for (const el of this.kept) el.classList.add('keep');
    }, { signal });
    win.addEventListener('afterprint', () => {
      this.ready = false;
      this.unkeep();
      this.on.after();
    }, { signal });
  }

  /** around is the part of the path around the entry in view. */
  around() {
    const n = this.on.entries();
    const k = this.on.at();
    const wide = 2 * Printing.AROUND + 1;
    // Near an end of the path, as many entries, from the end.
    const from = Math.max(0, Math.min(k - Printing.AROUND, n - wide));
    return { from, to: Math.min(n, from + wide) };
  }

  /**
   * ask opens the dialog that asks what to print; a choice draws it and
   * prints it.
   */
  ask() {
    const doc = this.doc;
    if (!this.dialog) {
      const d = this.dialog = doc.createElement('dialog');
      d.className = 'print-choice';
      d.setAttribute('aria-labelledby', 'print-choice-title');
      // Its keys are its own (Escape closes it, and does not go back to
      // the leaf as the page's Escape does).
      d.addEventListener('keydown', (ev) => { ev.stopPropagation(); }, { signal: this.stop.signal });
      doc.body.appendChild(d);
    }
    const d = this.dialog;
    const n = this.on.entries();
    const screen = this.on.screen();
    const part = this.around();
    const count = (/** @type {number} */ k) => String(k).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (k === 1 ? ' entry' : ' entries');
    const mb = (this.on.size(0, n) / 1048576).toFixed(1);
    d.textContent = '';
    const h = doc.createElement('h2');
    h.id = 'print-choice-title';
    h.textContent = 'Print this session';
    const p = doc.createElement('p');
    p.textContent = 'The path in view has ' + count(n) + ' (' + mb + ' MB): printing all of it makes many pages and takes a while.';
    d.appendChild(h);
    d.appendChild(p);
    const choices = doc.createElement('div');
    choices.className = 'print-choices';
    /** @param {string} label @param {{from: number, to: number} | null} range */
    const choice = (label, range) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = 'btn';
      b.textContent = label;
      b.addEventListener('click', () => {
        d.close();
        if (range) this.print(range.from, range.to);
      });
      choices.appendChild(b);
      return b;
    };
    const first = choice('The entries on screen (' + count(screen.to - screen.from) + ')', screen);
    choice('Around the entry in view (' + count(part.to - part.from) + ')', part);
    choice('Everything (' + count(n) + ')', { from: 0, to: n });
    choice('Cancel', null);
    d.appendChild(choices);
    d.showModal();
    first.focus();
  }

  /**
   * print draws positions from..to of the path, then opens the browser's
   * print dialog.
   * @param {number} from @param {number} to
   */
  print(from, to) {
    this.pathEl.setAttribute('aria-busy', 'true');
    this.on.draw(from, to).then(() => {
      this.pathEl.removeAttribute('aria-busy');
      this.ready = true;
      // A frame later, so the entries drawn are laid out.
      requestAnimationFrame(() => { setTimeout(() => { this.win.print(); }, 0); });
    });
  }

  /**
   * say puts at the top of the printout which part of the path it holds.
   * @param {{from: number, to: number}} part @param {number} n
   */
  say(part, n) {
    if (!this.note) {
      this.note = this.doc.createElement('p');
      this.note.className = 'print-note';
      this.pathEl.before(this.note);
    }
    this.note.textContent = 'Entries ' + (part.from + 1) + ' to ' + part.to + ' of the ' + n +
      ' of this path: Ctrl+P on the page offers to print all of them.';
  }

  unkeep() {
    for (const el of this.kept) el.classList.remove('keep');
    this.kept = [];
    if (this.note) { this.note.remove(); this.note = null; }
  }

  dispose() {
    this.stop.abort();
    this.unkeep();
    if (this.dialog) this.dialog.remove();
  }
}
