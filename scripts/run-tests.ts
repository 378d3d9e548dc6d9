// `npm test`: every check in one run — lint, type-check, unit and server integration tests
// (vitest), the PWA build, and browser end-to-end tests (Playwright + Debian Chromium) — ending
// with one plain summary line "N passed, N failed" that sums them all. With TEST_NODE_LINES the
// server suite also runs on those other Node.js lines (scripts/test-node-lines.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { type FailedTest, playwrightFailuresIn, unhandledErrorsIn, vitestFailuresIn } from './test-failures.js';
import { runNodeLines } from './test-node-lines.js';
import { UNHANDLED_REPORTER } from './vitest-unhandled-errors.js';

interface Tally {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
}

const tallies: Tally[] = [];
const failures: FailedTest[] = [];
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { ok: boolean; seconds: number } {
  const start = Date.now();
  process.stdout.write(`\n▶ ${command} ${args.join(' ')}\n`);
  const r = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: r.status === 0, seconds: (Date.now() - start) / 1000 };
}

/** A step that is one check: passes or fails as a whole. */
function check(name: string, command: string, args: string[]): boolean {
  const r = run(command, args);
  tallies.push({ name, passed: r.ok ? 1 : 0, failed: r.ok ? 0 : 1, skipped: 0, seconds: r.seconds });
  return r.ok;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });

if (pkg.scripts['models:fetch']) check('model files', 'npm', ['run', '--silent', 'models:fetch']);
check('lint', 'npx', ['eslint', '.', '--max-warnings', '0']);
check('type-check', 'npm', ['run', '--silent', 'typecheck']);

{
  const unhandled = 'test-results/vitest-unhandled.json';
  const r = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--reporter=${UNHANDLED_REPORTER}`, '--outputFile=test-results/vitest.json'],
    { UNHANDLED_ERRORS_FILE: unhandled },
  );
  const report = readJson<{ numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }>(
    'test-results/vitest.json',
  );
  tallies.push({
    name: 'unit + server tests',
    passed: report?.numPassedTests ?? 0,
    // A crashed run with no report, or a failed run with no failing test (a suite that could not load), still fails.
    failed: report ? Math.max(report.numFailedTests, r.ok ? 0 : 1) : 1,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
    seconds: r.seconds,
  });
  failures.push(...vitestFailuresIn('unit + server tests', 'test-results/vitest.json'));
  failures.push(...unhandledErrorsIn('unit + server tests', unhandled));
}

// TEST_NODE_LINES=22,26 (CI sets it) runs the server suite on those Node.js lines too.
const otherLines = (process.env.TEST_NODE_LINES ?? '').split(',').map((l) => l.trim()).filter(Boolean);
for (const t of runNodeLines(otherLines)) {
  tallies.push({ name: `server, Node ${t.line}`, passed: t.passed, failed: t.failed, skipped: t.skipped, seconds: t.seconds });
  failures.push(...vitestFailuresIn(`server, Node ${t.line}`, t.report));
  failures.push(...unhandledErrorsIn(`server, Node ${t.line}`, t.unhandled));
}

if (check('PWA build', 'npx', ['vite', 'build', '--logLevel', 'warn'])) {
  const r = run('npx', ['playwright', 'test']);
  const report = readJson<{ stats: { expected: number; unexpected: number; flaky: number; skipped: number } }>(
    'test-results/e2e.json',
  );
  const s = report?.stats;
  tallies.push({
    name: 'browser end-to-end tests',
    passed: (s?.expected ?? 0) + (s?.flaky ?? 0),
    failed: s ? Math.max(s.unexpected, r.ok ? 0 : 1) : 1,
    skipped: s?.skipped ?? 0,
    seconds: r.seconds,
  });
  failures.push(...playwrightFailuresIn('browser end-to-end tests', 'test-results/e2e.json'));
} else {
  tallies.push({ name: 'browser end-to-end tests', passed: 0, failed: 1, skipped: 0, seconds: 0 });
}

const total = tallies.reduce(
  (a, t) => ({ passed: a.passed + t.passed, failed: a.failed + t.failed, skipped: a.skipped + t.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
);
process.stdout.write('\nSummary\n');
for (const t of tallies) {
  process.stdout.write(
    `  ${t.failed ? '✗' : '✓'} ${t.name.padEnd(26)} ${String(t.passed).padStart(4)} passed ${String(t.failed).padStart(3)} failed ${String(t.skipped).padStart(3)} skipped  ${t.seconds.toFixed(1)} s\n`,
  );
}
if (failures.length) process.stdout.write('\nFailed\n');
for (const f of failures) {
  process.stdout.write(`  ✗ ${f.suite}: ${f.name}\n      ${f.reason}\n`);
  if (f.page) process.stdout.write(`      the page when it failed:\n${f.page.map((l) => `        ${l}\n`).join('')}`);
}
if (!existsSync('/usr/bin/chromium')) process.stdout.write('  (no /usr/bin/chromium: install it with apt-get install -y chromium)\n');
process.stdout.write(`\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}\n`);
process.exit(total.failed > 0 ? 1 : 0);
