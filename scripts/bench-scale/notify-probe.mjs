// Loaded into a ROLE=worker companion by scripts/bench-scale.ts (NODE_OPTIONS=--import this file):
// for every job-progress NOTIFY the process sends (the team job engine's progress bus runs
// `SELECT pg_notify($1, $2)` on its pg.Pool, channel loom_progress_<schema>), one JSON line in
// BENCH_NOTIFY_LOG with the wall-clock time (ms, sub-ms precision) at which the pool was asked to
// send it, and the payload. Plain JavaScript: it runs before the tsx loader is registered. The
// server's `import pg from 'pg'` and this one are the same CommonJS module, so the patch reaches
// the engine's pool.
import { appendFileSync } from 'node:fs';
import pg from 'pg';

const file = process.env.BENCH_NOTIFY_LOG;
if (file) {
  let pending = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending.join('');
    pending = [];
    appendFileSync(file, lines);
  };
  const original = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function query(text, values, callback) {
    if (
      text === 'SELECT pg_notify($1, $2)' &&
      Array.isArray(values) &&
      String(values[0]).startsWith('loom_progress_')
    ) {
      pending.push(
        `${JSON.stringify({ t: performance.timeOrigin + performance.now(), payload: values[1] })}\n`,
      );
    }
    return original.call(this, text, values, callback);
  };
  setInterval(flush, 100).unref();
  process.on('exit', flush);
}
