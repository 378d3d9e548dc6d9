// Runs inline in index.html's <head> before the first paint (scripts/vite-boot-script.ts puts it
// there, minified; the server's CSP allows it by its hash). It applies the saved theme (no flash),
// picks the start-up spinner's language, and preloads the opening route's chunks so they download
// beside the entry script instead of after it. Mirrors src/features/settings/model/theme.ts.
/* global ROUTE_CHUNKS */
(function (routeChunks) {
  var pref = 'system';
  try {
    var saved = localStorage.getItem('theme');
    if (saved === 'light' || saved === 'dark') pref = saved;
  } catch {
    // Storage can be blocked (private mode); the system theme still applies.
  }
  var dark =
    pref === 'dark' ||
    (pref === 'system' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  var root = document.documentElement;
  root.setAttribute('data-theme', dark ? 'dark' : 'light');
  root.setAttribute('data-theme-preference', pref);
  root.style.colorScheme = dark ? 'dark' : 'light';

  // The start-up spinner's language, detected as src/i18n/detect-language.ts does (stored choice,
  // then the browser's language by prefix, else English). A separate attribute, not lang: i18next
  // still reads the page's own lang tag as its last resort.
  var languages = ['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID'];
  var language = null;
  var signedIn = false;
  try {
    language = localStorage.getItem('language');
    // As src/lib/session/session-store.ts reads it.
    signedIn = localStorage.getItem('isLoggedIn') === 'true' && !!localStorage.getItem('token');
  } catch {
    // Blocked storage: fall through to the browser's language; no session can be read either.
  }
  if (languages.indexOf(language) < 0) {
    var tag = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    var prefix = tag.toLowerCase().split(/[-_]/)[0];
    var byPrefix = { zh: 'zh-CN', vi: 'vi-VN', th: 'th-TH', id: 'id-ID' };
    language = tag ? byPrefix[prefix] || 'en-US' : 'zh-CN';
  }
  root.setAttribute('data-boot-language', language);
  // A visitor opens on the sign-in screen: index.html shows its brand side until React renders.
  if (!signedIn) root.setAttribute('data-boot-route', 'sign-in');

  // The build's chunk names (null in development). A visitor gets the sign-in page and the first
  // part of their language's strings; a session gets the shell, the page its path names (home for
  // any other path, where the router sends it) and all of their strings: what src/main.tsx loads
  // before the first render.
  if (!routeChunks) return;
  var path = location.hash.replace(/^#/, '').split('?')[0] || '/';
  if (path.length > 1) path = path.replace(/\/+$/, '');
  var strings = routeChunks.strings[language] || [];
  var files = signedIn
    ? routeChunks.shell.concat(
        routeChunks.pages[path] || routeChunks.pages[path.replace(/\/\d+$/, '/:id')] || routeChunks.pages['/'],
        strings,
      )
    : routeChunks.signIn.concat(strings.slice(0, 1));
  var seen = {};
  var preload = function () {
    for (var i = 0; i < files.length; i++) {
      if (seen[files[i]]) continue;
      seen[files[i]] = true;
      var link = document.createElement('link');
      var css = /\.css$/.test(files[i]);
      // As Vite's own preload helper asks for them, so its later requests find these.
      link.rel = css ? 'preload' : 'modulepreload';
      if (css) link.setAttribute('as', 'style');
      link.setAttribute('crossorigin', '');
      link.href = files[i];
      document.head.appendChild(link);
    }
  };
  // After the first frame: starting each request here costs the main thread a few milliseconds
  // (more under a service worker), which would hold back the first paint. The entry script and its
  // static imports are in the document and start at once either way.
  requestAnimationFrame(function () {
    setTimeout(preload, 0);
  });
})(ROUTE_CHUNKS);
