// The sign-in route's JS budget (issue 25): what a first visit to #/login loads before the page is
// usable, gzipped, at most 170 KB. scripts/sign-in-budget.ts says what counts.
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SIGN_IN_JS_BUDGET_BYTES, signInRouteScripts } from '../../scripts/sign-in-budget';

const dist = path.resolve(process.env.BUILD_DIR ?? 'dist');

test('the sign-in route loads at most 170 KB of JS gzipped', () => {
  const { scripts, totalGzipBytes } = signInRouteScripts(dist);
  console.log(
    `sign-in route JS: ${(totalGzipBytes / 1000).toFixed(1)} KB gzipped (budget ${SIGN_IN_JS_BUDGET_BYTES / 1000} KB)\n` +
      scripts.map((s) => `  ${(s.gzipBytes / 1000).toFixed(1).padStart(6)} KB  ${s.file}`).join('\n'),
  );
  expect(scripts.map((s) => s.file)).toEqual(expect.arrayContaining([expect.stringMatching(/^assets\/login-page-/), expect.stringMatching(/^assets\/en-US-first-/)]));
  // No other language's strings, no fallback dictionary, no worker registration on the route.
  expect(scripts.filter((s) => /^assets\/(zh-CN|vi-VN|th-TH|id-ID)-/.test(s.file) || /workbox/.test(s.file))).toEqual([]);
  expect(totalGzipBytes).toBeLessThanOrEqual(SIGN_IN_JS_BUDGET_BYTES);
});
