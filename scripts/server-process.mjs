// Starts a server entry (`node scripts/server-process.mjs server/main.ts`) in a Node.js process of
// its own whose C allocator is set up for a long-lived upscaler. On Linux, glibc's malloc gives
// each new thread an arena of its own; the upscale engine's threads come and go with every job,
// and the memory they free stays in those arenas' pages. Through the service, 4 MP 4x jobs back
// to back left 344 rising to 447 MiB behind and peaked at 975 rising to 1098 MiB, past the 1 GiB
// bound by the third; with two arenas they left 282-308 MiB behind and peaked at 925-956 MiB, one
// at 1024 (`npm run bench:upscale-queue`; Intel Xeon, 2 cores). glibc reads the setting
// once, as the process starts, so it is set here, for the process this one starts. Plain
// JavaScript with Node's own modules only, like require-node.mjs.
import { spawn } from 'node:child_process';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node scripts/server-process.mjs <entry.ts> [arguments]\n');
  process.exit(2);
}
const env = { ...process.env };
// an operator's own setting wins
if (process.platform === 'linux') env.MALLOC_ARENA_MAX ??= '2';

const child = spawn(process.execPath, [...process.execArgv, '--import', 'tsx', entry, ...args], {
  stdio: 'inherit',
  env,
});
// Ctrl+C, a service manager's stop, a closed terminal: passed on, so the server ends as it would
// without this process (gracefully on SIGINT and SIGTERM, see server/close-on-signals.ts).
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`could not start ${entry}: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // end the way the server ended, so a supervisor sees the same signal
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
