// Keeps a page current without reloading it: polls the page's JSON (/api + the page's path) and, when the data
// changed, fetches the page again and swaps every [data-live] element (by id). The server renders and escapes
// all HTML; this script never builds markup from data. Listeners get the JSON as a 'flipper:data' event.
(function () {
  'use strict';
  var body = document.body;
  var interval = parseInt(body.getAttribute('data-refresh-ms') || '5000', 10);
  var path = location.pathname === '/' ? '/workflows' : location.pathname;
  var apiUrl = '/api' + path + location.search;
  var last = null;
  var state = document.getElementById('refresh-state');

  function show(text) { if (state) { state.textContent = text; } }

  // Timeline bars carry their place as data-left/data-width (percent): the Content-Security-Policy allows no
  // style attributes in the HTML, but it does allow setting styles from this script.
  function placeBars() {
    document.querySelectorAll('.gantt-bar[data-left]').forEach(function (bar) {
      bar.style.left = bar.getAttribute('data-left') + '%';
      bar.style.width = bar.getAttribute('data-width') + '%';
    });
  }

  function swap(html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    document.querySelectorAll('[data-live][id]').forEach(function (old) {
      var fresh = doc.getElementById(old.id);
      if (fresh) { old.innerHTML = fresh.innerHTML; }
    });
    placeBars();
  }

  function poll() {
    if (document.hidden) { setTimeout(poll, interval); return; } // a background tab costs the master nothing
    fetch(apiUrl, { headers: { 'Accept': 'application/json' } })
      .then(function (response) { return response.text(); })
      .then(function (text) {
        // UTC and labelled, as every time on the pages (not the browser's local clock)
        show('updated ' + new Date().toISOString().substring(11, 19) + ' UTC');
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

  placeBars();
  window.flipper = { apiUrl: apiUrl };
  if (!/^\/(login|actions\/)/.test(location.pathname)) { poll(); } // the login form and results have no data

})();
