import { startServer } from './server-process';

// One server for the whole browser suite; each test signs in itself. Tests that need to stop the
// server (offline behaviour) start their own on another port.
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = Number(new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8099').port);
  // Every test signs in from 127.0.0.1; the default budget (50 attempts per 10 min per IP) is for
  // the real world, not for a suite that signs in dozens of times.
  const server = await startServer(port, { LOGIN_MAX_ATTEMPTS: '1000' });
  process.env.E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
