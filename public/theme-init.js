// Applies the saved theme before the first paint, and picks the start-up spinner's language. A file, not an inline script: the CSP allows
// scripts from 'self' only. Mirrors src/features/settings/model/theme.ts.
(function () {
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
  try {
    language = localStorage.getItem('language');
  } catch {
    // Blocked storage: fall through to the browser's language.
  }
  if (languages.indexOf(language) < 0) {
    var tag = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    var prefix = tag.toLowerCase().split(/[-_]/)[0];
    var byPrefix = { zh: 'zh-CN', vi: 'vi-VN', th: 'th-TH', id: 'id-ID' };
    language = tag ? byPrefix[prefix] || 'en-US' : 'zh-CN';
  }
  root.setAttribute('data-boot-language', language);
})();
