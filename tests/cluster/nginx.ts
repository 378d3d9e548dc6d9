// nginx from Debian as the suite's load balancer: round-robin over the given upstream ports on
// 127.0.0.1, with its config, pid file, logs and temp folders in a temporary folder of its own.
// Event streams pass unbuffered; a replica that refuses connections is skipped for the request
// (and for a few seconds); each answer names its replica in X-Loom-Upstream. setUpstreams()
// rewrites the config and reloads nginx, and returns once the new list answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exitReason, freePort, killGroup, waitForHttp } from '../support/processes.js';
import { atExit, killNow, removeDir } from './cleanup.js';

export const NGINX_BIN_CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];

export function findNginx(): string | null {
  const candidates = process.env.NGINX_BIN ? [process.env.NGINX_BIN] : NGINX_BIN_CANDIDATES;
  return candidates.find((c) => existsSync(c)) ?? null;
}

export interface AccessLogEntry {
  method: string;
  path: string;
  status: number;
  /** What nginx tried, in order ("127.0.0.1:4001, 127.0.0.1:4002"); "-" when it answered itself. */
  upstream: string;
  upstreamStatus: string;
}

export interface LoadBalancer {
  url: string;
  port: number;
  dir: string;
  upstreams(): number[];
  /** Rewrites the upstream list and reloads nginx; resolves once the new config answers. */
  setUpstreams(ports: number[]): Promise<void>;
  /** The requests nginx proxied so far, oldest first. */
  accessLog(): AccessLogEntry[];
  errorLog(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  port?: number;
  /** Seconds a request may wait for an upstream's answer (long for event streams and uploads). */
  readTimeoutSeconds?: number;
}

const PROBE = '/__loom_lb_generation';

function config(dir: string, port: number, upstreams: number[], generation: number, o: NginxOptions): string {
  const p = (...parts: string[]) => path.join(dir, ...parts);
  const read = o.readTimeoutSeconds ?? 600;
  return `# Written by tests/cluster/nginx.ts (generation ${generation}).
${process.getuid?.() === 0 ? 'user root root;' : ''}
daemon off;
master_process on;
worker_processes 1;
pid ${p('nginx.pid')};
error_log ${p('logs', 'error.log')} warn;
events { worker_connections 1024; }
http {
  log_format loom '$request_method|$request_uri|$status|$upstream_addr|$upstream_status';
  access_log ${p('logs', 'access.log')} loom;
  client_body_temp_path ${p('temp', 'body')};
  proxy_temp_path ${p('temp', 'proxy')};
  fastcgi_temp_path ${p('temp', 'fastcgi')};
  uwsgi_temp_path ${p('temp', 'uwsgi')};
  scgi_temp_path ${p('temp', 'scgi')};
  # The app enforces its own upload limits.
  client_max_body_size 0;

  upstream loom {
    # A refused connection marks the replica down for a few seconds; the request goes to the next.
${upstreams.map((u) => `    server 127.0.0.1:${u} max_fails=1 fail_timeout=3s;`).join('\n')}
    keepalive 16;
  }

  server {
    listen 127.0.0.1:${port};
    location = ${PROBE} { return 200 "${generation}"; }
    location / {
      proxy_pass http://loom;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Event streams and progress: each byte goes out as it arrives; uploads stream through.
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_cache off;
      proxy_connect_timeout 2s;
      proxy_send_timeout ${read}s;
      proxy_read_timeout ${read}s;
      # A replica that is gone (refused, reset before an answer) gets the request to another one.
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
      proxy_next_upstream_timeout 10s;
      # Which replica answered, for tests that must know before the access log line is written
      # (an event stream is logged only when it ends).
      add_header X-Loom-Upstream $upstream_addr always;
    }
  }
}
`;
}

export async function startNginx(upstreams: number[], o: NginxOptions = {}): Promise<LoadBalancer> {
  const bin = findNginx();
  if (!bin) throw new Error(`nginx is not installed (looked for ${NGINX_BIN_CANDIDATES.join(', ')}, or NGINX_BIN)`);
  if (upstreams.length === 0) throw new Error('nginx needs at least one upstream');
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-cluster-nginx-'));
  for (const sub of ['conf', 'logs', 'temp']) mkdirSync(path.join(dir, sub));
  const port = o.port ?? (await freePort());
  const confFile = path.join(dir, 'conf', 'nginx.conf');
  let generation = 1;
  let current = [...upstreams];
  writeFileSync(confFile, config(dir, port, current, generation, o));

  // -p: its prefix (relative paths and the default log) in our folder, never /var/log/nginx.
  const args = ['-p', dir, '-c', confFile, '-e', path.join(dir, 'logs', 'error.log')];
  const check = spawn(bin, [...args, '-t', '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let checkOutput = '';
  check.stderr.on('data', (c: Buffer) => (checkOutput += c.toString()));
  if ((await new Promise<number | null>((r) => check.on('exit', r))) !== 0)
    throw new Error(`nginx refused its config: ${checkOutput}`);

  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const unregister = atExit(() => {
    killNow(child.pid);
    removeDir(dir);
  });
  const url = `http://127.0.0.1:${port}`;
  const errorLog = () => {
    try {
      return readFileSync(path.join(dir, 'logs', 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const answersGeneration = async (g: number) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const gone = exitReason(child);
      if (gone) throw new Error(`nginx ${gone}: ${stderr}${errorLog()}`);
      try {
        const res = await fetch(`${url}${PROBE}`, { signal: AbortSignal.timeout(1_000) });
        if ((await res.text()) === String(g)) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`nginx did not answer with config generation ${g}: ${errorLog()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await waitForHttp(`${url}${PROBE}`, { what: 'nginx', exited: () => exitReason(child), timeoutMs: 10_000 });
  } catch (error) {
    killNow(child.pid);
    removeDir(dir);
    unregister();
    throw new Error(`${(error as Error).message}\n${stderr}${errorLog()}`, { cause: error });
  }

  return {
    url,
    port,
    dir,
    upstreams: () => [...current],
    async setUpstreams(ports) {
      if (ports.length === 0) throw new Error('nginx needs at least one upstream');
      generation += 1;
      current = [...ports];
      writeFileSync(confFile, config(dir, port, current, generation, o));
      // SIGHUP: the master rereads the config, starts new workers and lets the old ones finish.
      child.kill('SIGHUP');
      await answersGeneration(generation);
    },
    accessLog() {
      let text: string;
      try {
        text = readFileSync(path.join(dir, 'logs', 'access.log'), 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          // method|uri|status|upstream_addr|upstream_status; only the uri could hold a '|'.
          const parts = line.split('|');
          return {
            method: parts[0] ?? '',
            path: parts.slice(1, -3).join('|'),
            status: Number(parts.at(-3)),
            upstream: parts.at(-2) ?? '',
            upstreamStatus: parts.at(-1) ?? '',
          };
        })
        .filter((e) => e.path !== PROBE);
    },
    errorLog,
    async stop() {
      // QUIT: a graceful stop; killGroup falls back to SIGKILL if it lingers.
      await killGroup(child, 'SIGQUIT', 5_000);
      removeDir(dir);
      unregister();
    },
  };
}
