// The analyse call's multipart form, read and checked before any stream starts so every refusal
// is a real 4xx naming its limit (spec §5/§9): at most 6 model images, 6 pattern images and 10 in
// all, prompt and description at most 1000 characters, fabric fields at most 100 or 500. Images
// past those counts are refused as they arrive, before they are read into memory.
import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError } from '../../../http/app-error.js';
import { LOCALES, localeFrom, message, type Locale } from '../../../http/messages.js';
import { formBytes, readForm, type FormLimits } from '../../../http/multipart-form.js';
import type { UploadHold } from '../../../http/upload-budget.js';
import type { Aspect, FabricInfo } from '../../../providers/capabilities.js';
import type { UploadRole } from '../store/generation-tables.js';

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

/** The analyse form's parser limits: 6 + 6 files (and one more, so a 13th unknown file is refused). */
export function analyzeFormLimits(maxBytes: number): FormLimits {
  return { fileSize: maxBytes, files: MAX_MODEL_IMAGES + MAX_PATTERN_IMAGES + 1, fields: 40, fieldSize: 64 * 1024 };
}

/** The most an analyse request reserves of the upload budget: 10 images and the fields. */
export function analyzeFormBytes(maxBytes: number): number {
  return formBytes(analyzeFormLimits(maxBytes), MAX_IMAGES_TOTAL);
}

/**
 * Reads the form under `hold`. The 7th model image, the 7th pattern image and the 11th image are
 * refused as their parts arrive, before their bytes are read; unknown files are read and dropped.
 */
export async function readAnalyzeForm(request: FastifyRequest, maxBytes: number, hold: UploadHold): Promise<AnalyzeForm> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
  const counts: Record<UploadRole, number> = { model: 0, pattern: 0 };
  const limits = analyzeFormLimits(maxBytes);
  const form = await readForm(request, {
    limits,
    hold,
    admitFile: (field) => {
      const role = FILE_ROLES[field];
      if (!role) return false;
      counts[role] += 1;
      if (counts.model > MAX_MODEL_IMAGES) {
        throw new AppError(400, 'too_many_model_images', { vars: { max: MAX_MODEL_IMAGES, count: counts.model } });
      }
      if (counts.pattern > MAX_PATTERN_IMAGES) {
        throw new AppError(400, 'too_many_pattern_images', { vars: { max: MAX_PATTERN_IMAGES, count: counts.pattern } });
      }
      const total = counts.model + counts.pattern;
      if (total > MAX_IMAGES_TOTAL) throw new AppError(400, 'too_many_images_total', { vars: { max: MAX_IMAGES_TOTAL, count: total } });
      return true;
    },
    tooLarge: (name) => new AppError(413, 'image_too_large', { vars: { name, mb: Math.round(maxBytes / (1024 * 1024)) } }),
    tooManyFiles: () =>
      new AppError(413, 'too_many_images_total', { vars: { max: MAX_IMAGES_TOTAL, count: `>${limits.files - 1}` } }),
  });
  const fields: Record<string, string> = {};
  for (const { field, value } of form.fields) fields[field] = value;
  const files: FormFile[] = form.files.map((f) => ({ role: FILE_ROLES[f.field]!, name: f.name, data: f.data }));

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
