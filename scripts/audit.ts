// `npm run audit`: Lighthouse (the npm package) driving Debian's Chromium against a production build
// served by the companion server, on the sign-in page and on every signed-in page. Prints
// performance, accessibility and best-practices scores with the main timings (the median of several
// runs per page) against issue 25's targets, the sign-in route's JS against its budget (scripts/sign-in-budget.ts, and the scripts
// Lighthouse saw it load), the load average (this machine is shared: performance varies with it),
// and installability as Chromium itself judges it (Lighthouse 12 dropped its PWA category).
// Type-checked with the tests (tsconfig.test.json): it runs code in the page, so it needs DOM types.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.js';
import { E2E_ADMIN, startServer } from '../tests/e2e/server-process.js';
import { freePort } from '../tests/support/processes.js';
import { SIGN_IN_JS_BUDGET_BYTES, signInRouteScripts } from './sign-in-budget.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** Issue 25's targets for every audited page; the sign-in page's LCP at most 2.0 s. */
const TARGETS: Record<(typeof CATEGORIES)[number], number> = { performance: 95, accessibility: 100, 'best-practices': 100 };
const SIGN_IN_LCP_MS = 2000;
/**
 * Lighthouse runs per page (AUDIT_RUNS, default 3): on this shared 2-core machine one page's
 * performance score moved by up to 10 points between back-to-back runs of the same build.
 */
const RUNS = Math.max(1, Number.parseInt(process.env.AUDIT_RUNS ?? '3', 10) || 3);
/**
 * AUDIT_CPU_INDEX=1000: the fixed-index mode. Before each run the machine's CPU is measured with
 * Lighthouse's own benchmark, and Lighthouse slows it by index / AUDIT_CPU_INDEX (at least 1), so
 * every page is judged as on a device of that index (1,000: a mid-range tablet) whatever this
 * machine's speed or load. Without it Lighthouse's default multiplier (4) applies to whatever the
 * machine is at the time.
 */
const CPU_INDEX = process.env.AUDIT_CPU_INDEX ? Number.parseInt(process.env.AUDIT_CPU_INDEX, 10) : null;
if (CPU_INDEX !== null && !(CPU_INDEX > 0)) throw new Error(`AUDIT_CPU_INDEX must be a positive number, not "${process.env.AUDIT_CPU_INDEX}"`);
type LhrLike = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
const TIMINGS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'interactive'];

async function waitForDevtools(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Chromium did not open its DevTools port within 20 s');
}

