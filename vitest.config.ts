import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeParts } from './scripts/vite-locale-parts.ts';

// Two projects: pure/browser-side logic under jsdom, server integration under node.
// End-to-end tests are Playwright's (tests/e2e) and run separately.
export default defineConfig({
  plugins: [localeParts(), react()],
  test: {
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
          // Integration suites share the machine's PostgreSQL and two cores: keep them in one fork each.
          pool: 'forks',
        },
      },
    ],
  },
});
