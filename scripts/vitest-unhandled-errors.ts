// A vitest reporter that writes the run's unhandled errors (a promise rejected after its test, an
// error thrown in a timer) to the JSON file UNHANDLED_ERRORS_FILE names. vitest fails such a run
// with every test passed, and its JSON report does not carry them, so without this file the end
// of `npm test` could only say "failed" with no reason.
import { writeFileSync } from 'node:fs';
import type { Reporter, SerializedError } from 'vitest/node';

/** this reporter, as vitest's --reporter takes it (from the project's root) */
export const UNHANDLED_REPORTER = './scripts/vitest-unhandled-errors.ts';

export interface UnhandledErrorEntry {
  name: string;
  message: string;
  stack: string;
  /** the test file that was running when it arose (vitest's VITEST_TEST_PATH) */
  testPath?: string;
  /** the last test begun in that file: the error came while or after it ran */
  testName?: string;
  /** the error's code (ECONNRESET, …), which says more than a bare "read" message */
  code?: string;
}

export default class UnhandledErrorsReporter implements Reporter {
  onTestRunEnd(_modules: unknown, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const file = process.env.UNHANDLED_ERRORS_FILE;
    if (!file) return;
    // A socket's error has no frame of ours, so the file and test vitest tags it with are the
    // only clue to where it came from.
    const errors: UnhandledErrorEntry[] = unhandledErrors.map((e) => ({
      name: String(e.name ?? 'Error'),
      message: String(e.message ?? ''),
      stack: String(e.stack ?? ''),
      ...(typeof e.VITEST_TEST_PATH === 'string' ? { testPath: e.VITEST_TEST_PATH } : {}),
      ...(typeof e.VITEST_TEST_NAME === 'string' ? { testName: e.VITEST_TEST_NAME } : {}),
      ...(typeof e.code === 'string' ? { code: e.code } : {}),
    }));
    writeFileSync(file, JSON.stringify({ errors }, null, 2));
  }
}
