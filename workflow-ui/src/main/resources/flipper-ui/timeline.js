// The instance page's timeline (timeline.jte). The Content-Security-Policy allows no style attribute in the
// HTML, so bars, ticks and the now line carry their place as data-left/data-width (percent of the axis) and
// this script sets them. The tooltips are CSS (a bar's :hover or :focus); this script turns one to stay in the
// window, lets Escape hide it, and keeps a focused bar focused when the page's refresh swaps the timeline.
// It never builds markup from data.
(function () {
  'use strict';
  var box = document.getElementById('timeline');
  if (!box) { return; }
  var focusedKey = null;

  function place() {
    box.querySelectorAll('[data-left]').forEach(function (el) {
      el.style.left = el.getAttribute('data-left') + '%';
      if (el.hasAttribute('data-width')) { el.style.width = el.getAttribute('data-width') + '%'; }
    });
  }

  function barWithKey(key) {
    return Array.prototype.find.call(box.querySelectorAll('.tl-bar'), function (bar) {
      return bar.getAttribute('data-key') === key;
    });
  }

  // The refresh replaces the timeline's content: place the new bars, and give the focus back to the bar
  // that had it (its replacement), so that a keyboard user's place and tooltip survive the refresh.
  new MutationObserver(function () {
    place();
    if (focusedKey !== null && !box.contains(document.activeElement)) {
      var bar = barWithKey(focusedKey);
      if (bar) { bar.focus(); }
    }
  }).observe(box, { childList: true, subtree: true });

  // A tooltip opens below its bar, starting at its left end (at its right end in the right part of the axis);
  // one that would leave the window opens above it, or towards the other side.
  function fit(bar) {
    var tip = bar.querySelector('.tl-tip');
    if (!tip) { return; }
    tip.classList.remove('tl-tip-above');
    var rect = tip.getBoundingClientRect();
    if (rect.bottom > window.innerHeight && bar.getBoundingClientRect().top - rect.height - 12 > 0) {
      tip.classList.add('tl-tip-above');
    }
    if (rect.right > document.documentElement.clientWidth) {
      tip.classList.add('tl-tip-end');
    } else if (rect.left < 0) {
      tip.classList.remove('tl-tip-end');
    }
  }

  box.addEventListener('mouseover', function (event) {
    var bar = event.target.closest('.tl-bar');
    if (bar && !bar.contains(event.relatedTarget)) { fit(bar); }
  });
  box.addEventListener('focusin', function (event) {
    var bar = event.target.closest('.tl-bar');
    focusedKey = bar ? bar.getAttribute('data-key') : null;
    if (bar) { fit(bar); }
  });
  box.addEventListener('focusout', function () {
    // Checked after the refresh had its chance to give the focus back.
    var key = focusedKey;
    setTimeout(function () {
      if (focusedKey === key && !box.contains(document.activeElement)) { focusedKey = null; }
    }, 0);
  });

  // Escape hides the tooltip of the focused or hovered bar until the pointer or the focus leaves it.
  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Escape') { return; }
    box.querySelectorAll('.tl-bar:hover, .tl-bar:focus').forEach(function (bar) {
      bar.classList.add('tl-tip-dismissed');
    });
  });
  function undismiss(event) {
    var bar = event.target.closest && event.target.closest('.tl-bar');
    if (bar && !bar.contains(event.relatedTarget)) { bar.classList.remove('tl-tip-dismissed'); }
  }
  box.addEventListener('mouseout', undismiss);
  box.addEventListener('focusout', undismiss);

  place();
})();
