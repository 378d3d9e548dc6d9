// Environment → typed configuration. Every variable is documented in README.md; a bad value stops
// the server at start with a message that names the variable.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { tightenFile } from './private-files.js';
import { readProviderConfig, type ProviderConfig } from './providers/provider-config.js';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
// An API group's base URL as the PWA sees it: a path on this server or another host's URL.
const apiBase = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(/^(\/|https?:\/\/)/, 'must be a path starting with / or an http(s):// URL')
    .optional(),
);
const int = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));

const envSchema = z.object({
  PORT: int(8080, 0, 65535),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  // Where stored files and upscale results live: absent = DATA_DIR (a local disk, or a shared
  // volume mounted there); s3://bucket[/prefix] = S3-compatible object storage.
  STORAGE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/,
        'must be s3://bucket or s3://bucket/prefix (a bucket name of 3-63 lower-case letters, digits, dots and dashes); leave it empty to keep files under DATA_DIR',
      )
      .optional(),
  ),
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^https?:\/\/[^\s/]+\/?$/, 'must be an http(s):// origin such as http://127.0.0.1:9000')
      .optional(),
  ),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1').default('us-east-1')),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  DATABASE_SCHEMA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
      .optional(),
  ),
  // Team mode: which part of the work this process does, and pg-boss on DATABASE_URL for the jobs.
  ROLE: z.preprocess(emptyToUndefined, z.enum(['all', 'api', 'worker']).default('all')),
  TEAM_MODE: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  PGBOSS_SCHEMA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,49}$/, 'must be a lower-case SQL identifier of at most 50 characters')
      .default('pgboss'),
  ),
  JOB_CONCURRENCY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*[A-Za-z0-9_*-]+\s*=\s*\d+\s*(,\s*[A-Za-z0-9_*-]+\s*=\s*\d+\s*)*$/, 'must be lane=limit pairs, e.g. local=2,gemini=4,*=4')
      .optional(),
  ),
  ADMIN_ACCOUNT: optionalString,
  ADMIN_PASSWORD: z.preprocess(
    emptyToUndefined,
    z.string().min(6, 'must be at least 6 characters').optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_TTL_SECONDS: int(900, 1, 86_400),
  REFRESH_TOKEN_TTL_SECONDS: int(30 * 86_400, 60, 365 * 86_400),
  CORS_ORIGINS: optionalString,
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024, 50 * 1024 * 1024),
  UPLOAD_LIMIT_BYTES: int(10 * 1024 * 1024, 1024, 200 * 1024 * 1024),
  // Image and workshop groups' uploads held in memory at once. Default: 4 × UPLOAD_LIMIT_BYTES.
  GENERATION_MAX_INFLIGHT_BYTES: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number of bytes' })
      .int('must be a whole number of bytes')
      .min(1024, 'must be at least 1024 bytes')
      .max(64 * 1024 * 1024 * 1024, 'must be at most 64 GiB')
      .optional(),
  ),
  // Resumable uploads (tus): on by default; off removes the endpoint and its /config.json entry.
  UPLOADS_TUS: z.preprocess(emptyToUndefined, z.enum(['on', 'off']).default('on')),
  // An unfinished (or finished but unused) upload is swept this long after its creation.
  UPLOAD_EXPIRY_HOURS: int(24, 1, 24 * 30),
  // One user's unfinished uploads at once, in count and in declared bytes; beyond them a 429.
  UPLOAD_MAX_PENDING_PER_USER: int(200, 1, 100_000),
  UPLOAD_MAX_PENDING_BYTES_PER_USER: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a whole number of bytes' })
      .int('must be a whole number of bytes')
      .min(1024, 'must be at least 1024 bytes')
      .max(1024 * 1024 * 1024 * 1024, 'must be at most 1 TiB')
      .default(4 * 1024 * 1024 * 1024),
  ),
  // Generation jobs one user may have waiting, per class (interactive / batch); more answer 429.
  JOB_MAX_WAITING_PER_USER: int(50, 1, 100_000),
  // Team mode: a worker whose heartbeat is older than this has its running jobs run by another.
  WORKER_STALE_SECONDS: int(30, 1, 3_600),
  STATIC_DIR: z.preprocess(emptyToUndefined, z.string().default('./dist')),
  SMS_WEBHOOK_URL: z.preprocess(emptyToUndefined, z.string().url().optional()),
  SMS_WEBHOOK_TOKEN: optionalString,
  LOGIN_MAX_ATTEMPTS: int(10, 1, 10_000),
  LOGIN_WINDOW_SECONDS: int(600, 1, 86_400),
  ARGON2_MEMORY_KIB: int(19_456, 1024, 1_048_576),
  ARGON2_TIME_COST: int(2, 1, 20),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
  MAIN_API_URL: apiBase,
  UPSCALE_URL: apiBase,
  IMAGE_API_URL: apiBase,
  THIRD_API_URL: apiBase,
  // Upscale service (embedded under UPSCALE_URL's path, or alone via server/upscale-main.ts).
  UPSCALE_PORT: int(8090, 0, 65535),
  MODELS_DIR: optionalString,
  UPSCALE_CONCURRENCY: int(1, 1, 16),
  UPSCALE_MAX_QUEUE: int(8, 0, 10_000),
  UPSCALE_MAX_PIXELS: int(4_200_000, 1, 100_000_000),
  UPSCALE_MAX_BATCH_FILES: int(10, 1, 100),
  // Default: 4 × UPLOAD_LIMIT_BYTES, worked out below.
  UPSCALE_MAX_INFLIGHT_BYTES: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024 * 1024)
      .optional(),
  ),
  UPSCALE_RESULT_TTL_SECONDS: int(86_400, 1, 30 * 86_400),
  UPSCALE_THREADS: int(availableParallelism(), 1, 256),
  // The engine's model of a job's fixed part (250 MiB) and a small job's cached maps (256 MiB) come
  // to about 512 MiB: below it every job would fall to the smallest tiles.
  UPSCALE_MEMORY_BUDGET_MB: int(1024, 512, 65_536),
  // How the engine computes its wide 3x3 convolutions: auto follows the CPU (Winograd where it pays,
  // server/upscale/cpu-vector-width.ts's winogradPays); the others force one form.
  UPSCALE_CONVOLUTIONS: z.preprocess(emptyToUndefined, z.enum(['auto', 'direct', 'winograd']).default('auto')),
});

