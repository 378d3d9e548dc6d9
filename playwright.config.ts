import { defineConfig } from '@playwright/test';

// Debian's Chromium (apt-get install chromium); Playwright's own browser download does not work here.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  // tests/build checks dist/ on disk (no browser); tests/e2e drives Chromium against the server;
  // tests/cluster starts its own PostgreSQL, nginx and server replicas (not the global server).
  projects: [
    { name: 'build', testDir: 'tests/build' },
    { name: 'e2e', testDir: 'tests/e2e' },
    { name: 'cluster', testDir: 'tests/cluster', timeout: 120_000 },
  ],
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8099',
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
