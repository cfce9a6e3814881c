// @ts-check
// Index script: sorts and filters the list of sessions, and shows dates in
// the reader's time zone. The page is complete without it: the server (or
// the archive) writes the list already grouped and sorted, newest first.
// It shares the reader's stored choices and the theme (prefs.js) and the
// times (times.js) with the session pages, which come before it. Its copy
// of Go's date reading and its filters are sessionList's, for search.js
// and for the tests that run them beside Go.

const sessionList = (() => {
  'use strict';

  const doc = document;
  const root = doc.documentElement;

  // Runs before the body is parsed, so the first paint has the right theme.
  prefs.start(root);

  function init() {
    new ThemeToggle(doc.getElementById('theme-toggle'), root);
    for (const t of doc.querySelectorAll('time[datetime]')) times.localize(t, true);
    const tables = /** @type {NodeListOf<HTMLTableElement>} */ (doc.querySelectorAll('table.sessions'));
    if (tables.length) {
      sorting(tables);
      filtering(tables);
    }
  }

  // ---- sorting ---------------------------------------------------------
  // A click on a column's heading sorts every project's sessions by that
  // column; a second click reverses the order. Projects keep their places.

  /** @param {NodeListOf<HTMLTableElement>} tables */
  function sorting(tables) {
    const heads = head(tables[0]).cells;
    let state = { col: -1, dir: 0 };
    for (let c = 0; c < heads.length; c++) {
      if (heads[c].getAttribute('aria-sort')) state = { col: c, dir: heads[c].getAttribute('aria-sort') === 'ascending' ? 1 : -1 };
    }
    /** @param {MouseEvent} ev */
    function onSort(ev) {
      const col = Number(/** @type {Element} */ (ev.currentTarget).getAttribute('data-col'));
      const numeric = heads[col].getAttribute('data-sort') === 'num';
      // Numbers start with the largest, text with A.
      const dir = state.col === col ? -state.dir : (numeric ? -1 : 1);
      state = { col, dir };
      for (const table of tables) sortTable(table, col, numeric, dir);
    }
    for (const table of tables) {
      const cells = head(table).cells;
      for (let c = 0; c < cells.length; c++) {
        const th = cells[c];
        const text = th.textContent || '';
        const b = doc.createElement('button');
        b.type = 'button';
        b.textContent = text;
        b.title = 'Sort by ' + text.toLowerCase();
        b.setAttribute('data-col', String(c));
        th.textContent = '';
        th.appendChild(b);
        b.addEventListener('click', onSort);
      }
    }
  }

  /** head is the row of a table's column headings. @param {HTMLTableElement} table */
  function head(table) {
    return /** @type {HTMLTableSectionElement} */ (table.tHead).rows[0];
  }

  /** @param {HTMLTableElement} table @param {number} col @param {boolean} numeric @param {number} dir */
  function sortTable(table, col, numeric, dir) {
    const cells = head(table).cells;
    for (let c = 0; c < cells.length; c++) {
      if (c === col) cells[c].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      else cells[c].removeAttribute('aria-sort');
    }
    const body = table.tBodies[0];
    const keys = Array.from(body.rows, (row, i) => {
      const cell = row.cells[col];
      const v = numeric ? Number(cell.getAttribute('data-v')) || 0 : (cell.textContent || '').trim().toLowerCase();
      return { row, v, i };
    });
    keys.sort((a, b) => {
      const d = a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
      return d ? d * dir : a.i - b.i;
    });
    const frag = doc.createDocumentFragment();
    for (const k of keys) frag.appendChild(k.row);
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

  /**
   * @typedef {object} SessionRow what filtering reads of a session's row
   * @property {HTMLTableRowElement} el
   * @property {string} text its project, title and models, lowercase
   * @property {string} model its models, full names too
   * @property {string} project
   * @property {(col: number) => number} figure the figure of a column (its data-v)
   */
  /** @typedef {(row: SessionRow) => boolean} RowTest */

  // The columns the figures of a filter are read from (their data-v).
  /** @type {Record<string, number>} */
  const FIGURES = { date: 1, duration: 2, length: 2, messages: 3, tokens: 5, cost: 6, branches: 7 };

  /**
   * figure reads a filter's number: 1.5, $2, 2M, 300k; durations as 90s,
   * 30m, 2h, 1d (a bare number is minutes). NaN when it is none.
   * @param {string} name @param {string} text
   */
  function figure(name, text) {
    const m = /^\$?(\d+(?:\.\d+)?)([a-z]?)$/i.exec(text);
    if (!m) return NaN;
    const n = Number(m[1]);
    const unit = m[2].toLowerCase();
    if (name === 'duration' || name === 'length') {
      /** @type {Record<string, number>} */
      const secs = { '': 60, s: 1, m: 60, h: 3600, d: 86400 };
      return secs[unit] ? n * secs[unit] : NaN;
    }
    /** @type {Record<string, number>} */
    const scale = { '': 1, k: 1e3, m: 1e6, b: 1e9 };
    return scale[unit] ? n * scale[unit] : NaN;
  }

  /**
   * localDate reads 2026-03-01, 2026-03 or 2026 as the start of that
   * day, month or year in the reader's time zone, or its end (the start of
   * the next) with end set, in Unix seconds; null when it is not a date
   * (2026-02-30, 2026-13, 2026-3-1). It is catalog's parseDate, which the
   * server's search reads after: and before: with (catalog/js_test.go
   * runs the same dates through both); search.js reads them with it too.
   * @param {string} text @param {boolean} end
   */
  function localDate(text, end) {
    const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(text);
    if (!m) return null;
    let y = Number(m[1]), mo = m[2] ? Number(m[2]) : 1, d = m[3] ? Number(m[3]) : 1;
    const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1]) return null;
    if (end) {
      if (m[3]) d++;
      else if (m[2]) mo++;
      else y++;
    }
    // setFullYear, as new Date(y, …) reads years below 100 as 19xx.
    const t = new Date(2000, 0, 1);
    t.setFullYear(y, mo - 1, d);
    return t.getTime() / 1000;
  }

  /**
   * count says how many of something there are, singular for one, as
   * every message of piexport does (session.Count).
   * @param {number} n @param {string} one @param {string} many
   */
  function count(n, one, many) {
    return n + ' ' + (n === 1 || n === -1 ? one : many);
  }

  /**
   * parseFilter turns a word into a test of a row; null for a word to
   * look for in the row's text; or, for a filter written wrongly, a
   * string that says what is wrong (the word then filters nothing).
   * @param {string} word
   * @returns {RowTest | string | null}
   */
  function parseFilter(word) {
    let m = /^(model|project):(.+)$/.exec(word);
    if (m) {
      const key = /** @type {'model' | 'project'} */ (m[1]), want = m[2];
      return (row) => row[key].indexOf(want) >= 0;
    }
    m = /^(after|before):(.*)$/.exec(word);
    if (m) {
      const after = m[1] === 'after', t = localDate(m[2], !after);
      if (t === null) return word + ' is not a filter: ' + m[1] + ': takes a date, as ' + m[1] + ':2026-03-01, ' + m[1] + ':2026-03 or ' + m[1] + ':2026';
      return (row) => {
        const v = row.figure(FIGURES.date);
        return v > 0 && (after ? v >= t : v < t);
      };
    }
    m = /^([a-z]+)(<=|>=|<|>|=)(.*)$/.exec(word);
    if (m && FIGURES[m[1]] !== undefined && m[1] !== 'date') {
      const col = FIGURES[m[1]], op = m[2], n = figure(m[1], m[3]);
      if (isNaN(n)) {
        const time = m[1] === 'duration' || m[1] === 'length';
        const like = time ? ['30m', '2h'] : m[1] === 'cost' ? ['1.5', '$2'] : ['50', '2k'];
        return word + ' is not a filter: ' + m[1] + op + ' takes ' + (time ? 'a duration' : 'a figure') + ', as ' +
          m[1] + op + like[0] + ' or ' + m[1] + op + like[1];
      }
      return (row) => {
        const v = row.figure(col);
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

  /** @param {NodeListOf<HTMLTableElement>} tables */
  function filtering(tables) {
    const input = /** @type {HTMLInputElement | null} */ (doc.getElementById('filter'));
    const status = doc.getElementById('filter-status');
    if (!input) return;
    /** @type {SessionRow[]} */
    let rows = [];
    /** @type {{el: HTMLElement | null, rows: SessionRow[], count: Element | null}[]} */
    const sections = [];
    for (const table of tables) {
      const section = table.closest('section');
      const h = section ? section.querySelector('h2') : null;
      // The project's name, without the count beside it.
      const name = h ? h.querySelector('code') || h.firstChild : null;
      const project = name ? (name.textContent || '').trim().toLowerCase() : '';
      const own = Array.from(table.tBodies[0].rows, (tr) => rowOf(tr, project));
      rows = rows.concat(own);
      sections.push({ el: section, rows: own, count: h ? h.querySelector('.count') : null });
    }

    let pending = 0;
    input.addEventListener('input', () => {
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(apply);
    });
    doc.addEventListener('keydown', (ev) => {
      const active = doc.activeElement;
      if (ev.key === '/' && active !== input && !(active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName))) {
        ev.preventDefault();
        input.focus();
      } else if (ev.key === 'Escape' && active === input) {
        input.value = '';
        apply();
      }
    });

    function apply() {
      const words = /** @type {HTMLInputElement} */ (input).value.toLowerCase().split(/\s+/).filter(Boolean);
      /** @type {string[]} */
      const problems = [];
      /** @type {RowTest[]} */
      const tests = [];
      for (const w of words) {
        const f = parseFilter(w);
        if (typeof f === 'string') problems.push(f);
        else tests.push(f || ((row) => row.text.indexOf(w) >= 0));
      }
      let shown = 0;
      for (const section of sections) {
        let inSection = 0;
        for (const row of section.rows) {
          let ok = true;
          for (let w = 0; w < tests.length && ok; w++) ok = tests[w](row);
          row.el.hidden = !ok;
          if (ok) inSection++;
        }
        shown += inSection;
        if (section.el) section.el.hidden = !inSection;
        // A project's count is of the sessions it shows.
        if (section.count) section.count.textContent = String(inSection);
      }
      if (status) status.textContent = words.length ? [shown + ' of ' + count(rows.length, 'session', 'sessions')].concat(problems).join(' · ') : '';
    }
  }

  /**
   * rowOf is what filtering reads of a session's row: its text (project,
   * title, models), its models' full names, its project, and its figures.
   * @param {HTMLTableRowElement} tr @param {string} project
   * @returns {SessionRow}
   */
  function rowOf(tr, project) {
    const cells = tr.cells;
    const names = Array.from(cells[4].querySelectorAll('span[title]'), (span) => (span.getAttribute('title') || '').toLowerCase());
    const models = names.join(' ') + ' ' + (cells[4].textContent || '').toLowerCase();
    return {
      el: tr,
      text: project + ' ' + (cells[0].textContent || '').toLowerCase() + ' ' + models,
      model: models,
      project,
      figure: (col) => Number(cells[col].getAttribute('data-v')) || 0,
    };
  }

  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', init);
  else init();

  return { localDate, parseFilter, figure, count };
})();
