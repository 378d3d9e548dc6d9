// PostgreSQL refuses the NUL character (U+0000) in text, so a request carrying one would fail
// as a 500 there and be stored as given on SQLite. One rule for every route, whatever the
// database: a NUL in a path parameter, a query value, a JSON body's text (values and keys, at
// any depth) or a form field is refused with a 400 naming the field, before the route runs. Form
// bodies are read by the routes themselves; their readers (multipart-form.ts, upscale-upload.ts)
// apply the same check.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import { localeFrom, message } from './messages.js';

const NUL = '\u0000';

/** The path of the first text in `value` (a key too) that holds a NUL, or undefined; bytes (a Buffer) are not text. */
export function nulAt(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || '(body)' : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > 64) return undefined;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulAt(item, at(String(index)), depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return at(key);
    const found = nulAt(item, at(key), depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function hasNul(value: unknown): boolean {
  return nulAt(value) !== undefined;
}

/** The 400 for a NUL in `field`, in the request's language. */
export function nulRefusal(request: Pick<FastifyRequest, 'headers'>, field: string): AppError {
  const text = message('text_has_nul', localeFrom(request.headers['accept-language']));
  return new AppError(400, 'text_has_nul', { errors: [{ field, message: text }] });
}

/** Installs the rule on `app` and every route registered after it. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = nulAt(request.params) ?? nulAt(request.query) ?? nulAt(request.body);
    if (field !== undefined) throw nulRefusal(request, field);
  });
}
