// @ts-check
// Archive search: queries the search index an archive carries beside its
// index page (search/, see package archive), from file:// and with no
// server. Browsers refuse fetch() of file:// URLs, so the index is a set
// of small scripts, each a call to window.piexportSearch with its data;
// this script adds them to the page one at a time, as a query needs them
// (the page's Content-Security-Policy lets exactly these run:
// 'strict-dynamic'). A query loads the meta file once, then for each word
// one shard of each segment, then the entries of the sessions it shows.
//
// The index is made of segments: a session's words are in the segment its
// slot names (the 6th field of meta.s), and the keys of its slot in other
// segments are dead. Words are made as the catalog makes them
// (catalog/tokens.go): runs of letters and digits, lower case, accents
// removed, every word; a word's shard is FNV-1a of its UTF-8 bytes modulo
// the segment's number of shards. An entry matches when it holds every
// word; a phrase's words need not be next to each other here, as they
// must on the server.
//
// The words, their hash and the query's syntax are copies of Go code
// (catalog/tokens.go, catalog/query.go, archive/search.go): they are
// archiveSearch's, and catalog/js_test.go and archive/js_test.go run the
// same cases through both. The dates are index.js's
// (sessionList.localDate), which is always loaded first.
/**
 * @typedef {object} SearchMeta the index's meta file
 * @property {[string, string, string, number, string, number][]} s per session slot: its page's URL, title, project, start (Unix seconds), entries file, segment
 * @property {{id: number, n: number}[]} g the segments: id, number of shards
 */
/** @typedef {[string, string, string]} SearchEntry an entry of a session's entries file: id, role, text */
/** @typedef {{words: string[], prefix: boolean}} SearchTerm */
/**
 * @typedef {object} SearchQuery a query as parse reads it
 * @property {SearchTerm[]} terms
 * @property {SearchTerm[]} not
 * @property {string[]} project
 * @property {string[]} model
 * @property {number | null} after
 * @property {number | null} before
 */
/** @typedef {{meta: SearchMeta, p: SearchQuery, keys: number[], docs: Record<string, SearchEntry[]>}} SearchResult */

