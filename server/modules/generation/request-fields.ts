// The image group's small calls accept JSON (as the image group sends) or a multipart form (as the
// streaming calls were once sent): either way they become one plain object of fields. A field sent
// several times, or named with [], becomes a list.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';

export async function readFields(request: FastifyRequest): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new AppError(400, 'invalid_json');
    return body as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for await (const part of request.parts({ limits: { fields: 60, fieldSize: 64 * 1024, files: 0 } })) {
    if (part.type !== 'field' || typeof part.value !== 'string') continue;
    const name = part.fieldname.replace(/\[\]$/, '');
    const previous = fields[name];
    if (part.fieldname.endsWith('[]') || previous !== undefined) {
      fields[name] = [...(Array.isArray(previous) ? previous : previous === undefined ? [] : [previous]), part.value];
    } else {
      fields[name] = part.value;
    }
  }
  return fields;
}
