// Starts the real companion server (built PWA + every API) on a free port with a fresh data folder,
// so browser tests click through the same stack a designer uses.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exitReason, spawnCompanion, waitForHttp } from '../support/processes.js';

export interface RunningServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export const E2E_ADMIN = { account: 'e2e-admin', password: 'e2e-admin-pass' };

export async function startServer(port: number, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = extraEnv.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'loom-e2e-'));
  const child = spawnCompanion({
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_ACCOUNT: E2E_ADMIN.account,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...extraEnv,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/config.json`, { what: 'server', exited: () => exitReason(child) });
  return {
    url,
    dataDir,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
