// @ts-check
// Articles: what an entry's article needs once it is made: its folded
// lines, kept as text until a fold opens; its times in the reader's zone;
// Copy buttons on its code; the page's "Show all thinking" and "Show all
// tool output", which articles drawn later follow; and the transcripts of
// the sub-agents a task call started, unpacked under the agent's line.

class Articles {
  static TOGGLES = { thinking: 'details.thinking', output: 'details.more, .tool details:not(.thinking)' };

  /**
   * @param {Document} doc
   * @param {HTMLElement} pathEl the path's element, which holds the articles
   * @param {Store} store where the sub-agents' transcripts are
   * @param {PageConfig} config
   */
  constructor(doc, pathEl, store, config) {
    this.doc = doc;
    this.pathEl = pathEl;
    this.store = store;
    this.fold = new RegExp(Articles.literal(config.foldStart) + '([\\s\\S]*?)' + Articles.literal(config.foldEnd), 'g');
    this.classes = config.highlight;
    /** @type {WeakMap<Element, string[]>} per article, the HTML of its folded lines */
    this.folds = new WeakMap();
    this.tmpl = doc.createElement('template');
    /** @type {{thinking: boolean, output: boolean}} the blocks every article opens */
    this.modes = { thinking: false, output: false };
    this.code = new CodeBlocks(doc, (el) => { this.openFolds(el); });
    this.stop = new AbortController();
    const signal = this.stop.signal;
    pathEl.addEventListener('toggle', (ev) => {
      const d = ev.target;
      if (d instanceof HTMLDetailsElement && d.open) this.openFolds(d);
    }, { capture: true, signal });
    for (const button of doc.querySelectorAll('[data-toggle-all]')) {
      button.addEventListener('click', () => {
        const kind = button.getAttribute('data-toggle-all');
        if (kind === 'thinking' || kind === 'output') this.toggleAll(kind);
      }, { signal });
    }
    doc.addEventListener('click', (ev) => { this.subagent(ev); }, { signal });
  }

  dispose() {
    this.stop.abort();
    this.code.dispose();
  }

  /** literal is a pattern that matches s. @param {string} s */
  static literal(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

  /**
   * make turns entry i's HTML into its article; the folded lines become
   * empty slots, filled when their fold opens.
   * @param {number} i @param {string} html
   * @returns {HTMLElement | null}
   */
  make(i, html) {
    /** @type {string[]} */
    const parts = [];
    html = html.replace(this.fold, (all, inner) => {
      parts.push(inner);
      return '<span class="fold-slot" data-fold="' + (parts.length - 1) + '"></span>';
    });
    this.tmpl.innerHTML = CodeBlocks.spans(html, this.classes);
    const el = /** @type {HTMLElement | null} */ (this.tmpl.content.firstElementChild);
    if (!el) return null;
    this.tmpl.content.textContent = '';
    if (parts.length) this.folds.set(el, parts);
    return el;
  }

  /** openFolds makes the folded lines inside el elements. @param {Element} el */
  openFolds(el) {
    const art = el.closest('article[data-entry]');
    const parts = art && this.folds.get(art);
    if (!parts) return;
    const slots = el.querySelectorAll('.fold-slot');
    for (const slot of slots) {
      const t = this.doc.createElement('template');
      t.innerHTML = CodeBlocks.spans(parts[Number(slot.getAttribute('data-fold'))] || '', this.classes);
      slot.replaceWith(t.content);
    }
    if (slots.length) this.code.decorate(el);
  }

  /**
   * prepare readies an article the path view has put in the page: its
   * time, its code's buttons, the blocks the page's modes open.
   * @param {HTMLElement} art
   */
  prepare(art) {
    const head = art.firstElementChild;
    const t = head && head.getElementsByTagName('time')[0];
    if (t) times.localize(t, false);
    this.code.decorate(art);
    this.applyModes(art);
  }

  /** @param {Element} el */
  applyModes(el) {
    for (const kind of /** @type {const} */ (['thinking', 'output'])) {
      if (!this.modes[kind]) continue;
      for (const d of el.querySelectorAll(Articles.TOGGLES[kind])) {
        if (kind === 'output') this.openFolds(d);
        /** @type {HTMLDetailsElement} */ (d).open = true;
      }
    }
  }

  /**
   * toggleAll opens every block of a kind in the path, or closes them all;
   * the kind's button says which. Entries drawn later follow.
   * @param {'thinking' | 'output'} kind
   */
  toggleAll(kind) {
    const on = !this.modes[kind];
    this.modes[kind] = on;
    for (const d of this.pathEl.querySelectorAll(Articles.TOGGLES[kind])) {
      if (on && kind === 'output') this.openFolds(d);
      const details = /** @type {HTMLDetailsElement} */ (d);
      if (details.open !== on) details.open = on;
    }
    const button = this.doc.querySelector('[data-toggle-all="' + kind + '"]');
    if (button) {
      button.setAttribute('aria-pressed', String(on));
      button.textContent = (on ? 'Hide' : 'Show') + ' all ' + (kind === 'thinking' ? 'thinking' : 'tool output');
    }
  }

  /**
   * subagent opens or closes a sub-agent's transcript: a task call lists
   * the agents it started, and each one's transcript comes packed (see
   * page/subagents.go).
   * @param {MouseEvent} ev
   */
  subagent(ev) {
    const a = ev.target instanceof Element ? ev.target.closest('a.open-subagent') : null;
    if (!a || ev.button !== 0 || ev.metaKey || ev.ctrlKey) return;
    ev.preventDefault();
    const id = a.getAttribute('data-subagent') || '';
    const li = /** @type {Element} */ (a.closest('li') || a.parentElement);
    const panel = li.querySelector(':scope > section.subagent');
    if (panel) {
      panel.remove();
      a.setAttribute('aria-expanded', 'false');
      return;
    }
    a.setAttribute('aria-expanded', 'true');
    this.store.panel(id).then((html) => {
      /** @type {Element | null} */
      let section = null;
      if (typeof html === 'string') {
        const t = this.doc.createElement('template');
        t.innerHTML = CodeBlocks.spans(html.replace(this.fold, '$1'), this.classes);
        section = t.content.firstElementChild;
      }
      if (!section) {
        section = this.doc.createElement('p');
        section.className = 'unpack-failed';
        section.textContent = 'This browser could not unpack this transcript (it needs DecompressionStream).';
      }
      li.appendChild(section);
      for (const t of section.querySelectorAll('time')) times.localize(t, false);
      this.code.decorate(section);
    });
  }
}