/** UPSCALE_CONVOLUTIONS as the engine's winograd option: undefined (auto) lets the engine choose. */
const winogradOption = (setting: 'auto' | 'direct' | 'winograd'): boolean | undefined =>
  setting === 'auto' ? undefined : setting === 'winograd';

/**
 * UPSCALE_CONVOLUTIONS alone, for the benchmarks, which build their engines without the server's
 * configuration: the engine's winograd option, or a ConfigError naming the setting.
 */
export function upscaleWinogradSetting(env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  const parsed = envSchema.shape.UPSCALE_CONVOLUTIONS.safeParse(env['UPSCALE_CONVOLUTIONS']);
  if (!parsed.success) throw new ConfigError(`UPSCALE_CONVOLUTIONS: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return winogradOption(parsed.data);
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string };
  /** Stored files and upscale results: under dataDir, or in an S3-compatible bucket. */
  storage: StorageConfig;
  /** all: today's single process; api: routes and streams, runs no jobs; worker: runs jobs, no public port. */
  role: 'all' | 'api' | 'worker';
  /** The job engine: the in-process runner, or pg-boss on DATABASE_URL (TEAM_MODE=true). */
  jobs: {
    engine: 'in-process' | 'pgboss';
    /** pg-boss's schema (team mode). */
    schema: string;
    /** Jobs of one lane (provider) running at once in one process: lane → limit, '*' for the rest. */
    concurrency?: Record<string, number>;
    /** Jobs one user may have waiting (team mode; beyond it a 429). */
    maxWaitingPerUser: number;
    /** Team mode: a worker silent this long is taken for dead; its running jobs go to another. */
    workerStaleSeconds: number;
  };
  admin?: { account: string; password?: string };
  logLevel: string;
  jwtSecret: Uint8Array;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  corsOrigins: string[];
  bodyLimitBytes: number;
  uploadLimitBytes: number;
  /** image and workshop upload bytes held in memory at once (bodies being read, files not yet stored) */
  generationMaxInflightBytes: number;
  /** Resumable uploads on the tus protocol (server/modules/uploads/). */
  uploads: {
    /** The endpoint is served and named in /config.json. */
    tus: boolean;
    /** After creation, an upload (finished or not) is swept. */
    expiryHours: number;
    /** One user's unfinished uploads at once, and their declared bytes. */
    maxPendingPerUser: number;
    maxPendingBytesPerUser: number;
  };
  staticDir: string;
  sms: { kind: 'outbox' } | { kind: 'webhook'; url: string; token?: string };
  loginThrottle: { maxAttempts: number; windowSeconds: number };
  argon2: { memoryCost: number; timeCost: number };
  trustProxy: boolean;
  /** PEM certificate chain and key: with them the server speaks HTTPS itself. */
  tls?: { cert: Buffer; key: Buffer };
  /** AI providers: keys, base URLs and models of each, and which serves each generation capability. */
  providers: ProviderConfig;
  /** Base URL of each API group as the PWA sees it; served as /config.json. */
  publicApi: { main: string; image: string; upscale: string; third: string };
  upscale: {
    port: number;
    modelsDir: string;
    /** engine jobs running at once (one engine each) */
    concurrency: number;
    /** jobs allowed to wait behind the running ones; beyond it a 503 */
    maxQueue: number;
    maxPixels: number;
    maxBatchFiles: number;
    /** upload bytes held in memory at once (bodies being read, images waiting or running) */
    maxInflightBytes: number;
    resultTtlSeconds: number;
    /** onnxruntime threads, shared out among the engines */
    threads: number;
    /** peak memory one engine job may take: the engine sizes its tiles from it */
    memoryBudgetBytes: number;
    /** the wide 3x3 convolutions as Winograd F(4,3) (true), direct (false), or as the CPU suits (undefined) */
    winograd: boolean | undefined;
  };
}

export type StorageConfig =
  | { kind: 'disk' }
  | {
      kind: 's3';
      bucket: string;
      /** '' or a key prefix ending in '/'. */
      prefix: string;
      /** Another S3-compatible service (MinIO, R2, a test server); AWS itself when absent. */
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
    };

export { ConfigError };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  checkTeamMode(e.ROLE, e.TEAM_MODE === 'true', e.DATABASE_URL);
  const tls = loadTls(e.TLS_CERT_FILE, e.TLS_KEY_FILE);
  const dataDir = path.resolve(e.DATA_DIR);
  const storage = storageConfig(e);
  // Private to the server's user when we create it: it holds the database and the secret.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, schema: e.DATABASE_SCHEMA }
      : { kind: 'sqlite', file: path.join(dataDir, 'loom.sqlite') },
    storage,
    role: e.ROLE,
    jobs: {
      engine: e.TEAM_MODE === 'true' ? 'pgboss' : 'in-process',
      schema: e.PGBOSS_SCHEMA,
      ...(e.JOB_CONCURRENCY ? { concurrency: parseConcurrency(e.JOB_CONCURRENCY) } : {}),
      maxWaitingPerUser: e.JOB_MAX_WAITING_PER_USER,
      workerStaleSeconds: e.WORKER_STALE_SECONDS,
    },
    admin: e.ADMIN_ACCOUNT ? { account: e.ADMIN_ACCOUNT, password: e.ADMIN_PASSWORD } : undefined,
    logLevel: e.LOG_LEVEL,
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? persistedSecret(dataDir)),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    generationMaxInflightBytes: e.GENERATION_MAX_INFLIGHT_BYTES ?? 4 * e.UPLOAD_LIMIT_BYTES,
    uploads: {
      tus: e.UPLOADS_TUS === 'on',
      expiryHours: e.UPLOAD_EXPIRY_HOURS,
      maxPendingPerUser: e.UPLOAD_MAX_PENDING_PER_USER,
      maxPendingBytesPerUser: e.UPLOAD_MAX_PENDING_BYTES_PER_USER,
    },
    staticDir: path.resolve(e.STATIC_DIR),
    sms: e.SMS_WEBHOOK_URL
      ? { kind: 'webhook', url: e.SMS_WEBHOOK_URL, token: e.SMS_WEBHOOK_TOKEN }
      : { kind: 'outbox' },
    loginThrottle: { maxAttempts: e.LOGIN_MAX_ATTEMPTS, windowSeconds: e.LOGIN_WINDOW_SECONDS },
    argon2: { memoryCost: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    trustProxy: e.TRUST_PROXY === 'true',
    tls,
    providers: readProviderConfig(env),
    publicApi: {
      main: e.MAIN_API_URL ?? '/api',
      image: e.IMAGE_API_URL ?? '/image-api',
      upscale: e.UPSCALE_URL ?? '/upscale-api',
      third: e.THIRD_API_URL ?? '/third-api',
    },
    upscale: {
      port: e.UPSCALE_PORT,
      modelsDir: e.MODELS_DIR ? path.resolve(e.MODELS_DIR) : path.join(repoRoot, '.cache', 'models'),
      concurrency: e.UPSCALE_CONCURRENCY,
      maxQueue: e.UPSCALE_MAX_QUEUE,
      maxPixels: e.UPSCALE_MAX_PIXELS,
      maxBatchFiles: e.UPSCALE_MAX_BATCH_FILES,
      maxInflightBytes: e.UPSCALE_MAX_INFLIGHT_BYTES ?? 4 * e.UPLOAD_LIMIT_BYTES,
      resultTtlSeconds: e.UPSCALE_RESULT_TTL_SECONDS,
      threads: e.UPSCALE_THREADS,
      memoryBudgetBytes: e.UPSCALE_MEMORY_BUDGET_MB * 1024 * 1024,
      winograd: winogradOption(e.UPSCALE_CONVOLUTIONS),
    },
  };
}

/** STORAGE_URL and its S3 settings; the S3 settings without an s3:// STORAGE_URL are a mistake worth naming. */
function storageConfig(e: z.infer<typeof envSchema>): StorageConfig {
  if (!e.STORAGE_URL) {
    if (e.S3_ENDPOINT) {
      throw new ConfigError(
        'Invalid configuration:\n  S3_ENDPOINT: set STORAGE_URL=s3://bucket[/prefix] as well, or files stay under DATA_DIR',
      );
    }
    return { kind: 'disk' };
  }
  const rest = e.STORAGE_URL.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash < 0 ? rest : rest.slice(0, slash);
  const prefix = slash < 0 ? '' : rest.slice(slash + 1).replace(/^\/+|\/+$/g, '');
  return {
    kind: 's3',
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
    region: e.S3_REGION,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
  };
}

/** Team mode needs PostgreSQL; a role other than `all` needs team mode (its jobs live in the database). */
function checkTeamMode(role: string, teamMode: boolean, databaseUrl: string | undefined): void {
  const problems: string[] = [];
  if (teamMode && !databaseUrl) {
    problems.push('  TEAM_MODE: true needs DATABASE_URL (the jobs are kept in PostgreSQL with pg-boss)');
  }
  if (role !== 'all' && !teamMode) {
    problems.push(`  ROLE: ${role} needs TEAM_MODE=true and DATABASE_URL (only ROLE=all runs on its own)`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
}

/** "local=2,gemini=4,*=4" → { local: 2, gemini: 4, '*': 4 }. */
function parseConcurrency(text: string): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const pair of text.split(',')) {
    const [lane, limit] = pair.split('=').map((part) => part.trim());
    const n = Number(limit);
    if (!lane || !Number.isInteger(n) || n < 1 || n > 256) {
      throw new ConfigError(`Invalid configuration:\n  JOB_CONCURRENCY: ${pair.trim()} must be lane=limit with a limit from 1 to 256`);
    }
    limits[lane] = n;
  }
  return limits;
}

/** Without JWT_SECRET, one random secret is kept in the data folder so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    tightenFile(file);
    return readFileSync(file, 'utf8').trim();
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Both TLS files or neither; they must be readable and the key must match the certificate. */
function loadTls(certFile: string | undefined, keyFile: string | undefined): AppConfig['tls'] {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) {
    const missing = certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE';
    throw new ConfigError(`Invalid configuration:\n  ${missing}: required when the other TLS file is set`);
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(path.resolve(file));
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  };
  const tls = { cert: read('TLS_CERT_FILE', certFile), key: read('TLS_KEY_FILE', keyFile) };
  try {
    createSecureContext(tls);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  TLS_CERT_FILE, TLS_KEY_FILE: not a usable PEM certificate and matching key (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return tls;
}
