// PostgreSQL refuses the NUL character (U+0000) in text, so a request carrying one would fail
// as a 500 there and be stored as given on SQLite. One rule for every route, whatever the
// database: a NUL in a path parameter, a query value, a JSON body's text (values and keys, at
// any depth) or a form field is refused with a 400 before the route runs. Form bodies are read
// by the routes themselves; their reader (multipart-form.ts) applies the same check.
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.js';

const NUL = '\u0000';

/** True when a string anywhere in `value` (a key too) holds a NUL; bytes (a Buffer) are not text. */
export function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 64) return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes(NUL) || hasNul(item, depth + 1));
}

export function nulRefusal(): AppError {
  return new AppError(400, 'text_has_nul');
}

/** Installs the rule on `app` and every route registered after it. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) throw nulRefusal();
  });
}
