// The log viewer: reads the log in chunks from the UI's log API (which reads it from the worker), starting at
// the last 256 KiB, and follows it by byte offset while the execution runs. Text is appended as text nodes.
(function () {
  'use strict';
  var pre = document.getElementById('log');
  if (!pre) { return; }
  var api = pre.getAttribute('data-api');
  var follow = document.getElementById('follow');
  var state = document.getElementById('log-state');
  var offset = -262144;
  var CHUNK = 262144;

  function show(text) { state.textContent = text; }

  function next() {
    fetch(api + '?offset=' + offset + '&max=' + CHUNK)
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (!res.ok) { show(res.body.error || 'cannot read the log'); setTimeout(next, 3000); return; }
        var chunk = res.body;
        if (chunk.offset > 0 && offset < 0) { show('showing from byte ' + chunk.offset + '; download for all'); }
        if (chunk.text.length > 0) {
          pre.appendChild(document.createTextNode(chunk.text));
          if (follow.checked) { pre.scrollTop = pre.scrollHeight; }
        }
        offset = chunk.nextOffset;
        pre.setAttribute('data-offset', String(offset));
        if (offset < chunk.size) { next(); return; }
        if (chunk.running) {
          pre.setAttribute('data-state', 'following');
          setTimeout(next, 1000);
        } else {
          pre.setAttribute('data-state', 'complete');
          show('complete, ' + chunk.size + ' bytes');
        }
      })
      .catch(function (e) { show('UI server unreachable (' + e + '), retrying'); setTimeout(next, 3000); });
  }
  next();
})();
