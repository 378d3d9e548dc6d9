// Applies the saved theme before the first paint. A file, not an inline script: the CSP allows
// scripts from 'self' only. Mirrors src/features/settings/model/theme.ts.
(function () {
  var pref = 'system';
  try {
    var saved = localStorage.getItem('theme');
    if (saved === 'light' || saved === 'dark') pref = saved;
  } catch {
    // Storage can be blocked (private mode); the system theme still applies.
  }
  var dark = pref === 'dark' || (pref === 'system' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  var root = document.documentElement;
  root.setAttribute('data-theme', dark ? 'dark' : 'light');
  root.setAttribute('data-theme-preference', pref);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();
