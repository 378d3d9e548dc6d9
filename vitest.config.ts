import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeParts } from './scripts/vite-locale-parts.ts';

// Two projects: pure/browser-side logic under jsdom, server integration under node.
// End-to-end tests are Playwright's (tests/e2e) and run separately.
export default defineConfig({
  plugins: [localeParts(), react()],
  test: {
    // At least two test files at once, even on two cores (where the default is one): the server's
    // suites wait on PostgreSQL, timers and child processes more than they compute, and each
    // file's fork spends a second importing; two at a time took the server suite from 452 s to
    // 247 s and the unit suite from 77 s to 57 s on a 2-core machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/unit/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Native modules (better-sqlite3, sharp, onnxruntime) and process-wide state: a fork per file.
          pool: 'forks',
        },
      },
    ],
  },
});
