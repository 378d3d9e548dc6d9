import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  firstLine,
  PAGE_LINES_SHOWN,
  pageSnapshotOf,
  playwrightFailures,
  unhandledErrors,
  vitestFailures,
} from '../../../scripts/test-failures.js';

describe('the failed tests that npm test names at its end', () => {
  it('names each failed vitest test by file and full name, with the first line of its error', () => {
    const report = {
      numFailedTests: 1,
      testResults: [
        {
          name: `${process.cwd()}/tests/server/jobs/job-runner.test.ts`,
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'job runner a hung run is failed', status: 'failed', failureMessages: ['\x1b[31mAssertionError: expected 1 to be 2\x1b[39m\n    at x.ts:1:1'] },
            { fullName: 'job runner passes', status: 'passed', failureMessages: [] },
          ],
        },
        { name: `${process.cwd()}/tests/server/ok.test.ts`, status: 'passed', assertionResults: [{ fullName: 'ok', status: 'passed' }] },
      ],
    };
    expect(vitestFailures('server, Node 22', report)).toEqual([
      {
        suite: 'server, Node 22',
        name: 'tests/server/jobs/job-runner.test.ts › job runner a hung run is failed',
        reason: 'AssertionError: expected 1 to be 2',
      },
    ]);
  });

  it('names a file that failed to load, which has no failed test of its own', () => {
    const report = { testResults: [{ name: 'tests/unit/broken.test.ts', status: 'failed', message: 'Failed to load url ./gone.js', assertionResults: [] }] };
    expect(vitestFailures('unit + server tests', report)).toEqual([
      { suite: 'unit + server tests', name: 'tests/unit/broken.test.ts', reason: 'Failed to load url ./gone.js' },
    ]);
  });

  it('names an unhandled error, which fails a run whose every test passed, by its first frame of ours', () => {
    const stack = [
      'Error: socket hang up',
      '    at connResetException (node:internal/errors:720:14)',
      '    at Socket.onClose (/repo/node_modules/undici/lib/client.js:9:1)',
      '    at Timeout._onTimeout (/repo/server/jobs/lease.ts:42:7)',
    ].join('\n');
    const report = { errors: [{ name: 'Error', message: 'socket hang up\nmore', stack }, { name: 'TypeError', message: '', stack: '' }] };
    expect(unhandledErrors('server, Node 22', report)).toEqual([
      { suite: 'server, Node 22', name: 'unhandled Error at Timeout._onTimeout (/repo/server/jobs/lease.ts:42:7)', reason: 'socket hang up' },
      { suite: 'server, Node 22', name: 'unhandled TypeError', reason: '(no message)' },
    ]);
    expect(unhandledErrors('server, Node 22', undefined)).toEqual([]);
  });

  it('names the test file and last test of an unhandled error with no frame of ours, and its code', () => {
    const stack = ['Error: read ECONNRESET', '    at TCP.onStreamRead (node:internal/stream_base_commons:216:20)'].join('\n');
    const testPath = `${process.cwd()}/tests/server/uploads/cut.test.ts`;
    const report = { errors: [{ name: 'Error', message: 'read ECONNRESET', stack, code: 'ECONNRESET', testPath, testName: 'a cut upload' }] };
    expect(unhandledErrors('server, Node 26', report)).toEqual([
      {
        suite: 'server, Node 26',
        name: 'unhandled Error (ECONNRESET) in tests/server/uploads/cut.test.ts › after or during "a cut upload"',
        reason: 'read ECONNRESET',
      },
    ]);
    // An error after the file's last test ended, or in its teardown, carries the file alone.
    const teardown = { errors: [{ name: 'Error', message: 'read ECONNRESET', stack, testPath }] };
    expect(unhandledErrors('server, Node 26', teardown)).toEqual([
      { suite: 'server, Node 26', name: 'unhandled Error in tests/server/uploads/cut.test.ts', reason: 'read ECONNRESET' },
    ]);
  });

  it('names Playwright tests that failed every try, not those that passed on a retry', () => {
    const report = {
      suites: [
        {
          title: 'fault-suite.spec.ts',
          file: 'fault-suite.spec.ts',
          specs: [
            { title: 'the server killed mid-batch', line: 40, tests: [{ projectName: 'e2e', status: 'unexpected', results: [{ error: { message: 'Error: 29 of 30 done\nmore' } }] }] },
            { title: 'a cut upload', line: 90, tests: [{ projectName: 'e2e', status: 'flaky', results: [{ error: { message: 'x' } }, {}] }] },
          ],
          suites: [
            {
              title: 'offline',
              file: 'fault-suite.spec.ts',
              specs: [{ title: 'keeps the queue', line: 120, tests: [{ projectName: 'e2e', status: 'unexpected', results: [{}, { error: { message: 'Timeout 30000ms exceeded.' } }] }] }],
            },
          ],
        },
      ],
    };
    expect(playwrightFailures('browser end-to-end tests', report)).toEqual([
      { suite: 'browser end-to-end tests', name: '[e2e] fault-suite.spec.ts:40 › the server killed mid-batch', reason: 'Error: 29 of 30 done' },
      { suite: 'browser end-to-end tests', name: '[e2e] fault-suite.spec.ts:120 › offline › keeps the queue', reason: 'Timeout 30000ms exceeded.' },
    ]);
  });

  it('shows what the page held when a browser test failed, from the error context Playwright wrote', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'loom-failures-'));
    try {
      const context = path.join(dir, 'error-context.md');
      writeFileSync(
        context,
        [
          '# Instructions', '', '# Test info', '', '- Name: x', '', '# Error details', '', '```', 'Error: not found', '```',
          '', '# Page snapshot', '', '```yaml', '- main:', '  - heading "Image processing" [level=1]', '  - paragraph: Loading models…', '```',
        ].join('\n'),
      );
      const report = {
        suites: [
          {
            file: 'background-notices.spec.ts',
            specs: [
              {
                title: 'a batch in the background',
                line: 42,
                tests: [
                  {
                    projectName: 'e2e',
                    status: 'unexpected',
                    results: [{ error: { message: 'Error: not found' }, attachments: [{ name: 'screenshot', path: '/x.png' }, { name: 'error-context', path: context }] }],
                  },
                ],
              },
            ],
          },
        ],
      };
      expect(playwrightFailures('browser end-to-end tests', report)[0]?.page).toEqual([
        '- main:',
        '  - heading "Image processing" [level=1]',
        '  - paragraph: Loading models…',
      ]);
      // A context file that is gone (a cleaned folder) leaves the failure without a page, not a crash.
      rmSync(context);
      expect(playwrightFailures('browser end-to-end tests', report)[0]?.page).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bounds a long page to its first lines and says how many were left out', () => {
    const yaml = Array.from({ length: PAGE_LINES_SHOWN + 5 }, (_, i) => `- listitem: ${i}`);
    const page = pageSnapshotOf(['# Error details', '', '# Page snapshot', '', '```yaml', ...yaml, '```'].join('\n'));
    expect(page).toHaveLength(PAGE_LINES_SHOWN + 1);
    expect(page?.[0]).toBe('- listitem: 0');
    expect(page?.at(-1)).toBe('… 5 more lines');
    expect(pageSnapshotOf('# Error details\n\nError: x')).toBeUndefined();
    // A failed matcher puts the page right after its error, with no heading of its own.
    expect(pageSnapshotOf('# Error details\n\n```\nError: x\n```\n\n```yaml\n- main:\n  - text: Hi\n```\n')).toEqual(['- main:', '  - text: Hi']);
  });

  it('reads a missing report as no names (the counts already say it crashed) and bounds a long error', () => {
    expect(vitestFailures('x', undefined)).toEqual([]);
    expect(playwrightFailures('x', undefined)).toEqual([]);
    expect(firstLine(`\n\n  ${'a'.repeat(400)}`)).toHaveLength(300);
  });
});
