// A companion server for the generation suites: a real app over a real database (SQLite or
// PostgreSQL) with a test double of the providers and fast job settings, plus helpers to send
// multipart forms and read event streams.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../../../server/app.js';
import { loadConfig, type AppConfig } from '../../../../server/config.js';
import type { UserLevel } from '../../../../server/db/schema.js';
import type { GenerationProviders } from '../../../../server/modules/generation/engines/generation-providers.js';
import type { GenerationOverrides } from '../../../../server/modules/generation/generation-module.js';
import { ensureAdmin } from '../../../../server/modules/users/ensure-admin.js';
import { POSTGRES_URL, dropSchema, uniqueSchema, type DatabaseKind } from '../../helpers/databases.js';
import { testServerEnv } from '../../helpers/test-config.js';
import { expectOnContract } from '../../helpers/stream-contract.js';

export const ADMIN = { account: 'gen-admin', password: 'admin-secret' };

export const FAST_RUNNER: NonNullable<GenerationOverrides['runner']> = {
  pollMs: 20,
  leaseMs: 2000,
  budgetMs: 2000,
  backoff: { initialMs: 20, maxMs: 200 },
  maxRunMs: 1500,
};

export interface Reply<T = unknown> {
  status: number;
  body: { success: boolean; code: number; message: string; data: T };
  response: LightMyRequestResponse;
}

/** One line of the app's log, as pino writes it (level 50 = error, 40 = warn). */
export interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body by hand, so the test controls every byte. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----loom-test-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename ? `\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The `data:` events of an event-stream body, in order. */
export function sseEvents(body: string): Record<string, unknown>[] {
  return body
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter(Boolean)
    .map((json) => JSON.parse(json) as Record<string, unknown>);
}

export interface GenerationTestApp {
  readonly app: FastifyInstance;
  config: AppConfig;
  dataDir: string;
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    o?: { token?: string; body?: unknown; form?: Part[]; headers?: Record<string, string> },
  ): Promise<Reply<T>>;
  /** An event-stream call read to its end. */
  stream(url: string, o: { token: string; body?: unknown; form?: Part[]; method?: 'GET' | 'POST'; headers?: Record<string, string> }): Promise<{ status: number; events: Record<string, unknown>[]; response: LightMyRequestResponse }>;
  user(level: UserLevel): Promise<{ id: number; token: string }>;
  adminToken(): Promise<string>;
  /** Closes the app (its jobs go back to the table) and builds a new one over the same database and files. */
  restart(providers?: GenerationProviders): Promise<void>;
  close(): Promise<void>;
}

let counter = 0;

export async function createGenerationApp(
  kind: DatabaseKind,
  /** undefined: what the server's settings choose (with no keys, the built-in engine). */
  providers: GenerationProviders | undefined,
  runner: NonNullable<GenerationOverrides['runner']> = FAST_RUNNER,
  local?: GenerationOverrides['local'],
  /** More settings, and a list that receives every line the app logs (set LOG_LEVEL in env to fill it). */
  extra: { env?: Record<string, string>; logs?: LogLine[] } = {},
): Promise<GenerationTestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-gen-'));
  const schema = kind === 'postgres' ? uniqueSchema() : undefined;
  const config = loadConfig({
    ...testServerEnv(dataDir, ADMIN),
    ...(kind === 'postgres' ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {}),
    ...extra.env,
  });
  const logs = extra.logs;
  const logStream = logs && { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) };
  let current = providers;
  const start = async () => {
    const app = await buildApp(config, { generation: { providers: current, runner, local }, ...(logStream ? { logStream } : {}) });
    await ensureAdmin(config, app.services);
    await app.ready();
    return app;
  };
  let app = await start();

  const call: GenerationTestApp['call'] = async (method, url, o = {}) => {
    const form = o.form ? multipart(o.form) : undefined;
    const response = await app.inject({
      method,
      url,
      headers: {
        'accept-language': 'en-US',
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...form?.headers,
        ...o.headers,
      },
      ...(form ? { payload: form.payload } : o.body === undefined ? {} : { payload: o.body as Record<string, unknown> }),
    });
    let body: Reply['body'];
    try {
      body = response.json();
    } catch {
      body = { success: false, code: response.statusCode, message: response.body, data: null };
    }
    return { status: response.statusCode, body: body as Reply<never>['body'], response };
  };

  const login = async (account: string, password: string) => {
    const r = await call<{ token: string }>('POST', '/api/auth/login-password', { body: { account, password } });
    if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.body.message}`);
    return r.body.data.token;
  };

  return {
    get app() {
      return app;
    },
    config,
    dataDir,
    call,
    async stream(url, o) {
      const r = await call(o.method ?? 'POST', url, o);
      const events = r.status === 200 ? sseEvents(r.response.body) : [];
      expectOnContract(url, events);
      return { status: r.status, events, response: r.response };
    },
    adminToken: () => login(ADMIN.account, ADMIN.password),
    async user(level) {
      counter += 1;
      const account = `gen-${level.toLowerCase()}-${counter}-${Date.now().toString(36)}`;
      const r = await call<{ id: number }>('POST', '/api/users/', {
        token: await login(ADMIN.account, ADMIN.password),
        body: { account, password: 'pass-123456', user_level: level },
      });
      if (r.status !== 201) throw new Error(`create user failed: ${r.status} ${JSON.stringify(r.body)}`);
      return { id: r.body.data.id, token: await login(account, 'pass-123456') };
    },
    async restart(next) {
      await app.close();
      if (next) current = next;
      app = await start();
    },
    async close() {
      await app.close();
      if (schema) await dropSchema(schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` until `done` holds (or fails the test after `ms`). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met in ${ms} ms: ${String(JSON.stringify(value)).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
