// `npm run test:node-lines [-- 22 26]`: the server suite on other Node.js lines than the one running
// this script (by default 22, the oldest line we support, and 26, the newest). The unit suite is the
// PWA's browser code under jsdom and runs on the main line only: what differs between Node.js lines
// (native modules, streams, fetch, crypto, SQLite) is the server's, and CI's time is bounded. Each
// line is unpacked from the npm registry by scripts/node-line.sh. The native modules are Node-API
// builds (better-sqlite3, sharp, onnxruntime-node, argon2), so one node_modules serves every line.
// Ends with one plain line "N passed, N failed"; run-tests.ts calls runNodeLines() for `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UNHANDLED_REPORTER } from './vitest-unhandled-errors.js';

export interface LineTally {
  line: string;
  version: string;
  /** its vitest JSON report */
  report: string;
  /** the run's unhandled errors (scripts/vitest-unhandled-errors.ts) */
  unhandled: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
}

export const DEFAULT_NODE_LINES = ['22', '26'];

/** Runs the server suite on each line; the tallies of each, in order. */
export function runNodeLines(lines: readonly string[]): LineTally[] {
  mkdirSync('test-results', { recursive: true });
  return lines.map((line) => {
    const start = Date.now();
    const dir = execFileSync('bash', ['scripts/node-line.sh', line], { encoding: 'utf8' }).trim();
    const version = execFileSync(path.join(dir, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).trim();
    const report = `test-results/vitest-node-${line}.json`;
    const unhandled = `test-results/vitest-node-${line}-unhandled.json`;
    process.stdout.write(`\n▶ server tests on Node.js ${version}\n`);
    const r = spawnSync(
      'npx',
      ['vitest', 'run', '--project', 'server', '--reporter=dot', '--reporter=json', `--reporter=${UNHANDLED_REPORTER}`, `--outputFile=${report}`],
      {
        stdio: 'inherit',
        env: { ...process.env, UNHANDLED_ERRORS_FILE: unhandled, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: dir },
      },
    );
    let counts: { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number } | undefined;
    try {
      counts = JSON.parse(readFileSync(report, 'utf8')) as typeof counts;
    } catch {
      counts = undefined;
    }
    return {
      line,
      version,
      report,
      unhandled,
      passed: counts?.numPassedTests ?? 0,
      // A run that crashed without a report, or failed with no failing test (a suite that could not load), still fails.
      failed: counts ? Math.max(counts.numFailedTests, r.status === 0 ? 0 : 1) : 1,
      skipped: (counts?.numPendingTests ?? 0) + (counts?.numTodoTests ?? 0),
      seconds: (Date.now() - start) / 1000,
    };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const tallies = runNodeLines(args.length ? args : DEFAULT_NODE_LINES);
  process.stdout.write('\nSummary\n');
  for (const t of tallies)
    process.stdout.write(
      `  ${t.failed ? '✗' : '✓'} Node.js ${t.version.padEnd(10)} ${String(t.passed).padStart(4)} passed ${String(t.failed).padStart(3)} failed ${String(t.skipped).padStart(3)} skipped  ${t.seconds.toFixed(1)} s\n`,
    );
  const passed = tallies.reduce((n, t) => n + t.passed, 0);
  const failed = tallies.reduce((n, t) => n + t.failed, 0);
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  process.exit(failed > 0 ? 1 : 0);
}
