// The analyse call's multipart form, read and checked before any stream starts so every refusal
// is a real 4xx naming its limit (spec §5/§9): at most 6 model images, 6 pattern images and 10 in
// all, prompt and description at most 1000 characters, fabric fields at most 100 or 500. Images
// past those counts are refused as they arrive, before they are read into memory.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../http/app-error.js';
import type { Locale } from '../../../http/messages.js';
import { formBytes, readForm, type FormLimits } from '../../../http/multipart-form.js';
import type { UploadHold } from '../../../http/upload-budget.js';
import type { Aspect, FabricInfo } from '../../../providers/capabilities.js';
import type { UploadRole } from '../store/generation-tables.js';
import { ASPECTS, REQUEST_ID, checkText, fabricFrom, languageOf, MAX_PROMPT_LENGTH, refuse } from '../form-fields.js';
import { MAX_IMAGES_TOTAL, MAX_MODEL_IMAGES, MAX_PATTERN_IMAGES } from '../../../../shared/generation/image-limits.js';

const FILE_ROLES: Record<string, UploadRole> = {
  model_images: 'model',
  'model_images[]': 'model',
  model_image: 'model',
  pattern_images: 'pattern',
  'pattern_images[]': 'pattern',
  pattern_image: 'pattern',
};

export interface FormFile {
  role: UploadRole;
  name: string;
  data: Buffer;
}

export interface AnalyzeForm {
  /** The form's request_id: the client's own id for the request (a resend joins the same work). */
  clientRequestId: string | undefined;
  prompt: string;
  description: string | undefined;
  language: Locale;
  aspect: Aspect;
  fabric: FabricInfo;
  files: FormFile[];
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

  const clientRequestId = fields.request_id?.trim() || undefined;
  if (clientRequestId !== undefined && !REQUEST_ID.test(clientRequestId)) {
    throw new AppError(400, 'invalid_request', {
      errors: [{ field: 'request_id', message: 'must be 1 to 128 letters, digits or _.:-' }],
    });
  }
  const aspect = (fields.aspect?.trim() || 'auto') as Aspect;
  if (!ASPECTS.includes(aspect)) {
    throw new AppError(400, 'invalid_request', { errors: [{ field: 'aspect', message: `one of ${ASPECTS.join(', ')}` }] });
  }
  return {
    clientRequestId,
    prompt: prompt!,
    description,
    language: languageOf(fields.language, request),
    aspect,
    fabric,
    files,
  };
}
