// The image group's small calls accept JSON (as the image group sends) or a multipart form (as the
// specification describes its streaming calls): either way they become one plain object of fields.
// A field sent several times, or named with [], becomes a list.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { admitForm, formBytes, readForm, type FormLimits } from '../../http/multipart-form.js';
import type { UploadBudget } from '../../http/upload-budget.js';

/** A form of these calls carries text fields only: a file part is refused with the plugin's 413. */
const FIELDS_ONLY: FormLimits = { fileSize: 0, files: 0, fields: 60, fieldSize: 64 * 1024 };

export async function readFields(request: FastifyRequest, uploads: UploadBudget): Promise<Record<string, unknown>> {
  if (!request.isMultipart()) {
    const body = request.body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw new AppError(400, 'invalid_json');
    return body as Record<string, unknown>;
  }
  // Refused with a 503 before the body is read when other uploads fill the budget.
  const hold = admitForm(request, uploads, formBytes(FIELDS_ONLY, 0));
  let parts: Awaited<ReturnType<typeof readForm>>['fields'];
  try {
    ({ fields: parts } = await readForm(request, {
      limits: FIELDS_ONLY,
      hold,
      admitFile: () => false,
      tooLarge: () => new AppError(413, 'payload_too_large'),
    }));
  } finally {
    hold.close();
  }
  const fields: Record<string, unknown> = {};
  for (const part of parts) {
    const name = part.field.replace(/\[\]$/, '');
    const previous = fields[name];
    if (part.field.endsWith('[]') || previous !== undefined) {
      fields[name] = [...(Array.isArray(previous) ? previous : previous === undefined ? [] : [previous]), part.value];
    } else {
      fields[name] = part.value;
    }
  }
  return fields;
}