const archiveSearch = (() => {
  'use strict';

  const doc = document;
  const ENTRY = 1048576; // 2^20: the low bits of a key number the entry
  const SHOWN = 50; // hits a page of results shows
  const BEFORE = 60, AROUND = 220; // a snippet: text before the match, and in all

  let base = '', metaFile = 'meta.js';
  /** @type {Record<string, {resolve: (v: any) => void, reject: (e: Error) => void}>} key → the load waiting for its data */
  const pending = {};
  /** @type {Record<string, Promise<any>>} */
  const loaded = {};

  // The calls the index's scripts make.
  const calls = {
    /** @param {SearchMeta} m */
    meta(m) { settle('meta', m); },
    /** @param {number} seg @param {number} k @param {Record<string, string>} words */
    shard(seg, k, words) { settle('g' + seg + 't' + k, words); },
    /** @param {string} name @param {SearchEntry[]} entries */
    doc(name, entries) { settle('d' + name, entries); },
  };

  /** @param {string} key @param {unknown} value */
  function settle(key, value) {
    const p = pending[key];
    if (p) { delete pending[key]; p.resolve(value); }
  }

  /**
   * load adds the script at src, whose call delivers key's data.
   * @param {string} key @param {string} src @returns {Promise<any>}
   */
  function load(key, src) {
    if (key in loaded) return loaded[key];
    loaded[key] = new Promise((resolve, reject) => {
      pending[key] = { resolve, reject };
      const s = doc.createElement('script');
      s.src = src;
      s.onerror = () => {
        delete pending[key];
        delete loaded[key];
        reject(new Error('cannot load ' + src));
      };
      doc.head.appendChild(s);
    });
    return loaded[key];
  }

  function init() {
    const form = doc.getElementById('static-search');
    const out = doc.getElementById('static-results');
    const input = form && form.querySelector('input');
    if (!form || !out || !input) return;
    const meta = form.getAttribute('data-index') || '';
    base = meta.slice(0, meta.lastIndexOf('/') + 1);
    metaFile = meta.slice(base.length);
    let timer = 0;
    let serial = 0;
    form.addEventListener('submit', (ev) => { ev.preventDefault(); run(0, 'replace'); });
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => { run(0, 'replace'); }, 120);
    });
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') { input.value = ''; run(0, 'replace'); }
    });
    // The search is in the address (?q=words&page=2), so that Back from a
    // hit, a reload or a bookmark finds it again.
    const restore = () => {
      const at = address.read();
      input.value = at.q;
      run(at.page, 'none');
    };
    window.addEventListener('popstate', restore);
    if (address.read().q) restore();

    /**
     * run searches for what the box holds and shows page n of its hits
     * (from 0); write says how the address takes it: 'replace' it (typing
     * refines a search), 'push' a new step of the history (another page
     * of results), or 'none' (the address said it).
     * @param {number} n @param {'replace' | 'push' | 'none'} write
     * @returns {Promise<void>} settled once the results are shown
     */
    function run(n, write) {
      const results = /** @type {HTMLElement} */ (out);
      const q = /** @type {HTMLInputElement} */ (input).value.trim();
      const mine = ++serial;
      if (write !== 'none') address.write(q, n, write === 'push');
      if (!q) { results.hidden = true; results.textContent = ''; return Promise.resolve(); }
      return search(q).then((r) => {
        if (mine !== serial) return;
        const last = Math.max(0, Math.ceil(r.keys.length / SHOWN) - 1);
        return showPage(results, q, r, Math.min(n, last), (to) => run(to, 'push'));
      }).then(null, (err) => {
        if (mine !== serial) return;
        results.hidden = false;
        results.textContent = '';
        results.appendChild(el('p', 'index-summary', 'The search index could not be read: ' + err.message));
      });
    }
  }

  // ---- words ---------------------------------------------------------------

  // A word is a run of letters, numbers and private-use characters
  // (isWordRune in catalog/tokens.go), folded by fold.js.
  const WORDS = /[\p{L}\p{N}\p{Co}]+/gu;

  /**
   * words returns the index's words of text, in order, repeats kept
   * (catalog.Words).
   * @param {string} text
   */
  function words(text) {
    const m = text.match(WORDS) || [];
    return m.map((w) => truncate(fold.fold(w)));
  }

  const enc = new TextEncoder();
  const dec = new TextDecoder();

  /**
   * truncate keeps a word's first 64 bytes, as the index does, without
   * cutting a character.
   * @param {string} w
   */
  function truncate(w) {
    const b = enc.encode(w);
    if (b.length <= 64) return w;
    let n = 64;
    while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
    return dec.decode(b.subarray(0, n));
  }

  /** hash is FNV-1a of w's UTF-8 bytes (archive's wordHash). @param {string} w */
  function hash(w) {
    const b = enc.encode(w);
    let h = 0x811c9dc5;
    for (let i = 0; i < b.length; i++) {
      h ^= b[i];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  /** @param {string} w @param {number} n */
  function shardOf(w, n) {
    return hash(w) % n;
  }

  // ---- the query -------------------------------------------------------------

  // SPACE is what Go's unicode.IsSpace calls space (JavaScript's \s also
  // takes U+FEFF and not U+0085).
  const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

  /** lower is Go's strings.ToLower: one character for one. @param {string} s */
  function lower(s) {
    let out = '';
    for (const c of s) out += c < '\x80' ? c.toLowerCase() : String.fromCodePoint(c.toLowerCase().codePointAt(0) || 0);
    return out;
  }

  /**
   * split cuts q at white space outside double quotes; a quoted part is
   * one token, also after a filter's colon (project:"docs site"), as
   * catalog's splitQuery does.
   * @param {string} q
   * @returns {{text: string, quoted: boolean}[]}
   */
  function split(q) {
    const out = [];
    for (;;) {
      let i = 0;
      while (i < q.length && SPACE.test(q[i])) i++;
      q = q.slice(i);
      if (!q) return out;
      let close;
      if (q[0] === '"') {
        close = q.indexOf('"', 1);
        out.push({ text: close < 0 ? q.slice(1) : q.slice(1, close), quoted: true });
        q = close < 0 ? '' : q.slice(close + 1);
        continue;
      }
      let end = q.search(SPACE);
      if (end < 0) end = q.length;
      const word = q.slice(0, end);
      const at = word.indexOf(':"');
      if (at >= 0 && word.slice(0, at).indexOf('"') < 0) {
        const rest = q.slice(at + 2);
        close = rest.indexOf('"');
        out.push({ text: word.slice(0, at) + ':' + (close < 0 ? rest : rest.slice(0, close)), quoted: false });
        q = close < 0 ? '' : rest.slice(close + 1);
        continue;
      }
      out.push({ text: word, quoted: false });
      q = q.slice(end);
    }
  }

  /**
   * parse reads the query as the server does (catalog's parseQuery):
   * words, "phrases", -word, word*, project:, model:, after: and before:.
   * Terms are lists of words (a phrase's, or those of main.go), each with
   * whether its last word is a prefix; after and before are Unix seconds
   * or null.
   * @param {string} q
   * @returns {SearchQuery}
   */
  function parse(q) {
    /** @type {SearchQuery} */
    const r = { terms: [], not: [], project: [], model: [], after: null, before: null };
    for (const tok of split(q)) {
      let text = tok.text;
      if (!tok.quoted) {
        const colon = text.indexOf(':');
        if (colon >= 0 && colon < text.length - 1) {
          const key = lower(text.slice(0, colon)), val = text.slice(colon + 1);
          if (key === 'project' || key === 'model') { r[key].push(lower(val)); continue; }
          if (key === 'after' || key === 'before') {
            const t = sessionList.localDate(val, key === 'before');
            if (t !== null) { r[key] = t; continue; }
          }
        }
      }
      const negate = !tok.quoted && text.length > 1 && text[0] === '-';
      if (negate) text = text.slice(1);
      const prefix = !tok.quoted && /\*$/.test(text);
      if (prefix) text = text.replace(/\*+$/, '');
      const ws = words(text);
      if (ws.length) (negate ? r.not : r.terms).push({ words: ws, prefix });
    }
    return r;
  }

  /** keysOf reads a posting list: deltas, 7 bits a byte, in base64. @param {string} b64 */
  function keysOf(b64) {
    const s = atob(b64);
    const keys = [];
    let k = 0, v = 0, mul = 1;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      v += (c & 0x7f) * mul;
      if (c & 0x80) { mul *= 128; continue; }
      k += v;
      keys.push(k);
      v = 0; mul = 1;
    }
    return keys;
  }

  /**
   * postings returns the keys of the entries that hold w, sorted: from
   * each segment, those of the slots whose words are in it.
   * @param {SearchMeta} meta @param {string} w
   * @returns {Promise<number[]>}
   */
  function postings(meta, w) {
    return Promise.all(meta.g.map((g) => {
      const k = shardOf(w, g.n);
      return load('g' + g.id + 't' + k, base + 'g' + g.id + '/t' + k + '.js').then((/** @type {Record<string, string>} */ shard) => {
        const b = Object.prototype.hasOwnProperty.call(shard, w) ? shard[w] : '';
        return (b ? keysOf(b) : []).filter((key) => {
          const s = meta.s[Math.floor(key / ENTRY)];
          return s && s[5] === g.id;
        });
      });
    })).then((lists) => {
      /** @type {number[]} */
      const all = [].concat.apply([], /** @type {any} */ (lists));
      all.sort((a, b) => a - b);
      return all;
    });
  }

  /** @param {number[]} a @param {number[]} b */
  function intersect(a, b) {
    const out = [];
    for (let i = 0, j = 0; i < a.length && j < b.length;) {
      if (a[i] === b[j]) { out.push(a[i]); i++; j++; } else if (a[i] < b[j]) i++; else j++;
    }
    return out;
  }

  /** @param {number[]} a @param {number[]} b */
  function subtract(a, b) {
    const out = [];
    for (let i = 0, j = 0; i < a.length; i++) {
      while (j < b.length && b[j] < a[i]) j++;
      if (j >= b.length || b[j] !== a[i]) out.push(a[i]);
    }
    return out;
  }

  /**
   * search finds the entries that hold every word of each term and not
   * all the words of any negated one. A prefix (word*) finds that word
   * only: the index cannot list the words that start with it without
   * loading all of it.
   * @param {string} q
   * @returns {Promise<SearchResult>}
   */
  function search(q) {
    const p = parse(q);
    return load('meta', base + metaFile).then((/** @type {SearchMeta} */ meta) => {
      if (!p.terms.length) return { meta, p, keys: [], docs: {} };
      /** @type {Record<string, number[]>} */
      const lists = {};
      /** @type {string[]} */
      const all = [];
      for (const t of p.terms.concat(p.not)) {
        for (const w of t.words) {
          if (!(w in lists)) { lists[w] = []; all.push(w); }
        }
      }
      return Promise.all(all.map((w) => postings(meta, w).then((l) => { lists[w] = l; }))).then(() => {
        /** @param {SearchTerm} t */
        function holding(t) {
          let keys = lists[t.words[0]];
          for (let i = 1; i < t.words.length; i++) keys = intersect(keys, lists[t.words[i]]);
          return keys;
        }
        let keys = holding(p.terms[0]);
        for (let i = 1; i < p.terms.length; i++) keys = intersect(keys, holding(p.terms[i]));
        for (const t of p.not) keys = subtract(keys, holding(t));
        keys = keys.filter((k) => {
          const s = meta.s[Math.floor(k / ENTRY)];
          if (!s || !s[0]) return false;
          const project = lower(s[2]);
          for (const want of p.project) if (project.indexOf(want) < 0) return false;
          if (p.after !== null && s[3] < p.after) return false;
          if (p.before !== null && s[3] >= p.before) return false;
          return true;
        });
        // Newest first: sessions by their start, entries last first.
        keys.sort((a, b) => {
          const sa = meta.s[Math.floor(a / ENTRY)][3], sb = meta.s[Math.floor(b / ENTRY)][3];
          return sb - sa || b - a;
        });
        return { meta, p, keys, docs: {} };
      });
    });
  }

  /** docsFor loads the entries of the sessions of keys. @param {SearchResult} r @param {number[]} keys */
  function docsFor(r, keys) {
    /** @type {string[]} */
    const names = [];
    for (const k of keys) {
      const d = r.meta.s[Math.floor(k / ENTRY)][4];
      if (names.indexOf(d) < 0 && !r.docs[d]) names.push(d);
    }
    return Promise.all(names.map((d) => load('d' + d, base + 'd/' + d).then((/** @type {SearchEntry[]} */ entries) => { r.docs[d] = entries; })));
  }

  // ---- results -----------------------------------------------------------

  /**
   * @template {keyof HTMLElementTagNameMap} K
   * @param {K} tag @param {string} [cls] @param {string} [text]
   * @returns {HTMLElementTagNameMap[K]}
   */
  function el(tag, cls, text) {
    const e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /**
   * snippetOf returns the part of an entry's text around the first of the
   * query's words in it (the text's start when none is), with … where it
   * is cut.
   * @param {string} text @param {Record<string, boolean>} want
   */
  function snippetOf(text, want) {
    const re = /[\p{L}\p{N}\p{Co}]+/gu;
    let m, at = -1;
    while ((m = re.exec(text))) {
      if (want[truncate(fold.fold(m[0]))]) { at = m.index; break; }
    }
    let start = 0;
    if (at > BEFORE) {
      start = at - BEFORE;
      const sp = text.indexOf(' ', start);
      if (sp >= 0 && sp < at) start = sp + 1;
    }
    let end = Math.min(text.length, start + AROUND);
    if (end < text.length) {
      const back = text.lastIndexOf(' ', end);
      if (back > Math.max(start, at)) end = back;
    }
    return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
  }

  /** marked appends text to parent with the query's words marked. @param {Element} parent @param {string} text @param {Record<string, boolean>} want */
  function marked(parent, text, want) {
    const re = /[\p{L}\p{N}\p{Co}]+/gu;
    let last = 0, m;
    while ((m = re.exec(text))) {
      if (want[truncate(fold.fold(m[0]))]) {
        parent.appendChild(doc.createTextNode(text.slice(last, m.index)));
        parent.appendChild(el('mark', '', m[0]));
        last = m.index + m[0].length;
      }
    }
    parent.appendChild(doc.createTextNode(text.slice(last)));
  }

  // ---- the address ----------------------------------------------------------

  const address = {
    /**
     * read is the search the address holds: its words (q) and its page
     * of results, from 0 (the address counts from 1).
     */
    read() {
      let q = '', page = 0;
      try {
        const p = new URLSearchParams(location.search);
        q = p.get('q') || '';
        page = Math.max(0, Math.floor(Number(p.get('page')) || 1) - 1);
      } catch (e) { /* no query */ }
      return { q, page };
    },
    /**
     * write puts the search into the address, the other parameters and
     * the fragment kept; push makes it a new step of the history.
     * @param {string} q @param {number} page @param {boolean} push
     */
    write(q, page, push) {
      let url;
      try {
        url = new URL(location.href);
      } catch (e) { return; }
      const p = url.searchParams;
      if (q) p.set('q', q); else p.delete('q');
      if (q && page > 0) p.set('page', String(page + 1)); else p.delete('page');
      const next = url.href;
      if (next === location.href) return;
      try {
        if (push) history.pushState(null, '', next);
        else history.replaceState(null, '', next);
      } catch (e) { /* opaque origins */ }
    },
  };

  // ---- results ---------------------------------------------------------------

  /** @typedef {(n: number) => Promise<void>} PageTurn goes to page n of the results */

  /**
   * showPage shows page n of the results (SHOWN hits each), once the
   * entries of its sessions are loaded.
   * @param {HTMLElement} out @param {string} q @param {SearchResult} r @param {number} n @param {PageTurn} turn
   */
  function showPage(out, q, r, n, turn) {
    const keys = r.keys.slice(n * SHOWN, (n + 1) * SHOWN);
    return docsFor(r, keys).then(() => { show(out, q, r, n, keys, turn); });
  }

  /** @param {HTMLElement} out @param {string} q @param {SearchResult} r @param {number} page @param {number[]} shown @param {PageTurn} turn */
  function show(out, q, r, page, shown, turn) {
    out.textContent = '';
    out.hidden = false;
    // What the results answer: typing outruns the search.
    out.setAttribute('data-query', q);
    /** @type {Record<number, boolean>} */
    const sessions = {};
    for (const k of r.keys) sessions[Math.floor(k / ENTRY)] = true;
    const n = Object.keys(sessions).length;
    const first = page * SHOWN + 1, last = page * SHOWN + shown.length;
    let summary;
    if (!r.p.terms.length) summary = 'Type a word to search.';
    else if (!r.keys.length) summary = 'Nothing matches.';
    else summary = r.keys.length + (r.keys.length === 1 ? ' matching entry' : ' matching entries') + ' in ' +
      n + (n === 1 ? ' session' : ' sessions') + ', newest first' +
      (r.keys.length > SHOWN ? '; ' + first + ' to ' + last + ' are shown.' : '.');
    // An archive's index does not hold the sessions' models.
    if (r.p.model.length) summary += ' An archive does not index models: model: is left out.';
    out.appendChild(el('p', 'index-summary', summary));
    /** @type {Record<string, boolean>} */
    const want = {};
    /** @type {string[]} */
    const found = [];
    for (const t of r.p.terms) {
      for (const w of t.words) {
        if (!want[w]) { want[w] = true; found.push(w); }
      }
    }
    // The page opens at the entry and can mark the words there (and open
    // a folded block that holds them): ?hl= carries them.
    const hl = found.length ? '?hl=' + encodeURIComponent(found.join(' ')) : '';
    /** @type {HTMLOListElement | null} */
    let group = null;
    let current = -1;
    for (const k of shown) {
      const num = Math.floor(k / ENTRY), s = r.meta.s[num];
      const e = (r.docs[s[4]] || [])[k % ENTRY];
      if (!e) continue;
      if (num !== current || !group) {
        current = num;
        const sec = el('section', 'hits');
        const h = el('h2');
        const a = el('a', '', s[1]);
        a.href = s[0];
        h.appendChild(a);
        sec.appendChild(h);
        const meta = el('p', 'hits-meta');
        if (s[2]) meta.appendChild(el('code', '', s[2]));
        if (s[3]) {
          // As the index shows a date.
          const d = new Date(s[3] * 1000), time = el('time', '', times.format(d, true));
          time.setAttribute('datetime', d.toISOString());
          meta.appendChild(doc.createTextNode(' '));
          meta.appendChild(time);
        }
        sec.appendChild(meta);
        group = el('ol', 'hit-list');
        sec.appendChild(group);
        out.appendChild(sec);
      }
      const li = el('li');
      li.appendChild(el('span', 'role', e[1]));
      li.appendChild(doc.createTextNode(' '));
      const link = el('a');
      link.href = s[0] + hl + '#' + encodeURIComponent(e[0]);
      marked(link, snippetOf(e[2], want), want);
      li.appendChild(link);
      group.appendChild(li);
    }
    if (r.keys.length > SHOWN) {
      const nav = el('nav', 'search-pages');
      nav.setAttribute('aria-label', 'Pages of results');
      if (page > 0) nav.appendChild(pageButton('← Previous page', out, page - 1, turn));
      if (last < r.keys.length) nav.appendChild(pageButton('Next page →', out, page + 1, turn));
      out.appendChild(nav);
    }
    out.setAttribute('data-page', String(page + 1));
  }

  /** @param {string} label @param {HTMLElement} out @param {number} n @param {PageTurn} turn */
  function pageButton(label, out, n, turn) {
    const b = el('button', 'btn', label);
    b.type = 'button';
    b.addEventListener('click', () => {
      turn(n).then(() => {
        const s = out.querySelector('.index-summary');
        if (s) s.scrollIntoView({ block: 'start' });
      });
    });
    return b;
  }

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', init);
  else init();

  return { calls, fold: fold.fold, words, truncate, hash, shardOf, lower, split, parse };
})();

/** piexportSearch is what the index's scripts call with their data. */
var piexportSearch = archiveSearch.calls;
