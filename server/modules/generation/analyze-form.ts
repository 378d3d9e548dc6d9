// The analyse call's multipart form, read and checked before any stream starts so every refusal
// is a real 4xx naming its limit (spec §5/§9): at most 6 model images, 6 pattern images and 10 in
// all, prompt and description at most 1000 characters, fabric fields at most 100 or 500.
import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError } from '../../http/app-error.js';
import { LOCALES, localeFrom, message, type Locale } from '../../http/messages.js';
import type { Aspect, FabricInfo } from '../../providers/capabilities.js';
import type { UploadRole } from './generation-tables.js';

export const MAX_MODEL_IMAGES = 6;
export const MAX_PATTERN_IMAGES = 6;
export const MAX_IMAGES_TOTAL = 10;
export const MAX_PROMPT_LENGTH = 1000;
export const ASPECTS: readonly Aspect[] = ['square', 'vertical', 'horizontal', 'auto'];

/** Spec §3's fabric form: short choices (a preset or a few words) and free text. */
export const FABRIC_FIELD_LIMITS: Record<keyof FabricInfo, number> = {
  fabric_name: 100,
  composition: 100,
  weight: 100,
  transparency: 100,
  luster: 100,
  drape: 100,
  touch: 100,
  thickness: 100,
  suggested_uses: 500,
  scene: 500,
  model_guidance: 500,
  color_restrictions: 500,
  accessories: 500,
  style: 500,
  target_market: 500,
  selling_points: 500,
  remarks: 500,
};

const FILE_ROLES: Record<string, UploadRole> = {
  model_images: 'model',
  'model_images[]': 'model',
  model_image: 'model',
  pattern_images: 'pattern',
  'pattern_images[]': 'pattern',
  pattern_image: 'pattern',
};

export const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

export interface FormFile {
  role: UploadRole;
  name: string;
  data: Buffer;
}

export interface AnalyzeForm {
  requestId: string | undefined;
  prompt: string;
  description: string | undefined;
  language: Locale;
  aspect: Aspect;
  fabric: FabricInfo;
  files: FormFile[];
}

/** A 400 whose message names the first problem and whose data lists them all. */
export function refuse(errors: (FieldError & { key: 'text_too_long' | 'field_required'; max?: number })[]): never {
  const first = errors[0]!;
  throw new AppError(400, first.key, {
    vars: { field: first.field, max: first.max ?? 0 },
    errors: errors.map(({ field, message: m }) => ({ field, message: m })),
  });
}

export function checkText(
  errors: Parameters<typeof refuse>[0],
  field: string,
  value: string | undefined,
  max: number,
  required = false,
): string | undefined {
  const text = value?.trim() ?? '';
  if (!text) {
    if (required) errors.push({ field, key: 'field_required', message: message('field_required', 'en-US', { field }) });
    return undefined;
  }
  // Counted in UTF-16 units, as the browser's maxlength counts.
  if (text.length > max) {
    errors.push({ field, key: 'text_too_long', max, message: message('text_too_long', 'en-US', { field, max }) });
  }
  return text;
}

export function fabricFrom(fields: Record<string, string>, errors: Parameters<typeof refuse>[0]): FabricInfo {
  let given: Record<string, unknown> = {};
  const json = fields.fabric_info ?? fields.fabric;
  if (json) {
    try {
      const parsed: unknown = JSON.parse(json);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) given = parsed as Record<string, unknown>;
    } catch {
      throw new AppError(400, 'invalid_json');
    }
  }
  const fabric: FabricInfo = {};
  for (const [key, max] of Object.entries(FABRIC_FIELD_LIMITS) as [keyof FabricInfo, number][]) {
    const raw = fields[key] ?? given[key];
    const value = checkText(errors, key, typeof raw === 'string' ? raw : raw == null ? undefined : String(raw), max);
    if (value) fabric[key] = value;
  }
  return fabric;
}

export function languageOf(value: string | undefined, request: FastifyRequest): Locale {
  const wanted = LOCALES.find((l) => l.toLowerCase() === value?.trim().toLowerCase());
  return wanted ?? localeFrom(value || request.headers['accept-language']);
}

export async function readAnalyzeForm(request: FastifyRequest, maxBytes: number): Promise<AnalyzeForm> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
  const fields: Record<string, string> = {};
  const files: FormFile[] = [];
  const maxFiles = MAX_MODEL_IMAGES + MAX_PATTERN_IMAGES;
  const parts = request.parts({
    limits: { fileSize: maxBytes, files: maxFiles + 1, fields: 40, fieldSize: 64 * 1024, parts: maxFiles + 41 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const role = FILE_ROLES[part.fieldname];
      const name = part.filename || part.fieldname;
      let data: Buffer;
      try {
        data = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError(413, 'image_too_large', { vars: { name, mb: Math.round(maxBytes / (1024 * 1024)) } });
        }
        throw error;
      }
      // Unknown file fields are read and dropped, like unknown text fields.
      if (role) files.push({ role, name, data });
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw new AppError(413, 'too_many_images_total', { vars: { max: MAX_IMAGES_TOTAL, count: `>${maxFiles}` } });
    }
    throw error;
  }

  const model = files.filter((f) => f.role === 'model').length;
  const pattern = files.length - model;
  if (model > MAX_MODEL_IMAGES) throw new AppError(400, 'too_many_model_images', { vars: { max: MAX_MODEL_IMAGES, count: model } });
  if (pattern > MAX_PATTERN_IMAGES) {
    throw new AppError(400, 'too_many_pattern_images', { vars: { max: MAX_PATTERN_IMAGES, count: pattern } });
  }
  if (files.length > MAX_IMAGES_TOTAL) {
    throw new AppError(400, 'too_many_images_total', { vars: { max: MAX_IMAGES_TOTAL, count: files.length } });
  }

  const errors: Parameters<typeof refuse>[0] = [];
  const prompt = checkText(errors, 'prompt', fields.prompt, MAX_PROMPT_LENGTH, true);
  const description = checkText(errors, 'description', fields.description, MAX_PROMPT_LENGTH);
  const fabric = fabricFrom(fields, errors);
  if (errors.length > 0) refuse(errors);
  if (files.length === 0) throw new AppError(400, 'images_required');

  const requestId = fields.request_id?.trim() || undefined;
  if (requestId !== undefined && !REQUEST_ID.test(requestId)) {
    throw new AppError(400, 'invalid_request', {
      errors: [{ field: 'request_id', message: 'must be 1 to 128 letters, digits or _.:-' }],
    });
  }
  const aspect = (fields.aspect?.trim() || 'auto') as Aspect;
  if (!ASPECTS.includes(aspect)) {
    throw new AppError(400, 'invalid_request', { errors: [{ field: 'aspect', message: `one of ${ASPECTS.join(', ')}` }] });
  }
  return {
    requestId,
    prompt: prompt!,
    description,
    language: languageOf(fields.language, request),
    aspect,
    fabric,
    files,
  };
}
