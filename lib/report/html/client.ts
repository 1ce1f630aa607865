// The page script, shipped inline as text. It renders only the visible page of the
// recreation list (100 rows) from the embedded JSON, so a report with tens of
// thousands of recreations keeps a small DOM. Untrusted values reach the DOM only
// through textContent and setAttribute, never innerHTML, so log data cannot inject
// markup even though it is not HTML-escaped in the JSON.
//
// Plain ES2017 in a string rather than compiled TypeScript: the report must not depend
// on a bundler, and code-coverage instrumentation would otherwise leak into the page.

export const PAGE_SIZE = 100;

export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var PAGE_SIZE = Number(document.body.getAttribute('data-page-size')) || 100;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var S = data.strings;
  function str(i) { return i === null ? null : S[i]; }
  // Decoded once: the embedded form is compact (page.ts, ClientRecreation), this one is handy.
  var recs = data.recreations.map(function (t, idx) {
    return {
      idx: idx, time: t[0], broker: S[t[1]], brokerLabel: S[t[2]], deletedPod: t[3], deletedUid: t[4],
      createdPod: t[5], classification: S[t[6]], deletedBy: str(t[7]), createdAt: t[8],
      fields: t[9].map(function (f) { return { path: S[f[0]], from: S[f[1]], to: S[f[2]], by: str(f[3]), change: f[4].map(function (i) { return S[i]; }) }; }),
      verdict: { before: S[t[10]], after: S[t[11]] }, evidence: t[12], removed: t[13] === 1
    };
  });
  var REMOVED = 'broker-removed';
  var order = data.order;
  var bins = data.bins || [];
  var state = { cls: '', broker: '', q: '', page: 0 };
  var filtered = order;

  var list = document.getElementById('rec-list');
  var pageInfo = document.getElementById('page-info');
  var prev = document.getElementById('page-prev');
  var next = document.getElementById('page-next');
  var clsSel = document.getElementById('filter-class');
  var brokerSel = document.getElementById('filter-broker');
  var search = document.getElementById('filter-text');
  var countInfo = document.getElementById('rec-count');
  var tip = document.getElementById('tip');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // What followed the deleted pod, as successorLabel (format.ts) words it.
  function successor(r) {
    return r.createdPod || (r.removed ? '(none: broker removed by a downscale)' : '(none)');
  }

  function haystack(r) {
    if (r._h === undefined) {
      var parts = [r.deletedPod, r.deletedUid, r.createdPod, r.brokerLabel, r.deletedBy, r.classification];
      r.fields.forEach(function (f) { parts.push(f.path, f.by); });
      r._h = parts.filter(Boolean).join('\n').toLowerCase();
    }
    return r._h;
  }

  function applyFilters() {
    var q = state.q.trim().toLowerCase();
    filtered = order.filter(function (i) {
      var r = recs[i];
      // A broker removed by a downscale is no recreation of its class: it has a filter of its own.
      if (state.cls === REMOVED ? !r.removed : state.cls && (r.removed || r.classification !== state.cls)) return false;
      if (state.broker && r.broker !== state.broker) return false;
      if (q && haystack(r).indexOf(q) < 0) return false;
      return true;
    });
    var pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
    if (state.page >= pages) state.page = pages - 1;
    document.querySelectorAll('.legend button.chip').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-class') === state.cls));
    });
    render();
  }

  function verdict(label, value) {
    var cls = value === 'restart' ? 'restart' : value === 'no restart' ? 'no-restart' : 'na';
    var v = el('span', 'verdict ' + cls);
    v.appendChild(el('span', '', label + ': '));
    v.appendChild(el('b', '', value));
    return v;
  }

  function changeLine(line) {
    var op = line.charAt(1) === ' ' ? line.charAt(0) : '';
    return el('code', 'chg' + (op === '+' ? ' add' : op === '-' ? ' remove' : op === '~' ? ' mod' : ''), line);
  }

  function body(r) {
    var b = el('div', 'rec-body');
    var who = el('div', 'who');
    who.appendChild(el('span', '', 'Deleted by '));
    who.appendChild(el('code', '', r.deletedBy || 'unknown'));
    who.appendChild(document.createTextNode(r.createdPod
      ? ' · successor ' + r.createdPod + ' created ' + r.createdAt + ' UTC'
      : r.removed ? ' · no successor: the broker was removed by a downscale' : ' · no successor pod seen'));
    b.appendChild(who);
    var vs = el('div', 'verdicts');
    // Another operator's finding has one verdict: its answer for each range of its versions.
    if (r.verdict.after) {
      vs.appendChild(verdict('Before the koperator fix (three-way merge)', r.verdict.before));
      vs.appendChild(verdict('After the fix (intent diff)', r.verdict.after));
    } else vs.appendChild(verdict('Would restart, by version', r.verdict.before));
    b.appendChild(vs);
    if (r.fields.length) {
      var t = el('table', 'diff');
      var head = el('tr');
      ['path', 'what changed', 'by'].forEach(function (h) { head.appendChild(el('th', '', h)); });
      t.appendChild(head);
      r.fields.forEach(function (f) {
        var tr = el('tr', 'field');
        var p = el('td', 'path'); p.appendChild(el('code', '', f.path)); tr.appendChild(p);
        var c = el('td', 'change');
        f.change.forEach(function (line) { c.appendChild(changeLine(line)); });
        // The whole values stay one click away, below the line that says what differs.
        var whole = el('details', 'whole');
        whole.appendChild(el('summary', '', 'whole value before → after'));
        whole.appendChild(el('pre', 'from', f.from));
        whole.appendChild(el('pre', 'to', f.to));
        c.appendChild(whole);
        tr.appendChild(c);
        tr.appendChild(el('td', 'by', f.by === null ? 'unknown' : f.by));
        t.appendChild(tr);
      });
      b.appendChild(t);
    } else {
      b.appendChild(el('div', 'muted', 'No field differences recorded for this recreation.'));
    }
    var ev = el('div', 'evidence');
    ev.appendChild(el('span', '', 'Evidence: '));
    if (r.evidence.length === 0) ev.appendChild(el('span', '', 'none recorded'));
    r.evidence.forEach(function (id, k) {
      if (k) ev.appendChild(document.createTextNode(', '));
      ev.appendChild(el('code', '', id));
    });
    if (r.deletedUid) {
      ev.appendChild(document.createTextNode(' · deleted pod uid '));
      ev.appendChild(el('code', '', r.deletedUid));
    }
    b.appendChild(ev);
    return b;
  }

  function row(r) {
    var d = el('details', 'rec');
    d.setAttribute('data-idx', String(r.idx));
    d.setAttribute('data-class', r.classification);
    var s = el('summary');
    s.appendChild(el('span', 'mono', r.time));
    s.appendChild(el('span', 'ellip', r.brokerLabel));
    var pods = el('span', 'pods ellip mono');
    pods.appendChild(el('span', '', r.deletedPod));
    pods.appendChild(el('span', 'arrow', '→'));
    pods.appendChild(el('span', r.createdPod ? '' : 'muted', successor(r)));
    pods.title = r.deletedPod + ' → ' + successor(r) + (r.deletedBy ? '\ndeleted by ' + r.deletedBy : '');
    s.appendChild(pods);
    var chip = el('span', 'chip');
    chip.setAttribute('data-class', r.classification);
    chip.appendChild(el('span', 'dot'));
    chip.appendChild(el('span', '', r.classification));
    var c = el('span'); c.appendChild(chip); s.appendChild(c);
    s.appendChild(el('span', 'nfields', r.fields.length === 1 ? '1 field' : r.fields.length + ' fields'));
    d.appendChild(s);
    // The diff is built on first open: most rows are never expanded.
    d.addEventListener('toggle', function () {
      if (d.open && !d.querySelector('.rec-body')) d.appendChild(body(r));
    });
    return d;
  }

  function render() {
    var pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
    var from = state.page * PAGE_SIZE;
    var slice = filtered.slice(from, from + PAGE_SIZE);
    var frag = document.createDocumentFragment();
    slice.forEach(function (i) { frag.appendChild(row(recs[i])); });
    list.replaceChildren(frag);
    if (slice.length === 0) list.appendChild(el('div', 'muted rec-empty', 'No recreation matches these filters.'));
    pageInfo.textContent = 'Page ' + (state.page + 1) + ' of ' + pages;
    countInfo.textContent = filtered.length === 0 ? '0 shown' :
      (from + 1) + '–' + (from + slice.length) + ' of ' + filtered.length.toLocaleString('en-US') +
      (filtered.length === recs.length ? '' : ' (filtered from ' + recs.length.toLocaleString('en-US') + ')');
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  function go(page) { state.page = page; render(); }
  prev.addEventListener('click', function () { if (state.page > 0) go(state.page - 1); });
  next.addEventListener('click', function () { go(state.page + 1); });
  clsSel.addEventListener('change', function () { state.cls = clsSel.value; state.page = 0; applyFilters(); });
  brokerSel.addEventListener('change', function () { state.broker = brokerSel.value; state.page = 0; applyFilters(); });
  var timer = 0;
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.q = search.value; state.page = 0; applyFilters(); }, 150);
  });
  document.querySelectorAll('.legend button.chip').forEach(function (b) {
    b.addEventListener('click', function () {
      var c = b.getAttribute('data-class');
      state.cls = state.cls === c ? '' : c;
      clsSel.value = state.cls;
      state.page = 0;
      applyFilters();
    });
  });

  /** Shows one recreation: clears filters that hide it, turns to its page, opens it. */
  function reveal(idx) {
    if (filtered.indexOf(idx) < 0) {
      state.cls = ''; state.broker = ''; state.q = '';
      clsSel.value = ''; brokerSel.value = ''; search.value = '';
      applyFilters();
    }
    var pos = filtered.indexOf(idx);
    if (pos < 0) return;
    go(Math.floor(pos / PAGE_SIZE));
    var d = list.querySelector('details[data-idx="' + idx + '"]');
    if (!d) return;
    d.open = true;
    d.classList.add('flash');
    setTimeout(function () { d.classList.remove('flash'); }, 1700);
    d.scrollIntoView({ block: 'center' });
  }

  var svg = document.querySelector('svg.timeline');
  if (svg) {
    svg.addEventListener('click', function (ev) {
      var t = ev.target;
      if (t.classList.contains('mark')) {
        var first = Number(t.getAttribute('data-idx'));
        if (t.hasAttribute('data-bin')) {
          // A binned mark lists its broker's recreations of that class, from its first one.
          var r0 = recs[first];
          state.broker = r0.broker; state.cls = r0.classification;
          brokerSel.value = state.broker; clsSel.value = state.cls;
          applyFilters();
        }
        reveal(first);
      } else if (t.classList.contains('loop-band')) {
        var d = document.querySelector('details.broker-loops[data-broker="' + CSS.escape(t.getAttribute('data-broker')) + '"]');
        if (d) { d.open = true; d.scrollIntoView({ block: 'center' }); }
      } else if (t.classList.contains('row-label')) {
        state.broker = t.getAttribute('data-broker');
        brokerSel.value = state.broker;
        state.page = 0;
        applyFilters();
        document.getElementById('recreations').scrollIntoView();
      }
    });
    svg.addEventListener('mouseover', function (ev) {
      var t = ev.target;
      if (!t.classList.contains('mark')) return;
      var r = recs[Number(t.getAttribute('data-idx'))];
      if (!r) return;
      tip.replaceChildren();
      if (t.hasAttribute('data-bin')) {
        var members = bins[Number(t.getAttribute('data-bin'))] || [];
        var last = recs[members[members.length - 1]] || r;
        tip.appendChild(el('b', '', members.length.toLocaleString('en-US') + ' recreations'));
        tip.appendChild(el('div', '', r.brokerLabel + ' · ' + r.classification));
        tip.appendChild(el('div', '', r.time + ' → ' + last.time + ' UTC'));
        tip.appendChild(el('div', '', 'click to list them'));
      } else {
        tip.appendChild(el('b', '', r.time + ' UTC'));
        tip.appendChild(el('div', '', r.brokerLabel + ' · ' + r.classification));
        tip.appendChild(el('div', '', r.deletedPod + ' → ' + successor(r)));
        tip.appendChild(el('div', '', 'deleted by ' + (r.deletedBy || 'unknown')));
        if (r.fields.length) tip.appendChild(el('div', '', r.fields.map(function (f) { return f.path; }).join(', ')));
      }
      tip.style.display = 'block';
    });
    svg.addEventListener('mousemove', function (ev) {
      tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8) + 'px';
      tip.style.top = (ev.clientY + 14) + 'px';
    });
    svg.addEventListener('mouseout', function (ev) {
      if (ev.target.classList && ev.target.classList.contains('mark')) tip.style.display = 'none';
    });
  }

  render();

  // Fights: server-rendered rows, filtered and paged here by hiding the others.
  var fightSection = document.getElementById('fights');
  var fightRows = Array.prototype.slice.call(document.querySelectorAll('#fight-list details.fight'));
  if (fightSection && fightRows.length) {
    var FIGHT_PAGE = Number(fightSection.getAttribute('data-page-size')) || 20;
    var fstate = { kind: '', q: '', page: 0 };
    var kindSel = document.getElementById('fight-kind');
    var fsearch = document.getElementById('fight-text');
    var fprev = document.getElementById('fight-prev');
    var fnext = document.getElementById('fight-next');
    var finfo = document.getElementById('fight-page-info');
    var fcount = document.getElementById('fight-count');
    var fshown = fightRows;
    var frender = function () {
      var q = fstate.q.trim().toLowerCase();
      fshown = fightRows.filter(function (d) {
        if (fstate.kind && d.getAttribute('data-kind') !== fstate.kind) return false;
        return !q || d.getAttribute('data-text').indexOf(q) >= 0;
      });
      var pages = Math.max(1, Math.ceil(fshown.length / FIGHT_PAGE));
      if (fstate.page >= pages) fstate.page = pages - 1;
      var from = fstate.page * FIGHT_PAGE;
      fightRows.forEach(function (d) { d.hidden = true; });
      fshown.slice(from, from + FIGHT_PAGE).forEach(function (d) { d.hidden = false; });
      finfo.textContent = 'Page ' + (fstate.page + 1) + ' of ' + pages;
      fcount.textContent = fshown.length === 0 ? '0 shown' :
        (from + 1) + '–' + Math.min(from + FIGHT_PAGE, fshown.length) + ' of ' + fshown.length.toLocaleString('en-US') +
        (fshown.length === fightRows.length ? '' : ' (filtered from ' + fightRows.length.toLocaleString('en-US') + ')');
      fprev.disabled = fstate.page === 0;
      fnext.disabled = fstate.page >= pages - 1;
    };
    fprev.addEventListener('click', function () { if (fstate.page > 0) { fstate.page--; frender(); } });
    fnext.addEventListener('click', function () { fstate.page++; frender(); });
    kindSel.addEventListener('change', function () { fstate.kind = kindSel.value; fstate.page = 0; frender(); });
    var ftimer = 0;
    fsearch.addEventListener('input', function () {
      clearTimeout(ftimer);
      ftimer = setTimeout(function () { fstate.q = fsearch.value; fstate.page = 0; frender(); }, 150);
    });
    frender();
  }
})();
`;
