// POST /workshop/items's input, as a multipart form (type, text, images[], config as JSON or as
// fields) or as JSON (images as data: URLs). Checked before anything is stored: the type's
// required parts, text and image limits, config ranges, the model against what is offered.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import type { Locale } from '../../http/messages.js';
import { decimalField } from '../../http/strict-numbers.js';
import { formBytes, readForm, type FormLimits } from '../../http/multipart-form.js';
import type { UploadHold } from '../../http/upload-budget.js';
import { validate } from '../../http/validate.js';
import { checkText, languageOf, refuse } from '../generation/form-fields.js';
import { ENHANCE_STYLES } from './workshop-models.js';
import { WORKSHOP_TYPES, type WorkshopType } from './workshop-table.js';
import type { WorkshopConfig } from './workshop-config.js';

export const MAX_WORKSHOP_TEXT = 5000;
export const MAX_WORKSHOP_IMAGES = 6;

const FILE_FIELDS = new Set(['images', 'images[]', 'image', 'files', 'files[]', 'file']);

/** 0..1, or a percentage 0..100 as a slider sends it. */
const unit = decimalField(0, 100).transform((v) => (v > 1 ? v / 100 : v));

const configSchema = z.object({
  model: z.string().trim().min(1).max(100).optional(),
  creativity: unit.default(0.5),
  precision: unit.default(0.5),
  style: z.enum(ENHANCE_STYLES).default('natural'),
});

export interface WorkshopInput {
  type: WorkshopType;
  text: string | undefined;
  images: { name: string; data: Buffer }[];
  config: WorkshopConfig;
  language: Locale;
}

function dataUrl(value: unknown, index: number): { name: string; data: Buffer } {
  const match = typeof value === 'string' ? /^data:[^;,]*;base64,(.*)$/s.exec(value) : null;
  if (!match) {
    throw new AppError(400, 'invalid_request', { errors: [{ field: `images.${index}`, message: 'must be a data: URL (base64)' }] });
  }
  return { name: `image-${index + 1}`, data: Buffer.from(match[1]!, 'base64') };
}

/** The workshop form's parser limits: 6 images (and one more, so a 7th file of any name is refused). */
export function workshopFormLimits(maxBytes: number): FormLimits {
  return { fileSize: maxBytes, files: MAX_WORKSHOP_IMAGES + 1, fields: 20, fieldSize: 64 * 1024 };
}

/** The most a workshop request reserves of the upload budget: 6 images and the fields. */
export function workshopFormBytes(maxBytes: number): number {
  return formBytes(workshopFormLimits(maxBytes), MAX_WORKSHOP_IMAGES);
}

/** Reads the input; a form under `hold`, its 7th image refused as it arrives, before it is read. */
export async function readWorkshopInput(request: FastifyRequest, maxBytes: number, hold: UploadHold): Promise<WorkshopInput> {
  const fields: Record<string, unknown> = {};
  const images: { name: string; data: Buffer }[] = [];
  if (request.isMultipart()) {
    let count = 0;
    const form = await readForm(request, {
      limits: workshopFormLimits(maxBytes),
      hold,
      admitFile: (field) => {
        if (!FILE_FIELDS.has(field)) return false;
        count += 1;
        if (count > MAX_WORKSHOP_IMAGES) throw new AppError(400, 'too_many_images_total', { vars: { max: MAX_WORKSHOP_IMAGES, count } });
        return true;
      },
      tooLarge: (name) => new AppError(413, 'image_too_large', { vars: { name, mb: Math.round(maxBytes / (1024 * 1024)) } }),
      tooManyFiles: () =>
        new AppError(413, 'too_many_images_total', { vars: { max: MAX_WORKSHOP_IMAGES, count: `>${MAX_WORKSHOP_IMAGES}` } }),
    });
    for (const { field, value } of form.fields) fields[field] = value;
    for (const { name, data } of form.files) images.push({ name, data });
  } else {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError(400, 'invalid_json');
    Object.assign(fields, body);
    const given = (body as { images?: unknown }).images;
    if (given !== undefined) {
      if (!Array.isArray(given)) throw new AppError(400, 'invalid_request', { errors: [{ field: 'images', message: 'must be a list' }] });
      if (given.length > MAX_WORKSHOP_IMAGES) {
        throw new AppError(400, 'too_many_images_total', { vars: { max: MAX_WORKSHOP_IMAGES, count: given.length } });
      }
      given.forEach((v, i) => images.push(dataUrl(v, i)));
    }
  }
  if (images.length > MAX_WORKSHOP_IMAGES) {
    throw new AppError(400, 'too_many_images_total', { vars: { max: MAX_WORKSHOP_IMAGES, count: images.length } });
  }

  const errors: Parameters<typeof refuse>[0] = [];
  const text = checkText(errors, 'text', typeof fields.text === 'string' ? fields.text : undefined, MAX_WORKSHOP_TEXT);
  if (errors.length > 0) refuse(errors);
  const typeValue = fields.type ?? (images.length > 0 ? (text ? 'mixed' : 'image') : 'text');
  const type = validate(z.object({ type: z.enum(WORKSHOP_TYPES) }), { type: typeValue }).type;
  if ((type === 'text' || type === 'mixed') && !text) refuse([{ field: 'text', key: 'field_required', message: 'text is required' }]);
  if ((type === 'image' || type === 'mixed') && images.length === 0) throw new AppError(400, 'image_required');

  let rawConfig: unknown = fields.config;
  if (typeof rawConfig === 'string') {
    try {
      rawConfig = JSON.parse(rawConfig);
    } catch {
      throw new AppError(400, 'invalid_json');
    }
  }
  const flat = Object.fromEntries(['model', 'creativity', 'precision', 'style'].filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]));
  const parsed = validate(configSchema, { ...flat, ...(rawConfig && typeof rawConfig === 'object' ? rawConfig : {}) });
  return {
    type,
    text,
    images,
    config: { ...(parsed.model ? { model: parsed.model } : {}), creativity: parsed.creativity, precision: parsed.precision, style: parsed.style },
    language: languageOf(typeof fields.language === 'string' ? fields.language : undefined, request),
  };
}

export const workshopFormDoc = z.object({
  type: z.enum(WORKSHOP_TYPES),
  text: z.string().max(MAX_WORKSHOP_TEXT).optional(),
  images: z.array(z.string()).max(MAX_WORKSHOP_IMAGES).optional().describe('files (multipart) or data: URLs (JSON)'),
  config: configSchema.optional(),
  language: z.string().optional(),
});
