// Sets the colour theme before the first paint (loaded in <head> without defer, so no flash of the wrong
// theme): the one chosen with the navbar's toggle (localStorage 'flipper-theme'), else the system's
// (prefers-color-scheme), followed live while nothing is chosen. Bootstrap styles by data-bs-theme on <html>.
// The class 'js' tells the CSS that scripts run (the navbar collapses on a phone only then).
(function () {
  'use strict';
  var root = document.documentElement;
  var KEY = 'flipper-theme';
  var system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function chosen() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; } // storage off: follow the system
  }

  function apply() {
    var theme = chosen();
    if (theme !== 'dark' && theme !== 'light') { theme = system && system.matches ? 'dark' : 'light'; }
    if (root.getAttribute('data-bs-theme') !== theme) {
      root.setAttribute('data-bs-theme', theme);
      document.dispatchEvent(new CustomEvent('flipper:theme', { detail: theme }));
    }
  }

  // Choosing the system's own theme forgets the choice, so the page follows the system again.
  function choose(theme) {
    try {
      if (system && (theme === 'dark') === system.matches) { localStorage.removeItem(KEY); }
      else { localStorage.setItem(KEY, theme); }
    } catch (e) { /* not stored: this page still switches */ }
    root.setAttribute('data-bs-theme', theme);
    document.dispatchEvent(new CustomEvent('flipper:theme', { detail: theme }));
  }

  root.classList.add('js');
  apply();
  if (system && system.addEventListener) { system.addEventListener('change', apply); }
  window.flipperTheme = { choose: choose, current: function () { return root.getAttribute('data-bs-theme'); } };
})();
