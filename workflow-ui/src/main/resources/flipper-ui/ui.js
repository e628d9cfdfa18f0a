// Keeps a page current without reloading it: polls the page's JSON (/api + the page's path) and, when the data
// changed, fetches the page again and brings every [data-live] element (by id) up to date in place: elements
// that stay are kept and only what differs is changed, so nothing moves, focus and scroll positions stay, and
// a field being typed in keeps its text. The server renders and escapes all HTML; this script never builds
// markup from data. Listeners get the JSON as a 'flipper:data' event.
// Also: times shown relative to now beside their UTC label, the navbar's menu and theme buttons.
(function () {
  'use strict';
  var body = document.body;
  var interval = parseInt(body.getAttribute('data-refresh-ms') || '5000', 10);
  var path = location.pathname === '/' ? '/workflows' : location.pathname;
  var apiUrl = '/api' + path + location.search;
  var last = null;
  var state = document.getElementById('refresh-state');
  // Attributes scripts set on server-rendered elements: a refresh leaves them alone.
  var SCRIPT_OWNED = { 'style': true, 'data-rel': true, 'data-ready': true };

  function show(text) { if (state) { state.textContent = text; } }

  // "3 min ago", "in 2 h": beside each <time datetime> (CSS shows data-rel after the UTC label).
  function relative(ms) {
    var s = Math.round(Math.abs(ms) / 1000);
    // seconds in steps of 10, so the text changes seldom
    var text = s < 60 ? (s < 10 ? 'now' : Math.floor(s / 10) * 10 + ' s')
      : s < 3600 ? Math.round(s / 60) + ' min'
        : s < 172800 ? Math.round(s / 3600) + ' h'
          : Math.round(s / 86400) + ' d';
    return text === 'now' ? 'just now' : ms > 0 ? 'in ' + text : text + ' ago';
  }

  function relativeTimes() {
    var now = Date.now();
    document.querySelectorAll('time.ts[datetime]').forEach(function (t) {
      var at = Date.parse(t.getAttribute('datetime'));
      if (!isNaN(at)) {
        var rel = relative(at - now);
        if (t.getAttribute('data-rel') !== rel) { t.setAttribute('data-rel', rel); }
      }
    });
  }

  function sameNode(a, b) {
    return a.nodeType === b.nodeType && a.nodeName === b.nodeName
      && (a.nodeType !== 1 || (a.id === b.id && keyOf(a) === keyOf(b)));
  }

  // Rows carry their item as data-job, data-workflow, ...: a row is only updated into the same item's row.
  function keyOf(el) {
    if (el.nodeName !== 'TR' && el.nodeName !== 'LI') { return ''; }
    for (var i = 0; i < el.attributes.length; i++) {
      var a = el.attributes[i];
      if (a.name.indexOf('data-') === 0 && !SCRIPT_OWNED[a.name]) { return a.name + '=' + a.value; }
    }
    return '';
  }

  function morphAttributes(old, fresh) {
    var i;
    for (i = 0; i < fresh.attributes.length; i++) {
      var a = fresh.attributes[i];
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); }
    }
    for (i = old.attributes.length - 1; i >= 0; i--) {
      var name = old.attributes[i].name;
      if (!SCRIPT_OWNED[name] && !fresh.hasAttribute(name)) { old.removeAttribute(name); }
    }
  }

  // Brings old's children to fresh's, changing only what differs.
  function morphChildren(old, fresh) {
    var freshKids = Array.prototype.slice.call(fresh.childNodes);
    freshKids.forEach(function (f, i) {
      var o = old.childNodes[i];
      if (!o) { old.appendChild(document.importNode(f, true)); return; }
      if (!sameNode(o, f)) { old.replaceChild(document.importNode(f, true), o); return; }
      if (o.nodeType === 1) { morphAttributes(o, f); morphChildren(o, f); }
      else if (o.nodeValue !== f.nodeValue) { o.nodeValue = f.nodeValue; }
    });
    while (old.childNodes.length > freshKids.length) { old.removeChild(old.lastChild); }
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    document.querySelectorAll('[data-live][id]').forEach(function (old) {
      var fresh = doc.getElementById(old.id);
      if (fresh) { morphChildren(old, fresh); }
    });
    relativeTimes();
  }

  function poll() {
    if (document.hidden) { setTimeout(poll, interval); return; } // a background tab costs the master nothing
    fetch(apiUrl, { headers: { 'Accept': 'application/json' } })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        // UTC and labelled, as every time on the pages (not the browser's local clock)
        show('updated ' + new Date().toISOString().substring(11, 19) + ' UTC');
        relativeTimes();
        if (last !== null && text !== last) {
          return fetch(location.href).then(function (r) { return r.text(); }).then(function (html) {
            swap(html);
            last = text;
            document.dispatchEvent(new CustomEvent('flipper:data', { detail: JSON.parse(text) }));
          });
        }
        if (last === null) {
          document.dispatchEvent(new CustomEvent('flipper:data', { detail: JSON.parse(text) }));
        }
        last = text;
      })
      .catch(function (e) { show('UI server unreachable (' + e + '), retrying'); })
      .finally(function () { setTimeout(poll, interval); });
  }

  // The navbar: the current section marked, the phone's menu button, the theme toggle.
  function navbar() {
    var here = path.indexOf('/workflows') === 0 ? '/workflows' : path;
    document.querySelectorAll('.navbar .nav-link[data-section]').forEach(function (a) {
      if (here.indexOf(a.getAttribute('data-section')) === 0) { a.setAttribute('aria-current', 'page'); }
    });
    var toggle = document.getElementById('nav-toggle');
    var links = document.getElementById('nav-links');
    if (toggle && links) {
      toggle.addEventListener('click', function () {
        var open = links.classList.toggle('show');
        toggle.setAttribute('aria-expanded', String(open));
      });
    }
    var theme = document.getElementById('theme-toggle');
    if (theme && window.flipperTheme) {
      var mark = function () { theme.setAttribute('aria-pressed', String(window.flipperTheme.current() === 'dark')); };
      mark();
      theme.addEventListener('click', function () {
        window.flipperTheme.choose(window.flipperTheme.current() === 'dark' ? 'light' : 'dark');
      });
      document.addEventListener('flipper:theme', mark);
    }
  }

  // Who is signed in, and a sign-out button (a POST with the CSRF token from /api/csrf).
  fetch('/api/me').then(function (r) { return r.ok ? r.json() : null; }).then(function (me) {
    var box = document.getElementById('me');
    if (!me || !me.signIn || !box) { return; }
    document.getElementById('me-name').textContent = me.name + ' (' + me.role + ')';
    box.hidden = false;
    document.getElementById('logout').addEventListener('click', function () {
      fetch('/api/csrf').then(function (r) { return r.json(); }).then(function (c) {
        var headers = {};
        headers[c.header] = c.token;
        return fetch('/logout', { method: 'POST', headers: headers });
      }).then(function () { location.href = '/login'; });
    });
  }).catch(function () { /* the refresh state already says when the UI server is unreachable */ });

  navbar();
  relativeTimes();
  setInterval(relativeTimes, 30000);
  window.flipper = { apiUrl: apiUrl };
  if (!/^\/(login|actions\/)/.test(location.pathname)) { poll(); } // the login form and results have no data

})();
