// A PostgreSQL cluster of the suite's own: initdb into a temporary folder, started with pg_ctl on a
// free port (127.0.0.1, trust authentication, its unix socket in the same folder), so a test can
// stop, restart or kill -9 it without touching the machine's shared server. initdb refuses to run
// as root: as root (CI), the folder belongs to the `postgres` OS user and every server binary runs
// as that user through runuser.
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../support/processes.js';
import { atExit, killNow, removeDir } from './cleanup.js';

export interface PostgresCluster {
  port: number;
  /** The folder holding the data directory, the socket and the log. */
  dir: string;
  dataDir: string;
  socketDir: string;
  logFile: string;
  /** postgresql://postgres@127.0.0.1:<port>/<database> (trust authentication) */
  url(database?: string): string;
  /** Creates a database (if it is not there) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** The postmaster's pid while it runs, read from postmaster.pid. */
  pid(): number | undefined;
  start(): Promise<void>;
  /** pg_ctl stop; 'fast' disconnects the clients and shuts down cleanly. */
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** stop (fast by default) then start, on the same port. */
  restart(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** kill -9 of the postmaster and every backend it started; start() recovers from the WAL. */
  kill(): Promise<void>;
  /** Stops the server and removes the folder. */
  destroy(): Promise<void>;
}

/** The newest installed PostgreSQL server binaries (Debian: /usr/lib/postgresql/<version>/bin), or PG_BIN. */
export function findPostgresBin(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(root, v, 'bin')));
  }
  return candidates.find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) ?? null;
}

const isRoot = () => process.getuid?.() === 0;

/** uid and gid of the `postgres` OS user, read from /etc/passwd. */
function postgresUser(): { uid: number; gid: number } | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid, gid] = line.split(':');
      if (name === 'postgres') return { uid: Number(uid), gid: Number(gid) };
    }
  } catch {
    // no passwd file
  }
  return null;
}

/** Why the suite cannot run its own PostgreSQL here, or null when it can. */
export function postgresProblem(): string | null {
  if (!findPostgresBin()) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or PG_BIN';
  if (isRoot()) {
    if (!postgresUser()) return 'running as root, and there is no `postgres` OS user to run initdb as';
    if (!existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
      return 'running as root, and runuser (util-linux) is missing';
  }
  return null;
}

function run(command: string, args: string[], timeoutMs = 60_000): Promise<string> {
  // As root the server binaries run as `postgres`: initdb and postgres refuse root.
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: timeoutMs, cwd: '/' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${path.basename(command)} ${args[0] ?? ''} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

/** Every process whose parent chain leads to `pid` (the backends of a postmaster), from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so parse after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) {
      if (parent === p) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Running, not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

export async function startPostgres(o: { port?: number; settings?: Record<string, string> } = {}): Promise<PostgresCluster> {
  const problem = postgresProblem();
  if (problem) throw new Error(`cannot run a PostgreSQL cluster: ${problem}`);
  const bin = findPostgresBin()!;
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-cluster-pg-'));
  const owner = isRoot() ? postgresUser()! : { uid: userInfo().uid, gid: userInfo().gid };
  chownSync(dir, owner.uid, owner.gid);
  chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'data');
  const socketDir = dir;
  const logFile = path.join(dir, 'postgres.log');
  const port = o.port ?? (await freePort());
  const unregister = atExit(() => {
    killAll();
    removeDir(dir);
  });

  const pidOf = (): number | undefined => {
    try {
      const first = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0];
      const pid = Number(first);
      return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
    } catch {
      return undefined;
    }
  };
  function killAll(): number[] {
    const pid = pidOf();
    if (pid === undefined) return [];
    const all = [pid, ...descendants(pid)];
    for (const p of all) killNow(p, false);
    return all;
  }

  // A throwaway cluster: no fsync, small memory, quick shutdown. Settings go on the command line,
  // so restart() keeps them.
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: socketDir,
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    shared_buffers: '32MB',
    max_connections: '200',
    ...o.settings,
  };
  const serverOptions = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');

  await run(path.join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);

  const cluster: PostgresCluster = {
    port,
    dir,
    dataDir,
    socketDir,
    logFile,
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    pid: pidOf,
    async start() {
      try {
        await run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
      } catch (error) {
        const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n') : '';
        throw new Error(`${(error as Error).message}\n--- ${logFile} ---\n${log}`, { cause: error });
      }
    },
    async stop(mode = 'fast') {
      if (pidOf() === undefined) return;
      await run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    },
    async restart(mode = 'fast') {
      await cluster.stop(mode);
      await cluster.start();
    },
    async kill() {
      const killed = killAll();
      const deadline = Date.now() + 10_000;
      while (killed.some(alive)) {
        if (Date.now() > deadline) throw new Error('PostgreSQL processes outlived kill -9');
        await new Promise((r) => setTimeout(r, 50));
      }
      // A killed postmaster stays a zombie until its parent (init) reaps it, and PostgreSQL's lock
      // check counts a zombie as running ("lock file postmaster.pid already exists"). Once it is
      // reaped the lock is stale and start() clears it; a parent that never reaps leaves the lock
      // to us.
      const postmaster = killed[0];
      const reaped = Date.now() + 3_000;
      while (postmaster !== undefined && existsSync(`/proc/${postmaster}`) && Date.now() < reaped)
        await new Promise((r) => setTimeout(r, 50));
      if (postmaster !== undefined && existsSync(`/proc/${postmaster}`)) rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
    },
    async destroy() {
      try {
        await cluster.stop('immediate');
      } catch {
        killAll();
      }
      removeDir(dir);
      unregister();
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}
