import type { z } from 'zod';
import { AppError } from './app-error.js';

/** Parses a body, query or params object; a failure is a 400 listing every bad field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new AppError(400, 'invalid_request', {
    errors: result.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message })),
  });
}
