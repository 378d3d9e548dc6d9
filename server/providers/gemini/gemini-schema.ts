// Gemini's responseSchema from our zod schemas. Gemini writes object keys in alphabetical order
// unless told otherwise, so every object gets propertyOrdering: the analysis prose must come
// first for it to stream (see shared/streamed-json-field.ts). The SDK turns this JSON Schema into
// its own Schema type (upper-case types; additionalProperties dropped).
import type { z } from 'zod';
import { jsonSchemaOf } from '../shared/answer-schemas.js';

export function geminiResponseSchema(schema: z.ZodType): Record<string, unknown> {
  return withPropertyOrdering(jsonSchemaOf(schema)) as Record<string, unknown>;
}

function withPropertyOrdering(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withPropertyOrdering);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = withPropertyOrdering(value);
  const properties = out.properties;
  if (typeof properties === 'object' && properties !== null) out.propertyOrdering = Object.keys(properties);
  return out;
}
