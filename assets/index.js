// Index script: sorts and filters the list of sessions, and shows dates in
// the reader's time zone. The page is complete without it: the server (or
// the archive) writes the list already grouped and sorted, newest first.
// localDate, a copy of Go's, and the filters hang on piexportLib, for
// search.js and for the tests that run them beside Go.
(function (lib) {
  'use strict';

  var doc = document;
  var root = doc.documentElement;
  // The same key as the session pages', so one choice holds for both.
  var THEME_KEY = 'piexport:theme';

  function load(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; }
  }
  function store(key, value) {
    try { localStorage.setItem(key, value); } catch (e) { /* the choice then lasts one visit */ }
  }

  // Runs before the body is parsed, so the first paint has the right theme.
  root.classList.add('js');
  if (root.getAttribute('data-theme') === 'auto') {
    var saved = load(THEME_KEY);
    if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
  }

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', init);
  else init();

  function init() {
    var toggle = doc.getElementById('theme-toggle');
    if (toggle) {
      toggle.addEventListener('click', function () {
        var current = root.getAttribute('data-theme');
        if (current !== 'light' && current !== 'dark') {
          current = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
        }
        var next = current === 'dark' ? 'light' : 'dark';
        root.setAttribute('data-theme', next);
        store(THEME_KEY, next);
      });
    }
    localTimes();
    var tables = doc.querySelectorAll('table.sessions');
    if (tables.length) {
      sorting(tables);
      filtering(tables);
    }
  }

  // localTime writes a date as every list of sessions shows it (the
  // index, the server's search, the archive's search): in the reader's
  // locale and time zone, the zone named. search.js uses it too.
  var timeFormat = null;
  try {
    timeFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
  } catch (e) { /* the server's UTC times stay */ }
  function localTime(d) {
    return timeFormat ? timeFormat.format(d) : d.toISOString();
  }
  window.piexportLocalTime = localTime;

  function localTimes() {
    if (!timeFormat) return;
    var times = doc.querySelectorAll('time[datetime]');
    for (var i = 0; i < times.length; i++) {
      var d = new Date(times[i].getAttribute('datetime'));
      if (isNaN(d.getTime())) continue;
      times[i].title = times[i].textContent;
      times[i].textContent = localTime(d);
    }
  }

  // ---- sorting ---------------------------------------------------------
  // A click on a column's heading sorts every project's sessions by that
  // column; a second click reverses the order. Projects keep their places.

  function sorting(tables) {
    var heads = tables[0].tHead.rows[0].cells;
    var state = { col: -1, dir: 0 };
    for (var c = 0; c < heads.length; c++) {
      if (heads[c].getAttribute('aria-sort')) state = { col: c, dir: heads[c].getAttribute('aria-sort') === 'ascending' ? 1 : -1 };
    }
    for (var t = 0; t < tables.length; t++) {
      var cells = tables[t].tHead.rows[0].cells;
      for (c = 0; c < cells.length; c++) {
        var th = cells[c];
        var b = doc.createElement('button');
        b.type = 'button';
        b.textContent = th.textContent;
        b.title = 'Sort by ' + th.textContent.toLowerCase();
        b.setAttribute('data-col', String(c));
        th.textContent = '';
        th.appendChild(b);
        b.addEventListener('click', onSort);
      }
    }

    function onSort(ev) {
      var col = Number(ev.currentTarget.getAttribute('data-col'));
      var numeric = heads[col].getAttribute('data-sort') === 'num';
      // Numbers start with the largest, text with A.
      var dir = state.col === col ? -state.dir : (numeric ? -1 : 1);
      state = { col: col, dir: dir };
      for (var t = 0; t < tables.length; t++) sortTable(tables[t], col, numeric, dir);
    }
  }

  function sortTable(table, col, numeric, dir) {
    var cells = table.tHead.rows[0].cells;
    for (var c = 0; c < cells.length; c++) {
      if (c === col) cells[c].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      else cells[c].removeAttribute('aria-sort');
    }
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var keys = rows.map(function (r, i) {
      var cell = r.cells[col];
      var v = numeric ? Number(cell.getAttribute('data-v')) || 0 : cell.textContent.trim().toLowerCase();
      return { row: r, v: v, i: i };
    });
    keys.sort(function (a, b) {
      var d = a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
      return d ? d * dir : a.i - b.i;
    });
    var frag = doc.createDocumentFragment();
    for (var i = 0; i < keys.length; i++) frag.appendChild(keys[i].row);
    body.appendChild(frag);
  }

  // ---- filtering ---------------------------------------------------------
  // Every word typed must appear in the session's title, its models or its
  // project, but for words that are filters (as in the server's search):
  //   model:NAME, project:NAME   a model's, the project's name holds NAME
  //   after:DATE, before:DATE    started from DATE on, or before it ends
  //                              (2026-03-01, 2026-03 or 2026; local time)
  //   cost>1, tokens<2M, messages>=50, duration>30m (or length), branches>1
  // A project with no session left is hidden.

  // The columns the figures of a filter are read from (their data-v).
  var FIGURES = { date: 1, duration: 2, length: 2, messages: 3, tokens: 5, cost: 6, branches: 7 };

  // figure reads a filter's number: 1.5, $2, 2M, 300k; durations as 90s,
  // 30m, 2h, 1d (a bare number is minutes). NaN when it is none.
  function figure(name, text) {
    var m = /^\$?(\d+(?:\.\d+)?)([a-z]?)$/i.exec(text);
    if (!m) return NaN;
    var n = Number(m[1]);
    var unit = m[2].toLowerCase();
    if (name === 'duration' || name === 'length') {
      var secs = { '': 60, s: 1, m: 60, h: 3600, d: 86400 }[unit];
      return secs ? n * secs : NaN;
    }
    var times = { '': 1, k: 1e3, m: 1e6, b: 1e9 }[unit];
    return times ? n * times : NaN;
  }

  // localDate reads 2026-03-01, 2026-03 or 2026 as the start of that
  // day, month or year in the reader's time zone, or its end (the start of
  // the next) with end set, in Unix seconds; null when it is not a date
  // (2026-02-30, 2026-13, 2026-3-1). It is catalog's parseDate, which the
  // server's search reads after: and before: with (catalog/js_test.go
  // runs the same dates through both); search.js reads them with it too.
  function localDate(text, end) {
    var m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
    if (!m) return null;
    var y = Number(m[1]), mo = m[2] ? Number(m[2]) : 1, d = m[3] ? Number(m[3]) : 1;
    var days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1]) return null;
    if (end) {
      if (m[3]) d++;
      else if (m[2]) mo++;
      else y++;
    }
    // setFullYear, as new Date(y, …) reads years below 100 as 19xx.
    var t = new Date(2000, 0, 1);
    t.setFullYear(y, mo - 1, d);
    return t.getTime() / 1000;
  }

  // count says how many of something there are, singular for one, as
  // every message of piexport does (session.Count).
  function count(n, one, many) {
    return n + ' ' + (n === 1 || n === -1 ? one : many);
  }

  // parseFilter turns a word into a test of a row; null for a word to
  // look for in the row's text; or, for a filter written wrongly, a
  // string that says what is wrong (the word then filters nothing).
  function parseFilter(word) {
    var m = /^(model|project):(.+)$/.exec(word);
    if (m) {
      var key = m[1], want = m[2];
      return function (row) { return row[key].indexOf(want) >= 0; };
    }
    m = /^(after|before):(.*)$/.exec(word);
    if (m) {
      var after = m[1] === 'after', t = localDate(m[2], !after);
      if (t === null) return word + ' is not a filter: ' + m[1] + ': takes a date, as ' + m[1] + ':2026-03-01, ' + m[1] + ':2026-03 or ' + m[1] + ':2026';
      return function (row) {
        var v = row.figure(FIGURES.date);
        return v > 0 && (after ? v >= t : v < t);
      };
    }
    m = /^([a-z]+)(<=|>=|<|>|=)(.*)$/.exec(word);
    if (m && FIGURES[m[1]] !== undefined && m[1] !== 'date') {
      var col = FIGURES[m[1]], op = m[2], n = figure(m[1], m[3]);
      if (isNaN(n)) {
        var time = m[1] === 'duration' || m[1] === 'length';
        var like = time ? ['30m', '2h'] : m[1] === 'cost' ? ['1.5', '$2'] : ['50', '2k'];
        return word + ' is not a filter: ' + m[1] + op + ' takes ' + (time ? 'a duration' : 'a figure') + ', as ' +
          m[1] + op + like[0] + ' or ' + m[1] + op + like[1];
      }
      return function (row) {
        var v = row.figure(col);
        switch (op) {
          case '<': return v < n;
          case '<=': return v <= n;
          case '>': return v > n;
          case '>=': return v >= n;
        }
        return v === n;
      };
    }
    return null;
  }

  function filtering(tables) {
    var input = doc.getElementById('filter');
    var status = doc.getElementById('filter-status');
    if (!input) return;
    var rows = [];
    var sections = [];
    for (var t = 0; t < tables.length; t++) {
      var section = tables[t].closest('section');
      var head = section ? section.querySelector('h2') : null;
      // The project's name, without the count beside it.
      var name = head ? head.querySelector('code') || head.firstChild : null;
      var project = name ? name.textContent.trim().toLowerCase() : '';
      var list = tables[t].tBodies[0].rows;
      var own = [];
      for (var r = 0; r < list.length; r++) {
        own.push(rowOf(list[r], project));
      }
      rows = rows.concat(own);
      sections.push({ el: section, rows: own, count: head ? head.querySelector('.count') : null });
    }

    var pending = 0;
    input.addEventListener('input', function () {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(apply);
    });
    doc.addEventListener('keydown', function (ev) {
      if (ev.key === '/' && doc.activeElement !== input && !/^(INPUT|TEXTAREA|SELECT)$/.test(doc.activeElement.tagName)) {
        ev.preventDefault();
        input.focus();
      } else if (ev.key === 'Escape' && doc.activeElement === input) {
        input.value = '';
        apply();
      }
    });

    function apply() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var problems = [];
      var tests = [];
      words.forEach(function (w) {
        var f = parseFilter(w);
        if (typeof f === 'string') problems.push(f);
        else tests.push(f || function (row) { return row.text.indexOf(w) >= 0; });
      });
      var shown = 0;
      for (var s = 0; s < sections.length; s++) {
        var inSection = 0;
        for (var r = 0; r < sections[s].rows.length; r++) {
          var row = sections[s].rows[r];
          var ok = true;
          for (var w = 0; w < tests.length && ok; w++) ok = tests[w](row);
          row.el.hidden = !ok;
          if (ok) inSection++;
        }
        shown += inSection;
        if (sections[s].el) sections[s].el.hidden = !inSection;
        // A project's count is of the sessions it shows.
        if (sections[s].count) sections[s].count.textContent = String(inSection);
      }
      status.textContent = words.length ? [shown + ' of ' + count(rows.length, 'session', 'sessions')].concat(problems).join(' · ') : '';
    }
  }

  // rowOf is what filtering reads of a session's row: its text (project,
  // title, models), its models' full names, its project, and its figures.
  function rowOf(tr, project) {
    var cells = tr.cells;
    var names = [];
    var spans = cells[4].querySelectorAll('span[title]');
    for (var i = 0; i < spans.length; i++) names.push(spans[i].getAttribute('title').toLowerCase());
    var models = names.join(' ') + ' ' + cells[4].textContent.toLowerCase();
    return {
      el: tr,
      text: project + ' ' + cells[0].textContent.toLowerCase() + ' ' + models,
      model: models,
      project: project,
      figure: function (col) { return Number(cells[col].getAttribute('data-v')) || 0; }
    };
  }
  lib.localDate = localDate;
  lib.index = { parseFilter: parseFilter, figure: figure, count: count };
})(window.piexportLib = window.piexportLib || {});
