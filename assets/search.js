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
// (catalog/tokens.go, catalog/query.go, archive/search.go): they hang on
// piexportLib.search, and catalog/js_test.go and archive/js_test.go run
// the same cases through both. The dates are index.js's
// (piexportLib.localDate), which is always loaded first.
(function (lib) {
  'use strict';

  var doc = document;
  var ENTRY = 1048576; // 2^20: the low bits of a key number the entry
  var SHOWN = 50; // hits a page of results shows
  var BEFORE = 60, AROUND = 220; // a snippet: text before the match, and in all

  var base = '', metaFile = 'meta.js';
  var pending = {}; // key → {resolve, reject}
  var loaded = {};  // key → Promise

  window.piexportSearch = {
    meta: function (m) { settle('meta', m); },
    shard: function (seg, k, words) { settle('g' + seg + 't' + k, words); },
    doc: function (name, entries) { settle('d' + name, entries); }
  };

  function settle(key, value) {
    var p = pending[key];
    if (p) { delete pending[key]; p.resolve(value); }
  }

  // load adds the script at src, whose call delivers key's data.
  function load(key, src) {
    if (loaded[key]) return loaded[key];
    loaded[key] = new Promise(function (resolve, reject) {
      pending[key] = { resolve: resolve, reject: reject };
      var s = doc.createElement('script');
      s.src = src;
      s.onerror = function () {
        delete pending[key];
        delete loaded[key];
        reject(new Error('cannot load ' + src));
      };
      doc.head.appendChild(s);
    });
    return loaded[key];
  }

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', init);
  else init();

  function init() {
    var form = doc.getElementById('static-search');
    var out = doc.getElementById('static-results');
    if (!form || !out) return;
    var meta = form.getAttribute('data-index') || '';
    base = meta.slice(0, meta.lastIndexOf('/') + 1);
    metaFile = meta.slice(base.length);
    var input = form.querySelector('input');
    var timer = 0;
    var serial = 0;
    form.addEventListener('submit', function (ev) { ev.preventDefault(); run(); });
    input.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    input.addEventListener('keydown', function (ev) {
      if (ev.key === 'Escape') { input.value = ''; run(); }
    });

    function run() {
      var q = input.value.trim();
      var mine = ++serial;
      if (!q) { out.hidden = true; out.textContent = ''; return; }
      search(q).then(function (r) {
        if (mine === serial) return showPage(out, q, r, 0);
      }).then(null, function (err) {
        if (mine !== serial) return;
        out.hidden = false;
        out.textContent = '';
        out.appendChild(el('p', 'index-summary', 'The search index could not be read: ' + err.message));
      });
    }
  }

  // ---- words ---------------------------------------------------------------

  // A word is a run of letters, numbers and private-use characters
  // (isWordRune in catalog/tokens.go), folded by fold.js.
  var WORDS = /[\p{L}\p{N}\p{Co}]+/gu;
  var fold = lib.fold.fold;

  // words returns the index's words of text, in order, repeats kept
  // (catalog.Words).
  function words(text) {
    var m = text.match(WORDS) || [];
    var out = [];
    for (var i = 0; i < m.length; i++) out.push(truncate(fold(m[i])));
    return out;
  }

  var enc = new TextEncoder();
  var dec = new TextDecoder();

  // truncate keeps a word's first 64 bytes, as the index does, without
  // cutting a character.
  function truncate(w) {
    var b = enc.encode(w);
    if (b.length <= 64) return w;
    var n = 64;
    while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
    return dec.decode(b.subarray(0, n));
  }

  // hash is FNV-1a of w's UTF-8 bytes (archive's wordHash).
  function hash(w) {
    var b = enc.encode(w);
    var h = 0x811c9dc5;
    for (var i = 0; i < b.length; i++) {
      h ^= b[i];
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  function shardOf(w, n) {
    return hash(w) % n;
  }

  // ---- the query -------------------------------------------------------------

  // SPACE is what Go's unicode.IsSpace calls space (JavaScript's \s also
  // takes U+FEFF and not U+0085).
  var SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

  // lower is Go's strings.ToLower: one character for one.
  function lower(s) {
    var out = '';
    for (var c of s) out += c < '\x80' ? c.toLowerCase() : String.fromCodePoint(c.toLowerCase().codePointAt(0));
    return out;
  }

  // split cuts q at white space outside double quotes; a quoted part is
  // one token, also after a filter's colon (project:"docs site"), as
  // catalog's splitQuery does.
  function split(q) {
    var out = [];
    for (;;) {
      var i = 0;
      while (i < q.length && SPACE.test(q[i])) i++;
      q = q.slice(i);
      if (!q) return out;
      var close;
      if (q[0] === '"') {
        close = q.indexOf('"', 1);
        out.push({ text: close < 0 ? q.slice(1) : q.slice(1, close), quoted: true });
        q = close < 0 ? '' : q.slice(close + 1);
        continue;
      }
      var end = q.search(SPACE);
      if (end < 0) end = q.length;
      var word = q.slice(0, end);
      var at = word.indexOf(':"');
      if (at >= 0 && word.slice(0, at).indexOf('"') < 0) {
        var rest = q.slice(at + 2);
        close = rest.indexOf('"');
        out.push({ text: word.slice(0, at) + ':' + (close < 0 ? rest : rest.slice(0, close)), quoted: false });
        q = close < 0 ? '' : rest.slice(close + 1);
        continue;
      }
      out.push({ text: word, quoted: false });
      q = q.slice(end);
    }
  }

  // parse reads the query as the server does (catalog's parseQuery):
  // words, "phrases", -word, word*, project:, model:, after: and before:.
  // Terms are lists of words (a phrase's, or those of main.go), each with
  // whether its last word is a prefix; after and before are Unix seconds
  // or null.
  function parse(q) {
    var r = { terms: [], not: [], project: [], model: [], after: null, before: null };
    split(q).forEach(function (tok) {
      var text = tok.text;
      if (!tok.quoted) {
        var colon = text.indexOf(':');
        if (colon >= 0 && colon < text.length - 1) {
          var key = lower(text.slice(0, colon)), val = text.slice(colon + 1);
          if (key === 'project' || key === 'model') { r[key].push(lower(val)); return; }
          if (key === 'after' || key === 'before') {
            var t = lib.localDate(val, key === 'before');
            if (t !== null) { r[key] = t; return; }
          }
        }
      }
      var negate = !tok.quoted && text.length > 1 && text[0] === '-';
      if (negate) text = text.slice(1);
      var prefix = !tok.quoted && /\*$/.test(text);
      if (prefix) text = text.replace(/\*+$/, '');
      var ws = words(text);
      if (ws.length) (negate ? r.not : r.terms).push({ words: ws, prefix: prefix });
    });
    return r;
  }

  function keysOf(b64) {
    var s = atob(b64);
    var keys = [];
    var k = 0, v = 0, mul = 1;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      v += (c & 0x7f) * mul;
      if (c & 0x80) { mul *= 128; continue; }
      k += v;
      keys.push(k);
      v = 0; mul = 1;
    }
    return keys;
  }

  // postings returns the keys of the entries that hold w, sorted: from
  // each segment, those of the slots whose words are in it.
  function postings(meta, w) {
    return Promise.all(meta.g.map(function (g) {
      var k = shardOf(w, g.n);
      return load('g' + g.id + 't' + k, base + 'g' + g.id + '/t' + k + '.js').then(function (shard) {
        var b = Object.prototype.hasOwnProperty.call(shard, w) ? shard[w] : '';
        return (b ? keysOf(b) : []).filter(function (key) {
          var s = meta.s[Math.floor(key / ENTRY)];
          return s && s[5] === g.id;
        });
      });
    })).then(function (lists) {
      var all = [].concat.apply([], lists);
      all.sort(function (a, b) { return a - b; });
      return all;
    });
  }

  function intersect(a, b) {
    var out = [];
    for (var i = 0, j = 0; i < a.length && j < b.length;) {
      if (a[i] === b[j]) { out.push(a[i]); i++; j++; } else if (a[i] < b[j]) i++; else j++;
    }
    return out;
  }

  function subtract(a, b) {
    var out = [];
    for (var i = 0, j = 0; i < a.length; i++) {
      while (j < b.length && b[j] < a[i]) j++;
      if (j >= b.length || b[j] !== a[i]) out.push(a[i]);
    }
    return out;
  }

  // search finds the entries that hold every word of each term and not
  // all the words of any negated one. A prefix (word*) finds that word
  // only: the index cannot list the words that start with it without
  // loading all of it.
  function search(q) {
    var p = parse(q);
    return load('meta', base + metaFile).then(function (meta) {
      if (!p.terms.length) return { meta: meta, p: p, keys: [] };
      var lists = {};
      var all = [];
      p.terms.concat(p.not).forEach(function (t) {
        t.words.forEach(function (w) {
          if (!lists[w]) { lists[w] = true; all.push(w); }
        });
      });
      return Promise.all(all.map(function (w) {
        return postings(meta, w).then(function (l) { lists[w] = l; });
      })).then(function () {
        function holding(t) {
          var keys = lists[t.words[0]];
          for (var i = 1; i < t.words.length; i++) keys = intersect(keys, lists[t.words[i]]);
          return keys;
        }
        var keys = holding(p.terms[0]);
        for (var i = 1; i < p.terms.length; i++) keys = intersect(keys, holding(p.terms[i]));
        p.not.forEach(function (t) { keys = subtract(keys, holding(t)); });
        keys = keys.filter(function (k) {
          var s = meta.s[Math.floor(k / ENTRY)];
          if (!s || !s[0]) return false;
          var project = lower(s[2]);
          for (var j = 0; j < p.project.length; j++) if (project.indexOf(p.project[j]) < 0) return false;
          if (p.after !== null && s[3] < p.after) return false;
          if (p.before !== null && s[3] >= p.before) return false;
          return true;
        });
        // Newest first: sessions by their start, entries last first.
        keys.sort(function (a, b) {
          var sa = meta.s[Math.floor(a / ENTRY)][3], sb = meta.s[Math.floor(b / ENTRY)][3];
          return sb - sa || b - a;
        });
        return { meta: meta, p: p, keys: keys };
      });
    });
  }

  // docsFor loads the entries of the sessions of keys.
  function docsFor(r, keys) {
    var names = [];
    keys.forEach(function (k) {
      var d = r.meta.s[Math.floor(k / ENTRY)][4];
      if (names.indexOf(d) < 0 && !r[d]) names.push(d);
    });
    return Promise.all(names.map(function (d) {
      return load('d' + d, base + 'd/' + d).then(function (entries) { r[d] = entries; });
    }));
  }

  // ---- results -----------------------------------------------------------

  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // snippetOf returns the part of an entry's text around the first of the
  // query's words in it (the text's start when none is), with … where it
  // is cut.
  function snippetOf(text, want) {
    var re = /[\p{L}\p{N}\p{Co}]+/gu;
    var m, at = -1;
    while ((m = re.exec(text))) {
      if (want[truncate(fold(m[0]))]) { at = m.index; break; }
    }
    var start = 0;
    if (at > BEFORE) {
      start = at - BEFORE;
      var sp = text.indexOf(' ', start);
      if (sp >= 0 && sp < at) start = sp + 1;
    }
    var end = Math.min(text.length, start + AROUND);
    if (end < text.length) {
      var back = text.lastIndexOf(' ', end);
      if (back > Math.max(start, at)) end = back;
    }
    return (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
  }

  // marked appends text to parent with the query's words marked.
  function marked(parent, text, want) {
    var re = /[\p{L}\p{N}\p{Co}]+/gu;
    var last = 0, m;
    while ((m = re.exec(text))) {
      if (want[truncate(fold(m[0]))]) {
        parent.appendChild(doc.createTextNode(text.slice(last, m.index)));
        parent.appendChild(el('mark', '', m[0]));
        last = m.index + m[0].length;
      }
    }
    parent.appendChild(doc.createTextNode(text.slice(last)));
  }

  // showPage shows page n of the results (SHOWN hits each), once the
  // entries of its sessions are loaded.
  function showPage(out, q, r, n) {
    var keys = r.keys.slice(n * SHOWN, (n + 1) * SHOWN);
    return docsFor(r, keys).then(function () { show(out, q, r, n, keys); });
  }

  function show(out, q, r, page, shown) {
    out.textContent = '';
    out.hidden = false;
    // What the results answer: typing outruns the search.
    out.setAttribute('data-query', q);
    var sessions = {};
    r.keys.forEach(function (k) { sessions[Math.floor(k / ENTRY)] = true; });
    var n = Object.keys(sessions).length;
    var first = page * SHOWN + 1, last = page * SHOWN + shown.length;
    var summary;
    if (!r.p.terms.length) summary = 'Type a word to search.';
    else if (!r.keys.length) summary = 'Nothing matches.';
    else summary = r.keys.length + (r.keys.length === 1 ? ' matching entry' : ' matching entries') + ' in ' +
      n + (n === 1 ? ' session' : ' sessions') + ', newest first' +
      (r.keys.length > SHOWN ? '; ' + first + ' to ' + last + ' are shown.' : '.');
    // An archive's index does not hold the sessions' models.
    if (r.p.model.length) summary += ' An archive does not index models: model: is left out.';
    out.appendChild(el('p', 'index-summary', summary));
    var want = {}, found = [];
    r.p.terms.forEach(function (t) {
      t.words.forEach(function (w) {
        if (!want[w]) { want[w] = true; found.push(w); }
      });
    });
    // The page opens at the entry and can mark the words there (and open
    // a folded block that holds them): ?hl= carries them.
    var hl = found.length ? '?hl=' + encodeURIComponent(found.join(' ')) : '';
    var group = null, current = -1;
    shown.forEach(function (k) {
      var num = Math.floor(k / ENTRY), s = r.meta.s[num];
      var e = (r[s[4]] || [])[k % ENTRY];
      if (!e) return;
      if (num !== current) {
        current = num;
        var sec = el('section', 'hits');
        var h = el('h2');
        var a = el('a', '', s[1]);
        a.href = s[0];
        h.appendChild(a);
        sec.appendChild(h);
        var meta = el('p', 'hits-meta');
        if (s[2]) meta.appendChild(el('code', '', s[2]));
        if (s[3]) {
          // As the index shows a date (index.js).
          var d = new Date(s[3] * 1000), time = el('time', '', window.piexportLocalTime ? window.piexportLocalTime(d) : d.toISOString());
          time.setAttribute('datetime', d.toISOString());
          meta.appendChild(doc.createTextNode(' '));
          meta.appendChild(time);
        }
        sec.appendChild(meta);
        group = el('ol', 'hit-list');
        sec.appendChild(group);
        out.appendChild(sec);
      }
      var li = el('li');
      li.appendChild(el('span', 'role', e[1]));
      li.appendChild(doc.createTextNode(' '));
      var link = el('a');
      link.href = s[0] + hl + '#' + encodeURIComponent(e[0]);
      marked(link, snippetOf(e[2], want), want);
      li.appendChild(link);
      group.appendChild(li);
    });
    if (r.keys.length > SHOWN) {
      var nav = el('nav', 'search-pages');
      nav.setAttribute('aria-label', 'Pages of results');
      if (page > 0) nav.appendChild(pageButton('← Previous page', out, q, r, page - 1));
      if (last < r.keys.length) nav.appendChild(pageButton('Next page →', out, q, r, page + 1));
      out.appendChild(nav);
    }
  }

  function pageButton(label, out, q, r, n) {
    var b = el('button', 'btn', label);
    b.type = 'button';
    b.addEventListener('click', function () {
      showPage(out, q, r, n).then(function () {
        var s = out.querySelector('.index-summary');
        if (s) s.scrollIntoView({ block: 'start' });
      });
    });
    return b;
  }
  lib.search = { fold: fold, words: words, truncate: truncate, hash: hash, shardOf: shardOf, lower: lower, split: split, parse: parse };
})(window.piexportLib = window.piexportLib || {});
