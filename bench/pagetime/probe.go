package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// probeScript is evaluated in the page before any of the page's own
// scripts. Once per frame (in requestAnimationFrame, before style and
// layout) it searches the nodes added since the last frame for the text,
// checks the candidates' visibility, and takes the time once the frame
// that first shows one has been rendered. What the search costs the page
// is reported as probe_ms.
func probeScript(text, exclude string, deepLink bool) (string, error) {
	t, err := json.Marshal(text)
	if err != nil {
		return "", err
	}
	x, err := json.Marshal(exclude)
	if err != nil {
		return "", err
	}
	xp, err := json.Marshal("//text()[contains(., " + xpathLiteral(text) + ")]")
	if err != nil {
		return "", err
	}
	return strings.NewReplacer("__TEXT__", string(t), "__EXCLUDE__", string(x), "__XPATH__", string(xp), "__DEEPLINK__", fmt.Sprint(deepLink)).Replace(probeJS), nil
}

// xpathLiteral quotes s for XPath 1.0, which has no escapes.
func xpathLiteral(s string) string {
	if !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	if !strings.Contains(s, `'`) {
		return `'` + s + `'`
	}
	parts := strings.Split(s, `"`)
	return `concat("` + strings.Join(parts, `", '"', "`) + `")`
}

const probeJS = `(function () {
  'use strict';
  if (window.top !== window) return;
  var TEXT = __TEXT__, EXCLUDE = __EXCLUDE__, XPATH = __XPATH__, DEEPLINK = __DEEPLINK__;
  var st = { visible: -1, where: '', fcp: -1, long: [], loaf: [], cands: [], scans: 0, probeMs: 0, errors: [] };
  Object.defineProperty(window, '__pagetime', { value: st });
  var now = function () { return performance.now(); };

  // A page whose script fails never shows the text; say why.
  addEventListener('error', function (e) {
    if (e instanceof ErrorEvent) st.errors.push(String(e.message));
  }, true);
  addEventListener('unhandledrejection', function (e) { st.errors.push('unhandled rejection: ' + String(e.reason)); });

  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { st.long.push([e.startTime, e.duration]); });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no long task API */ }
  // A long task leaves out the rendering that follows it (style, layout,
  // paint), which on a big page can take far longer; a long animation
  // frame includes it.
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { st.loaf.push([e.startTime, e.duration]); });
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { /* no long animation frame API */ }
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) { if (e.name === 'first-contentful-paint') st.fcp = e.startTime; });
    }).observe({ type: 'paint', buffered: true });
  } catch (e) { /* no paint timing */ }

  function consider(textNode) {
    var el = textNode.parentElement;
    if (!el || (EXCLUDE && el.closest(EXCLUDE))) return;
    if (st.cands.indexOf(el) < 0) st.cands.push(el);
  }
  // The parser only ever adds nodes at the end of the document (on its
  // right edge), so each frame walks on only from the last text node seen,
  // which costs one pass over the document in all. A MutationObserver
  // would cost far more on a page of a million nodes, and so does XPath's
  // following axis.
  var walker = null, last = null;
  function searchNew() {
    var t = now();
    if (!walker) walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
    if (last) {
      // The parser may still append to the last text node it made.
      if (last.data.indexOf(TEXT) >= 0) consider(last);
      walker.currentNode = last;
    }
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.data.indexOf(TEXT) >= 0) consider(n);
      last = n;
    }
    st.probeMs += now() - t;
  }
  // Scripts can put text anywhere (pi's page renders all of it from its
  // data): once the document is parsed, the whole of it is searched, again
  // every quarter second until the text is found.
  var lastFull = -1e9;
  function searchAll() {
    var t = now();
    st.scans++;
    lastFull = t;
    var snap = document.evaluate(XPATH, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (var i = 0; i < snap.snapshotLength; i++) consider(snap.snapshotItem(i));
    st.probeMs += now() - t;
  }
  // At DOMContentLoaded the parser is done: what it added last is
  // searched at once, not a frame later, and so is text a script put
  // elsewhere.
  document.addEventListener('DOMContentLoaded', function () {
    if (seen) return;
    searchNew();
    if (!check()) { searchAll(); check(); }
  });

  function shown(el) {
    if (!el.isConnected || !el.checkVisibility()) return false;
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }
  function describe(el) {
    var a = el.closest('[data-entry], [id]');
    if (!a) return el.tagName.toLowerCase();
    return a.hasAttribute('data-entry') ? 'article[data-entry=' + a.getAttribute('data-entry') + ']' : '#' + a.id;
  }
  // afterFrame calls f once the current frame's rendering (style, layout,
  // paint) is done: a message posted from requestAnimationFrame is handled
  // only after that.
  var channel = new MessageChannel(), afterQueue = [];
  channel.port1.onmessage = function () { var f = afterQueue.shift(); if (f) f(); };
  function afterFrame(f) { afterQueue.push(f); channel.port2.postMessage(0); }
  var seen = false;
  function check() {
    if (seen) return true;
    for (var i = 0; i < st.cands.length; i++) {
      if (shown(st.cands[i])) {
        seen = true;
        st.where = describe(st.cands[i]);
        afterFrame(function () {
          st.visible = now();
          performance.mark('pagetime:visible');
          if (DEEPLINK) deepLink();
        });
        return true;
      }
    }
    return false;
  }
  // piexport's page draws its entries with its script, in #path, which
  // stays small whatever the session: it is searched every frame.
  function searchPath() {
    var box = document.getElementById('path');
    if (!box) return;
    var t = now();
    var w = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (var n = w.nextNode(); n; n = w.nextNode()) if (n.data.indexOf(TEXT) >= 0) consider(n);
    st.probeMs += now() - t;
  }
  function frame() {
    if (seen) return;
    searchNew();
    searchPath();
    if (!check() && document.readyState !== 'loading' && now() - lastFull > 250) {
      searchAll();
      check();
    }
    if (!seen) requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  function longStats(from, to, list) {
    var n = 0, max = 0, sum = 0;
    (list || st.long).forEach(function (l) {
      if (l[0] < from || l[0] > to) return;
      n++; sum += l[1]; if (l[1] > max) max = l[1];
    });
    return { n: n, max: max, sum: sum };
  }

  // A piexport page marks when its tree, search and filters work
  // (performance.mark in page.js); other pages have no such mark.
  function interactiveAt() { return markAt('piexport:interactive'); }
  function markAt(name) {
    var marks = performance.getEntriesByName(name, 'mark');
    return marks.length ? marks[0].startTime : -1;
  }

  st.report = function () {
    var nav = performance.getEntriesByType('navigation')[0] || {};
    var until = st.visible >= 0 ? st.visible : now();
    var before = longStats(0, until);
    var frames = longStats(0, until, st.loaf);
    var all = longStats(0, nav.loadEventEnd > 0 ? Math.max(nav.loadEventEnd, until) : now());
    return {
      url: location.href,
      visible: st.visible,
      fcp: st.fcp,
      dcl: nav.domContentLoadedEventEnd > 0 ? nav.domContentLoadedEventEnd : -1,
      interactive: interactiveAt(),
      painted: markAt('piexport:painted'),
      load: nav.loadEventEnd > 0 ? nav.loadEventEnd : -1,
      loaded: document.readyState === 'complete' && nav.loadEventEnd > 0,
      longBefore: before.n, longMaxBefore: before.max, longSumBefore: before.sum,
      frameMaxBefore: frames.max,
      longAll: all.n, longMaxAll: all.max, longSumAll: all.sum,
      elements: document.getElementsByTagName('*').length,
      heapMB: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : -1,
      scans: st.scans,
      probeMs: st.probeMs,
      candidates: st.cands.length,
      errors: st.errors.slice(0, 3),
      where: st.where
    };
  };

  // A piexport page's path in view and another branch, from its index
  // (page/view.go): the view path's entries, and the first entry in tree
  // order off it that has an article of its own (the earliest branch off
  // the path, so that the switch changes the most).
  function branches() {
    var el = document.getElementById('session-index');
    if (!el) return null;
    var ix = JSON.parse(el.textContent);
    var n = ix.ids.length, on = new Uint8Array(n), absorbed = new Uint8Array(n);
    (ix.absorbed || []).forEach(function (i) { absorbed[i] = 1; });
    for (var i = ix.view; i >= 0 && i < n; i = ix.parents[i]) on[i] = 1;
    var other = -1;
    for (i = 0; i < n && other < 0; i++) if (!on[i] && !absorbed[i]) other = i;
    // A session of one path (the common shape) has no other branch: the
    // link then goes to the path's first entry, the one farthest from
    // where the page opens.
    var first = -1;
    for (i = ix.view; i >= 0 && i < n; i = ix.parents[i]) if (!absorbed[i]) first = i;
    if (other < 0) other = first;
    return { ids: ix.ids, end: ix.ids[ix.view], other: other < 0 ? null : ix.ids[other] };
  }
  function drawn(id) {
    var a = document.querySelector('#path > article[data-entry="' + CSS.escape(id) + '"]:not([data-placeholder])');
    if (!a || !shown(a)) return false;
    var r = a.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  }
  function pathLength() {
    var a = document.querySelector('#path > article[aria-setsize]');
    return a ? Number(a.getAttribute('aria-setsize')) : 0;
  }

  // follow sets the address's fragment to id, as a link to it does, and
  // resolves with the time until the frame that shows its entry drawn in
  // view is rendered, and the long tasks and frames meanwhile.
  function follow(id) {
    return new Promise(function (resolve, reject) {
      var t0 = now();
      location.hash = '#' + encodeURIComponent(id);
      function step() {
        if (drawn(id)) {
          afterFrame(function () {
            var t1 = now();
            // Long tasks are reported a little after they end.
            setTimeout(function () {
              var lt = longStats(t0 - 1, t1);
              // The frame that follows the link starts before it.
              var fr = longStats(t0 - 1000, t1, st.loaf);
              resolve({ at: t1, ms: t1 - t0, longCount: lt.n, longMax: lt.max, frameMax: fr.max, path: pathLength() });
            }, 300);
          });
        } else if (now() - t0 > 60000) {
          reject(new Error('entry ' + id + ' not drawn in view 60 s after following a link to it'));
        } else {
          requestAnimationFrame(step);
        }
      }
      requestAnimationFrame(step);
    });
  }

  // The deep link (--deeplink): as soon as the leaf shows, a link to an
  // entry of another branch is followed (see check).
  st.deep = null;
  function deepLink() {
    var b = branches();
    if (!b || !b.other) { st.deep = { error: 'no entry to link to: the session has one entry' }; return; }
    follow(b.other).then(function (r) {
      st.deep = { id: b.other, at: r.at, ms: r.ms, longMax: r.longMax, frameMax: r.frameMax };
    }, function (e) { st.deep = { error: String(e.message) }; });
  }

  // switchBranch follows a link to the first entry off the path in view
  // (the earliest branch off it), then, after a pause, one to the entry
  // that ended the path before (so the whole path is shown again).
  st.switchBranch = function () {
    var b = branches();
    if (!b) return Promise.reject(new Error('no session index: --switch needs a piexport page'));
    if (!b.other) return Promise.reject(new Error('no entry to link to: the session has one entry'));
    var before, out;
    // After --deeplink the page shows the other branch: back first.
    var start = st.deep && st.deep.id === b.other ? follow(b.end).then(pause) : Promise.resolve();
    function pause() { return new Promise(function (ok) { setTimeout(ok, 500); }); }
    return start.then(function () {
      before = pathLength();
      return follow(b.other);
    }).then(function (r) {
      out = r;
      return new Promise(function (ok) { setTimeout(ok, 500); });
    }).then(function () {
      return follow(b.end);
    }).then(function (r) {
      return {
        node: b.other, ms: out.ms, longCount: out.longCount, longMax: out.longMax, frameMax: out.frameMax,
        backNode: b.end, backMs: r.ms, backLongCount: r.longCount, backLongMax: r.longMax, backFrameMax: r.frameMax,
        path: before + '->' + out.path + '->' + r.path
      };
    });
  };
})();
`
