// The failed tests named in vitest's and Playwright's JSON reports, for the last lines of
// `npm test`: a CI log is often read from its end only, and a count alone does not say which
// test failed or why.
import { readFileSync } from 'node:fs';
import type { UnhandledErrorEntry } from './vitest-unhandled-errors.js';

export interface FailedTest {
  /** the suite it ran in, e.g. "server, Node 22" */
  suite: string;
  /** file and test title */
  name: string;
  /** the first line of its error */
  reason: string;
  /** what the page showed when a browser test failed (its accessibility snapshot), if Playwright kept it */
  page?: string[];
}

interface VitestReport {
  testResults?: {
    name?: string;
    status?: string;
    message?: string;
    assertionResults?: { fullName?: string; status?: string; failureMessages?: string[] }[];
  }[];
}

interface PlaywrightSuite {
  title?: string;
  file?: string;
  specs?: {
    title?: string;
    line?: number;
    tests?: {
      projectName?: string;
      status?: string;
      results?: { error?: { message?: string }; attachments?: { name?: string; path?: string }[] }[];
    }[];
  }[];
  suites?: PlaywrightSuite[];
}

// eslint-disable-next-line no-control-regex -- the reporters colour their messages with ANSI escapes
const ANSI = /\x1b\[[0-9;]*m/g;

/** The first non-empty line of an error message, without colours, at most 300 characters. */
export function firstLine(message: string | undefined): string {
  const line = (message ?? '').replace(ANSI, '').split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

const relative = (file: string | undefined): string => (file ?? '').replace(`${process.cwd()}/`, '');

function readJson(file: string): unknown {
  try {
    return JSON.parse(readText(file) ?? '') as unknown;
  } catch {
    return undefined;
  }
}

/** Lines of a failed test's page as it was left, shown under the failure in the log. */
export const PAGE_LINES_SHOWN = 40;

/**
 * The page's accessibility snapshot from Playwright's error-context.md (under "# Page snapshot",
 * or after the error when a matcher failed): the only trace of what the page showed that reaches
 * a log read from its end (CI keeps no test-results folder), trimmed.
 */
export function pageSnapshotOf(errorContext: string | undefined): string[] | undefined {
  const section = errorContext?.split('\n# Page snapshot\n')[1] ?? errorContext;
  const yaml = section?.match(/```yaml\n([\s\S]*?)\n```/)?.[1];
  if (!yaml) return undefined;
  const lines = yaml.split('\n').filter((l) => l.trim());
  if (lines.length <= PAGE_LINES_SHOWN) return lines;
  return [...lines.slice(0, PAGE_LINES_SHOWN), `… ${lines.length - PAGE_LINES_SHOWN} more lines`];
}

function readText(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Failed tests, and files that failed to load, in a vitest JSON report. */
export function vitestFailures(suite: string, report: unknown): FailedTest[] {
  const failures: FailedTest[] = [];
  for (const file of (report as VitestReport | undefined)?.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests)
      failures.push({ suite, name: `${relative(file.name)} › ${t.fullName ?? ''}`, reason: firstLine(t.failureMessages?.[0]) });
    if (file.status === 'failed' && failedTests.length === 0)
      failures.push({ suite, name: relative(file.name), reason: firstLine(file.message) || 'the file failed without a failing test' });
  }
  return failures;
}

/** Tests that failed on their every try in a Playwright JSON report (flaky ones passed on a retry). */
export function playwrightFailures(suite: string, report: unknown): FailedTest[] {
  const failures: FailedTest[] = [];
  const walk = (s: PlaywrightSuite, file: string | undefined, titles: string[]): void => {
    const here = s.file ?? file;
    const path = s.title && s.title !== here ? [...titles, s.title] : titles;
    for (const spec of s.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'unexpected') {
          const error = t.results?.map((r) => r.error?.message).find(Boolean);
          const title = [...path, spec.title ?? ''].join(' › ');
          const context = t.results?.flatMap((r) => r.attachments ?? []).find((a) => a.name === 'error-context');
          failures.push({
            suite,
            name: `[${t.projectName ?? ''}] ${here ?? ''}:${spec.line ?? ''} › ${title}`,
            reason: firstLine(error),
            page: pageSnapshotOf(readText(context?.path)),
          });
        }
    for (const child of s.suites ?? []) walk(child, here, path);
  };
  for (const s of (report as { suites?: PlaywrightSuite[] } | undefined)?.suites ?? []) walk(s, undefined, []);
  return failures;
}

/** The unhandled errors scripts/vitest-unhandled-errors.ts wrote: each fails the run with no failing test. */
export function unhandledErrors(suite: string, report: unknown): FailedTest[] {
  const errors = (report as { errors?: Partial<UnhandledErrorEntry>[] } | undefined)?.errors ?? [];
  return errors.map((e) => {
    // The first frame of ours says where it came from; the message alone often does not.
    const frame = (e.stack ?? '').split('\n').find((l) => /^\s*at /.test(l) && !l.includes('node_modules') && !l.includes('node:'));
    // Where no frame is ours (a socket's error), the file and the last test vitest saw say where.
    const where = e.testPath ? ` in ${relative(e.testPath)}${e.testName ? ` › after or during "${e.testName}"` : ''}` : '';
    const kind = `${e.name ?? 'error'}${e.code ? ` (${e.code})` : ''}`;
    return { suite, name: `unhandled ${kind}${frame ? ` ${frame.trim()}` : ''}${where}`, reason: firstLine(e.message) || '(no message)' };
  });
}

export const vitestFailuresIn = (suite: string, file: string): FailedTest[] => vitestFailures(suite, readJson(file));
export const unhandledErrorsIn = (suite: string, file: string): FailedTest[] => unhandledErrors(suite, readJson(file));
export const playwrightFailuresIn = (suite: string, file: string): FailedTest[] =>
  playwrightFailures(suite, readJson(file));
