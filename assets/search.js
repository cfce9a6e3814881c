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
(function () {
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

  function fold(s) {
    return s.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  }

  function words(text) {
    var m = fold(text).match(/[\p{L}\p{N}\p{Co}]+/gu) || [];
    var out = [];
    for (var i = 0; i < m.length; i++) out.push(truncate(m[i]));
    return out;
  }

  var enc = new TextEncoder();
  var dec = new TextDecoder();

  // truncate keeps a word's first 64 bytes, as the index does.
  function truncate(w) {
    var b = enc.encode(w);
    if (b.length <= 64) return w;
    var n = 64;
    while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
    return dec.decode(b.subarray(0, n));
  }

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

  // parse reads the query as the server does: words, "phrases", -word,
  // project:, after: and before:. A phrase's words are all required.
  function parse(q) {
    var r = { must: [], not: [], project: [], after: 0, before: 0 };
    var re = /(-?)(?:(\w+):)?(?:"([^"]*)"?|(\S+))/g;
    var m;
    while ((m = re.exec(q))) {
      var neg = m[1] === '-', key = (m[2] || '').toLowerCase(), val = m[3] !== undefined ? m[3] : m[4];
      if (key === 'project') { r.project.push(val.toLowerCase()); continue; }
      if (key === 'after' || key === 'before') {
        var t = dateOf(val, key === 'before');
        if (t) { r[key] = t; continue; }
      }
      if (key) val = key + ':' + val;
      var ws = words(val.replace(/\*+$/, ''));
      (neg ? r.not : r.must).push.apply(neg ? r.not : r.must, ws);
    }
    return r;
  }

  // dateOf reads 2026-03-01, 2026-03 or 2026 in local time, as Unix
  // seconds: the start of the period, or its end for before:.
  function dateOf(s, end) {
    var m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(s);
    if (!m) return 0;
    var y = +m[1], mo = m[2] ? +m[2] - 1 : 0, d = m[3] ? +m[3] : 1;
    if (end) {
      if (m[3]) d++; else if (m[2]) mo++; else y++;
    }
    return new Date(y, mo, d).getTime() / 1000;
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

  function search(q) {
    var p = parse(q);
    return load('meta', base + metaFile).then(function (meta) {
      if (!p.must.length) return { meta: meta, p: p, keys: [] };
      var all = p.must.concat(p.not);
      return Promise.all(all.map(function (w) { return postings(meta, w); })).then(function (lists) {
        var keys = lists[0];
        for (var i = 1; i < p.must.length; i++) keys = intersect(keys, lists[i]);
        for (i = p.must.length; i < lists.length; i++) keys = subtract(keys, lists[i]);
        keys = keys.filter(function (k) {
          var s = meta.s[Math.floor(k / ENTRY)];
          if (!s || !s[0]) return false;
          for (var j = 0; j < p.project.length; j++) if (s[2].toLowerCase().indexOf(p.project[j]) < 0) return false;
          if (p.after && s[3] < p.after) return false;
          if (p.before && s[3] >= p.before) return false;
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
    if (!r.p.must.length) summary = 'Type a word to search.';
    else if (!r.keys.length) summary = 'Nothing matches.';
    else summary = r.keys.length + (r.keys.length === 1 ? ' matching entry' : ' matching entries') + ' in ' +
      n + (n === 1 ? ' session' : ' sessions') + ', newest first' +
      (r.keys.length > SHOWN ? '; ' + first + ' to ' + last + ' are shown.' : '.');
    out.appendChild(el('p', 'index-summary', summary));
    var want = {};
    r.p.must.forEach(function (w) { want[w] = true; });
    // The page opens at the entry and can mark the words there (and open
    // a folded block that holds them): ?hl= carries them.
    var hl = r.p.must.length ? '?hl=' + encodeURIComponent(r.p.must.join(' ')) : '';
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
})();