/** Main-thread costs of a page, largest first, as Lighthouse's audit lists them (slowed time). */
function largestCosts(lhr: LhrLike, auditId: 'mainthread-work-breakdown' | 'bootup-time', origin: string, count = 3): string {
  const items = (lhr.audits[auditId]?.details as { items?: { groupLabel?: string; url?: string; duration?: number; total?: number }[] } | undefined)?.items ?? [];
  return [...items]
    .map((i) => ({ name: i.groupLabel ?? i.url?.replace(origin, '') ?? '?', ms: i.duration ?? i.total ?? 0 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((i) => `${i.name} ${Math.round(i.ms)} ms`)
    .join(', ');
}

const buildDir = mkdtempSync(path.join(tmpdir(), 'loom-audit-build-'));
const profileDir = mkdtempSync(path.join(tmpdir(), 'loom-audit-profile-'));
execFileSync('npx', ['vite', 'build', '--outDir', buildDir, '--emptyOutDir', '--logLevel', 'error'], { stdio: 'inherit' });
const server = await startServer(await freePort(), { STATIC_DIR: buildDir });
const debugPort = await freePort();
const browserProcess = spawn(
  process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  [...chromiumArgs, `--remote-debugging-port=${debugPort}`, `--user-data-dir=${profileDir}`, 'about:blank'],
  { stdio: 'ignore' },
);

try {
  await waitForDevtools(debugPort);
  // Playwright over the same DevTools port: puts the session in place and asks about installability.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`);
  const context = browser.contexts()[0]!;
  const page = await context.newPage();
  const grant = (await (
    await fetch(`${server.url}/api/auth/login-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(E2E_ADMIN),
    })
  ).json()) as { data: { token: string; refresh_token: string; user: { account: string } } };

  await page.goto(`${server.url}/#/login`);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await context.newCDPSession(page);
  const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
  await page.close();

  /** Puts the session where the PWA keeps it (spec §3), before the signed-in pages are audited. */
  const signIn = async () => {
    const tab = await context.newPage();
    await tab.goto(`${server.url}/#/login`);
    await tab.evaluate((g) => {
      localStorage.setItem('token', g.token);
      localStorage.setItem('refreshToken', g.refresh_token);
      localStorage.setItem('isLoggedIn', 'true');
      localStorage.setItem('username', g.user.account);
      localStorage.setItem('userInfo', JSON.stringify(g.user));
      localStorage.setItem('language', 'en-US');
    }, grant.data);
    await tab.close();
  };

  const pages = [
    { name: 'sign-in', url: `${server.url}/#/login`, keepStorage: false },
    ...[
      ['home', ''],
      ['image processing', 'image-processing'],
      ['video generation', 'video-generation'],
      ['history', 'history'],
      ['workshop', 'gemini-banana'],
      ['prompts', 'prompt-management'],
      ['settings', 'settings'],
    ].map(([name, route]) => ({ name: name!, url: `${server.url}/#/${route}`, keepStorage: true })),
  ];
  // AUDIT_PAGES=sign-in,home audits only those pages (while working on them); AUDIT_REPORT_DIR
  // keeps each page's full Lighthouse result (JSON, the median run) for its bootup-time and
  // main-thread details; AUDIT_RUNS sets the runs per page.
  const only = process.env.AUDIT_PAGES?.split(',').map((p) => p.trim());
  const reportDir = process.env.AUDIT_REPORT_DIR;
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const rows: string[] = [];
  const load: number[] = [loadavg()[0]!];
  let signInScriptBytes: number | null = null;
  // Lighthouse's benchmark in a new blank tab of the same browser (in front, as Lighthouse's own
  // tab will be), the median of three (about 3 s).
  const measureIndex = async (): Promise<number> => {
    const tab = await context.newPage();
    const values: number[] = [];
    for (let i = 0; i < 3; i++) values.push(await tab.evaluate(pageFunctions.computeBenchmarkIndex));
    await tab.close();
    return values.sort((a, b) => a - b)[1]!;
  };
  for (const target of pages.filter((p) => !only || only.includes(p.name))) {
    const runs: LhrLike[] = [];
    const traces: unknown[] = [];
    const multipliers: number[] = [];
    let retried = 0;
    for (let run = 0; run < RUNS; run++) {
      if (target.keepStorage) await signIn();
      // Measured just before the run: the load on a shared machine moves within a minute.
      const measured = CPU_INDEX === null ? null : await measureIndex();
      const cpuSlowdownMultiplier = measured === null ? null : Math.max(1, measured / CPU_INDEX!);
      if (cpuSlowdownMultiplier !== null) multipliers.push(cpuSlowdownMultiplier);
      const result = await lighthouse(target.url, {
        ...(cpuSlowdownMultiplier === null ? {} : { throttling: { cpuSlowdownMultiplier } }),
        port: debugPort,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        // The signed-in pages need the session that sits in localStorage.
        disableStorageReset: target.keepStorage,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${target.url}`);
      const error = result.lhr.runtimeError;
      // A trace Lighthouse could not read (NO_NAVSTART and the like: "please run Lighthouse again")
      // is run again, twice at most per page; the count is printed with the page's scores.
      if (error && retried < 2) {
        retried++;
        run--;
        if (cpuSlowdownMultiplier !== null) multipliers.pop();
        continue;
      }
      if (error) throw new Error(`Lighthouse could not audit ${target.url}: ${error.code} ${error.message}`);
      runs.push(result.lhr);
      if (reportDir) traces.push(result.artifacts.Trace);
    }
    // Lighthouse's own pick of the median run (by its first contentful paint and time to
    // interactive), as its docs advise for a machine whose speed varies from run to run.
    const lhr = computeMedianRun(runs) as (typeof runs)[number];
    const perfRange = runs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)).sort((a, b) => a - b);
    load.push(loadavg()[0]!);
    if (reportDir) {
      const file = path.join(reportDir, target.name.replace(/\W+/g, '-'));
      writeFileSync(`${file}.json`, JSON.stringify(lhr));
      // The median run's trace, for chrome://tracing or DevTools' Performance panel.
      writeFileSync(`${file}.trace.json`, JSON.stringify(traces[runs.indexOf(lhr)]));
    }
    const scores = CATEGORIES.map((c) => {
      const score = Math.round((lhr.categories[c]?.score ?? 0) * 100);
      return `${c} ${score}${score >= TARGETS[c] ? '' : ` (target ${TARGETS[c]})`}`;
    }).join(', ');
    const timings = TIMINGS.map((id) => `${id.replace(/-/g, ' ')} ${lhr.audits[id]?.displayValue ?? 'n/a'}`).join(', ');
    const landed = lhr.finalDisplayedUrl.replace(server.url, '');
    // Lighthouse's own CPU benchmark for this run: simulated throttling multiplies the main-thread
    // work it observed, so a busy machine (low index) reads as a slower phone.
    const benchmark = Math.round(lhr.environment.benchmarkIndex);
    const spread = `${RUNS > 1 ? ` (median of ${RUNS} runs; performance ${perfRange[0]}–${perfRange.at(-1)})` : ''}${retried ? ` (${retried} run(s) repeated after a Lighthouse trace error)` : ''}`;
    const slowdown = multipliers.length
      ? `; CPU slowed ${(lhr.configSettings.throttling.cpuSlowdownMultiplier ?? 1).toFixed(2)}× to index ${CPU_INDEX} (runs ${multipliers.map((m) => `${m.toFixed(2)}×`).join(', ')}${
          multipliers.includes(1) ? '; this machine measured below that index, so those runs are slower than the mode' : ''
        })`
      : '';
    rows.push(
      `${target.name} (${landed}): ${scores}${spread}\n    ${timings}\n    load ${load.at(-1)!.toFixed(2)}, benchmarkIndex ${benchmark}${slowdown}` +
        `\n    main thread: ${largestCosts(lhr, 'mainthread-work-breakdown', server.url)}\n    scripts: ${largestCosts(lhr, 'bootup-time', server.url)}`,
    );
    if (!target.keepStorage) {
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? Infinity;
      rows.push(`    sign-in LCP ${(lcp / 1000).toFixed(2)} s against ${SIGN_IN_LCP_MS / 1000} s: ${lcp <= SIGN_IN_LCP_MS ? 'within' : 'OVER'}`);
      const requests = (lhr.audits['network-requests']?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
      signInScriptBytes = requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
    }
    for (const c of CATEGORIES) {
      const failing = lhr.categories[c]?.auditRefs
        .map((ref) => lhr.audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual');
      if (failing?.length) rows.push(`    ${c} below 90: ${failing.map((a) => a!.id).join(', ')}`);
      if (c === 'accessibility') {
        // Name the elements, so a failing check can be fixed without opening the full report.
        for (const audit of failing ?? []) {
          const items = (audit!.details as { items?: { node?: { snippet?: string; explanation?: string } }[] } | undefined)?.items ?? [];
          for (const item of items.slice(0, 5)) {
            if (item.node?.snippet) rows.push(`      ${audit!.id}: ${item.node.snippet.slice(0, 140)} — ${(item.node.explanation ?? '').split('\n')[1]?.trim() ?? ''}`);
          }
        }
      }
    }
  }
  await browser.close();

  process.stdout.write(
    `\nLighthouse (mobile emulation, simulated throttling${
      CPU_INDEX === null ? '' : `, CPU slowed to a fixed benchmark index of ${CPU_INDEX}`
    }); 1-minute load average ${load.map((l) => l.toFixed(2)).join(' → ')} on ${
      (await import('node:os')).cpus().length
    } cores\n`,
  );
  for (const row of rows) process.stdout.write(`  ${row}\n`);
  const route = signInRouteScripts(buildDir);
  process.stdout.write(
    `\nSign-in route JS: ${(route.totalGzipBytes / 1000).toFixed(1)} KB gzipped against a budget of ${SIGN_IN_JS_BUDGET_BYTES / 1000} KB: ${
      route.totalGzipBytes <= SIGN_IN_JS_BUDGET_BYTES ? 'within' : 'OVER'
    } (${route.scripts.length} scripts before the load event)${
      signInScriptBytes === null ? '' : `; Lighthouse saw ${(signInScriptBytes / 1000).toFixed(1)} KB of scripts transferred (brotli as served, service worker and workbox-window included)`
    }\n`,
  );
  const errors = installability.installabilityErrors.map((e) => e.errorId);
  process.stdout.write(
    `\nInstallability (Chromium): ${errors.length === 0 ? 'installable' : `not installable: ${errors.join(', ')}`}; manifest ${manifest.url.replace(server.url, '')}${
      manifest.errors.length ? ` with errors: ${manifest.errors.map((e) => e.message).join('; ')}` : ' without errors'
    }\n`,
  );
} finally {
  browserProcess.kill('SIGTERM');
  await server.stop();
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(profileDir, { recursive: true, force: true });
}
