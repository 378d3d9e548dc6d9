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
}

export default class UnhandledErrorsReporter implements Reporter {
  onTestRunEnd(_modules: unknown, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const file = process.env.UNHANDLED_ERRORS_FILE;
    if (!file) return;
    const errors: UnhandledErrorEntry[] = unhandledErrors.map((e) => ({
      name: String(e.name ?? 'Error'),
      message: String(e.message ?? ''),
      stack: String(e.stack ?? ''),
    }));
    writeFileSync(file, JSON.stringify({ errors }, null, 2));
  }
}
