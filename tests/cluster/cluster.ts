// The cluster suite's harness: real parts on this machine, each in temporary folders and on free
// ports, torn down together. A PostgreSQL cluster of its own (restartable), companion server
// replicas from this repository behind nginx (round-robin), optionally the local S3 server and
// more processes (workers) that are not behind the load balancer.
//
//   const cluster = await startCluster({ replicas: 2 });
//   ... page.goto(cluster.url) ... await cluster.replicas()[0].kill() ... await cluster.postgres.restart()
//   await cluster.teardown();
//
// Settings of team mode (ROLE, TEAM_MODE, STORAGE_URL, ...) are the caller's: `env` goes to every
// process as it is, `addCompanion({ env })` to one.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../support/processes.js';
import { atExit, removeDir } from './cleanup.js';
import { startCompanion, type Companion, type CompanionOptions } from './companion.js';
import { findNginx, NGINX_BIN_CANDIDATES, startNginx, type LoadBalancer } from './nginx.js';
import { postgresProblem, startPostgres, type PostgresCluster } from './postgres.js';
import { startS3, type S3Server } from './s3.js';

export const CLUSTER_ADMIN = { account: 'cluster-admin', password: 'cluster-admin-pass' };

export interface ClusterOptions {
  /** Companion servers behind nginx; 2 by default. */
  replicas?: number;
  /** Settings for every process (ROLE, TEAM_MODE, STORAGE_URL, LOG_LEVEL, ...). */
  env?: Record<string, string>;
  /** Settings for one replica by its index (0-based), on top of `env`. */
  replicaEnv?: (index: number) => Record<string, string>;
  /** Starts the local S3 server first, so `env` may point at it (see `cluster.s3`). */
  s3?: boolean;
  /** One DATA_DIR for every process (a shared volume, the default), or one each. */
  sharedDataDir?: boolean;
  /** The built PWA (STATIC_DIR); dist/ of the repository by default. */
  staticDir?: string;
  /** The PostgreSQL schema the processes use (DATABASE_SCHEMA). */
  schema?: string;
}

export interface AddCompanionOptions {
  name?: string;
  env?: Record<string, string>;
  /** Put it behind nginx (reloaded). Default: true for the first ones, false for workers you add. */
  behindLoadBalancer?: boolean;
  /** null when it serves no HTTP (a worker); '/config.json' by default. */
  readyPath?: string | null;
}

export interface Cluster {
  /** nginx's address: where the PWA and the API are reached. */
  url: string;
  postgres: PostgresCluster;
  /** DATABASE_URL of the processes. */
  databaseUrl: string;
  schema: string;
  lb: LoadBalancer;
  s3?: S3Server;
  /** Every process started, in order, replicas first. */
  companions: Companion[];
  /** The ones nginx balances over. */
  replicas(): Companion[];
  admin: { account: string; password: string };
  jwtSecret: string;
  /** The cluster's own temporary folder (data, logs). */
  dir: string;
  logDir: string;
  /** Starts one more process with the cluster's settings plus `env`. */
  addCompanion(o?: AddCompanionOptions): Promise<Companion>;
  /** Puts replicas behind nginx or takes them out (nginx reloads). */
  balanceOver(replicas: Companion[]): Promise<void>;
  /** Stops everything and removes every temporary folder; safe to call twice. */
  teardown(): Promise<void>;
}

