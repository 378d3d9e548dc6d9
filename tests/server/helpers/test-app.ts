// A real companion server on a real database for one suite: build, sign in, make users, move time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../server/app.js';
import { loadConfig, type AppConfig } from '../../../server/config.js';
import type { UserLevel } from '../../../server/db/schema.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { POSTGRES_URL, dropSchema, uniqueSchema, type DatabaseKind } from './databases.js';
import { testServerEnv } from './test-config.js';

export const ADMIN = { account: 'root-admin', password: 'admin-secret' };

export interface Envelope<T = unknown> {
  success: boolean;
  code: number;
  message: string;
  data: T;
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  /** Moves the server's clock forward (codes, refresh tokens and access tokens all follow it). */
  advance(seconds: number): void;
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string>; remoteAddress?: string },
  ): Promise<{ status: number; body: Envelope<T>; response: LightMyRequestResponse }>;
  login(account: string, password: string): Promise<{ token: string; refresh_token: string }>;
  adminToken(): Promise<string>;
  /** Closes the app and builds a new one over the same database, data folder and clock. */
  restart(): Promise<void>;
  createUser(level: UserLevel, extra?: Record<string, unknown>): Promise<{ id: number; account: string; password: string; token: string }>;
  close(): Promise<void>;
}

let counter = 0;

export async function createTestApp(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-test-'));
  const schema = kind === 'postgres' ? uniqueSchema() : undefined;
  const config = loadConfig({
    ...testServerEnv(dataDir, ADMIN),
    ...(kind === 'postgres' ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {}),
    ...env,
  });
  let offsetMs = 0;
  const start = async () => {
    const built = await buildApp(config, { now: () => new Date(Date.now() + offsetMs) });
    await ensureAdmin(config, built.services);
    await built.ready();
    return built;
  };
  let app = await start();

  const call: TestApp['call'] = async (method, url, options = {}) => {
    const response = await app.inject({
      method,
      url,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        'accept-language': 'en-US',
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: response.json(), response };
  };

  const login = async (account: string, password: string) => {
    const r = await call<{ token: string; refresh_token: string }>('POST', '/api/auth/login-password', {
      body: { account, password },
    });
    if (r.status !== 200) throw new Error(`login of ${account} failed: ${r.status} ${r.body.message}`);
    return r.body.data;
  };

  // A fresh sign-in each time: suites move the clock, so a cached token could have expired.
  const adminToken = async () => (await login(ADMIN.account, ADMIN.password)).token;

  return {
    get app() {
      return app;
    },
    config,
    dataDir,
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    call,
    login,
    adminToken,
    async restart() {
      await app.close();
      app = await start();
    },
    async createUser(level, extra = {}) {
      counter += 1;
      const account = `user-${level.toLowerCase()}-${counter}-${Date.now().toString(36)}`;
      const password = 'pass-123456';
      const r = await call<{ id: number }>('POST', '/api/users/', {
        token: await adminToken(),
        body: { account, password, user_level: level, ...extra },
      });
      if (r.status !== 201) throw new Error(`create user failed: ${r.status} ${JSON.stringify(r.body)}`);
      const { token } = await login(account, password);
      return { id: r.body.data.id, account, password, token };
    },
    async close() {
      await app.close();
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
