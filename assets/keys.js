// @ts-check
// Keys: the page's keyboard shortcuts. A key is bound to what it does by
// its name (KeyboardEvent.key); a key pressed with Ctrl, Alt or Meta, or
// one something else has handled (the tree's own keys), is left alone,
// and so is every key but Escape while the reader types in a field.

/** @typedef {(ev: KeyboardEvent, typing: HTMLElement | null) => void} KeyAction typing: the field the reader types in, if any */

class Keys {
  /** @param {Document} doc @param {Record<string, KeyAction>} bindings */
  constructor(doc, bindings) {
    this.bindings = bindings;
    this.stop = new AbortController();
    doc.addEventListener('keydown', (ev) => { this.key(ev); }, { signal: this.stop.signal });
  }

  dispose() { this.stop.abort(); }

  /** typing is the field t is, when the reader types in it; else null. @param {EventTarget | null} t */
  static typing(t) {
    if (!(t instanceof HTMLElement)) return null;
    return t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) ? t : null;
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    if (!Object.prototype.hasOwnProperty.call(this.bindings, ev.key)) return;
    const typing = Keys.typing(ev.target);
    if (typing && ev.key !== 'Escape') return;
    this.bindings[ev.key](ev, typing);
  }
}