/** Why the cluster suite cannot run on this machine, or null when it can. */
export function clusterProblem(o: { needsBuild?: boolean } = {}): string | null {
  const pg = postgresProblem();
  if (pg) return pg;
  if (!findNginx()) return `nginx is not installed (looked for ${NGINX_BIN_CANDIDATES.join(', ')}; apt-get install nginx-light)`;
  if (o.needsBuild && !existsSync(path.join(REPO_ROOT, 'dist', 'index.html')))
    return 'the PWA is not built (dist/index.html missing; run npx vite build)';
  return null;
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-cluster-'));
  const unregister = atExit(() => removeDir(dir));
  const logDir = path.join(dir, 'logs');
  mkdirSync(logDir);
  const jwtSecret = randomBytes(32).toString('base64url');
  const schema = o.schema ?? 'loom';
  const sharedDataDir = path.join(dir, 'data');
  const parts: { postgres?: PostgresCluster; lb?: LoadBalancer; s3?: S3Server; companions: Companion[] } = {
    companions: [],
  };
  let behind: Companion[] = [];
  let tornDown = false;

  const teardown = async () => {
    if (tornDown) return;
    tornDown = true;
    const problems: unknown[] = [];
    const attempt = async (fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (error) {
        problems.push(error);
      }
    };
    await Promise.all(parts.companions.map((c) => attempt(() => c.stop())));
    if (parts.lb) await attempt(() => parts.lb!.stop());
    if (parts.s3) await attempt(() => parts.s3!.stop());
    if (parts.postgres) await attempt(() => parts.postgres!.destroy());
    removeDir(dir);
    unregister();
    if (problems.length > 0) throw new AggregateError(problems, 'cluster teardown had problems');
  };

  try {
    parts.postgres = await startPostgres();
    const databaseUrl = await parts.postgres.createDatabase('loom');
    if (o.s3) parts.s3 = await startS3();
    let count = 0;
    const baseEnv = (name: string): Record<string, string> => {
      const dataDir = o.sharedDataDir === false ? path.join(dir, `data-${name}`) : sharedDataDir;
      return {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        DATABASE_SCHEMA: schema,
        JWT_SECRET: jwtSecret,
        ADMIN_ACCOUNT: CLUSTER_ADMIN.account,
        ADMIN_PASSWORD: CLUSTER_ADMIN.password,
        STATIC_DIR: o.staticDir ?? path.join(REPO_ROOT, 'dist'),
        LOG_LEVEL: 'warn',
        // Every test signs in from 127.0.0.1.
        LOGIN_MAX_ATTEMPTS: '1000',
        ...o.env,
      };
    };
    const launch = (name: string, env: Record<string, string>, readyPath: string | null | undefined) => {
      const options: CompanionOptions = { name, env: { ...baseEnv(name), ...env }, logDir };
      if (readyPath !== undefined) options.readyPath = readyPath;
      return startCompanion(options);
    };

    // The first replica alone: it migrates the database and creates the administrator, which
    // processes starting at the same moment would race on.
    const replicaCount = o.replicas ?? 2;
    const names = Array.from({ length: replicaCount }, () => `replica-${++count}`);
    const first = await launch(names[0]!, o.replicaEnv?.(0) ?? {}, undefined);
    parts.companions.push(first);
    const rest = await Promise.all(names.slice(1).map((n, i) => launch(n, o.replicaEnv?.(i + 1) ?? {}, undefined)));
    parts.companions.push(...rest);
    behind = [first, ...rest];
    parts.lb = await startNginx(behind.map((c) => c.port));

    const cluster: Cluster = {
      url: parts.lb.url,
      postgres: parts.postgres,
      databaseUrl,
      schema,
      lb: parts.lb,
      ...(parts.s3 ? { s3: parts.s3 } : {}),
      companions: parts.companions,
      replicas: () => [...behind],
      admin: CLUSTER_ADMIN,
      jwtSecret,
      dir,
      logDir,
      async addCompanion(a = {}) {
        const name = a.name ?? `process-${++count}`;
        const c = await launch(name, a.env ?? {}, a.readyPath);
        parts.companions.push(c);
        if (a.behindLoadBalancer) await cluster.balanceOver([...behind, c]);
        return c;
      },
      async balanceOver(replicas) {
        behind = [...replicas];
        await parts.lb!.setUpstreams(behind.map((c) => c.port));
      },
      teardown,
    };
    return cluster;
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
}
