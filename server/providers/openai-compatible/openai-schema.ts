// response_format json_schema from our zod schemas, in the subset strict mode takes: every
// property required, additionalProperties false (zod's output already is), and no minLength /
// maxLength, which strict mode refuses; our own check of the answer still enforces them.
import type { z } from 'zod';
import { jsonSchemaOf } from '../shared/answer-schemas.js';

const UNSUPPORTED = new Set(['minLength', 'maxLength']);

export function jsonSchemaFormat(name: string, schema: z.ZodType) {
  return {
    type: 'json_schema' as const,
    json_schema: { name, strict: true, schema: strip(jsonSchemaOf(schema)) as Record<string, unknown> },
  };
}

function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).filter(([key]) => !UNSUPPORTED.has(key)).map(([key, value]) => [key, strip(value)]));
}
