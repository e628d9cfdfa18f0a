// The log viewer: reads the log in chunks from the UI's log API (which reads it from the worker), starting at
// the last 256 KiB, and follows it by byte offset while the execution runs. Text is appended as text nodes.
// What the view leaves out is said above the log and stays said: the start of a long log (with a button to
// show it and a download link), and the bytes the worker cut out of a log over workers.maxLogBytes (its
// '--- flipper: N bytes cut here (...) ---' line).
(function () {
  'use strict';
  var pre = document.getElementById('log');
  if (!pre) { return; }
  var api = pre.getAttribute('data-api');
  var follow = document.getElementById('follow');
  var state = document.getElementById('log-state');
  var partial = document.getElementById('log-partial');
  var partialText = document.getElementById('log-partial-text');
  var showStart = document.getElementById('show-start');
  var cutNotice = document.getElementById('log-cut');
  var CUT = /^--- flipper: ([0-9,]+) bytes cut here \(([^)\n]*)\) ---$/m;
  var offset = -262144;
  var CHUNK = 262144;
  var firstShown = null;

  function show(text) { state.textContent = text; }

  function read(from, max) {
    return fetch(api + '?offset=' + from + '&max=' + max)
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); });
  }

  function lookForCut(text) {
    var m = CUT.exec(text);
    if (m && cutNotice.hidden) {
      cutNotice.textContent = 'The worker kept only the start and the end of this log: ' + m[1]
        + ' bytes were cut where the line "--- flipper: ' + m[1] + ' bytes cut here ---" is (' + m[2] + ').';
      cutNotice.hidden = false;
    }
  }

  function notShown(start, end, size) {
    partialText.textContent = start > 0
      ? 'Showing the start and the end of this log (' + size + ' bytes): bytes ' + start + ' to ' + end
        + ' are not shown.'
      : 'Showing only the end of this log (' + size + ' bytes): its first ' + end + ' bytes are not shown.';
    partial.hidden = false;
  }

  showStart.addEventListener('click', function () {
    showStart.disabled = true;
    read(0, Math.min(CHUNK, firstShown)).then(function (res) {
      if (!res.ok) { show(res.body.error || 'cannot read the log'); showStart.disabled = false; return; }
      var head = res.body;
      var gap = firstShown - head.nextOffset;
      var text = head.text + (gap > 0 ? '\n[… ' + gap + ' bytes not shown …]\n' : '');
      pre.insertBefore(document.createTextNode(text), pre.firstChild);
      lookForCut(head.text);
      if (gap > 0) { notShown(head.nextOffset, firstShown, head.size); } else { partial.hidden = true; }
      showStart.hidden = true;
      pre.setAttribute('data-head', 'shown');
    });
  });

  function next() {
    read(offset, CHUNK)
      .then(function (res) {
        if (!res.ok) { show(res.body.error || 'cannot read the log'); setTimeout(next, 3000); return; }
        var chunk = res.body;
        if (firstShown === null) {
          firstShown = chunk.offset;
          if (firstShown > 0) { notShown(0, firstShown, chunk.size); }
        }
        if (chunk.text.length > 0) {
          pre.appendChild(document.createTextNode(chunk.text));
          lookForCut(chunk.text);
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
