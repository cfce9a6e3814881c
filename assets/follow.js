// @ts-check
// Live follow, for pages served by `piexport serve`: when the session file
// changes, the page is loaded again where the reader was. A reader at the
// bottom stays at the bottom, so a session being written reads like a tail.
//
// The server adds this script to the pages it serves as
// /assets/follow.js?v=VERSION, VERSION being the state of the file the page
// was made from; the event stream at PAGE/events says when the file differs
// from it. Exported files never carry this script.
(function () {
  'use strict';

  var script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !window.EventSource || !window.sessionStorage) return;
  var version = new URL(script.src, location.href).searchParams.get('v') || '';
  var page = location.pathname.replace(/\/+$/, '');
  var KEY = 'piexport:follow:' + page;

  // ---- after a reload: back to where the reader was --------------------

  /**
   * @typedef {object} Place where the reader was before a reload
   * @property {string} entry the entry at the top of the window (piexportPage.where)
   * @property {number} into how far into it, px
   * @property {number} y the window's scroll position, for a page without entries
   * @property {boolean} bottom the reader was at the bottom, following
   * @property {number} tree the tree's scroll position
   * @property {boolean} treeBottom
   */
  /** @type {Place | null} */
  var saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) || 'null');
    sessionStorage.removeItem(KEY);
  } catch (e) { saved = null; }
  if (saved) {
    // The browser's own restoring would fight ours.
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
    // After the page's script has laid out the path in view and scrolled
    // to a linked entry, which happens on DOMContentLoaded and the frame
    // after it.
    window.addEventListener('load', function () {
      requestAnimationFrame(function () { requestAnimationFrame(restore); });
    });
  }

  // The path is a virtual list (pathview.js): the place is the entry at
  // the top of the window and how far into it the reader was.
  function restore() {
    if (!saved) return;
    var tree = document.getElementById('tree');
    if (tree) tree.scrollTop = saved.treeBottom ? tree.scrollHeight : saved.tree;
    var root = document.scrollingElement || document.documentElement;
    var pageAPI = window.piexportPage;
    if (!saved.bottom && saved.entry && pageAPI && pageAPI.goTo) pageAPI.goTo(saved.entry, saved.into);
    else window.scrollTo(0, saved.bottom ? root.scrollHeight : saved.y);
  }

  // ---- watching ----------------------------------------------------------

  var source = new EventSource(page + '/events?v=' + encodeURIComponent(version));
  var timer = 0;
  source.addEventListener('change', function () {
    // A writer appends a turn in several lines: wait for it to settle.
    clearTimeout(timer);
    timer = setTimeout(reload, 400);
  });
  source.addEventListener('gone', function () { source.close(); });

  function reload() {
    var root = document.scrollingElement || document.documentElement;
    var tree = document.getElementById('tree');
    var at = window.piexportPage && window.piexportPage.where ? window.piexportPage.where() : null;
    var place = {
      entry: at ? at.entry : '',
      into: at ? at.into : 0,
      y: window.scrollY,
      bottom: window.scrollY + window.innerHeight >= root.scrollHeight - 48,
      tree: tree ? tree.scrollTop : 0,
      treeBottom: tree ? tree.scrollTop + tree.clientHeight >= tree.scrollHeight - 24 : false
    };
    try { sessionStorage.setItem(KEY, JSON.stringify(place)); } catch (e) { /* reload anyway */ }
    source.close();
    location.reload();
  }
})();
